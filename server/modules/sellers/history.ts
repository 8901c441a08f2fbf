// The seller update history (getUpdateHistory): every change to a seller, with who, when and each field
// before → after. Callers write the entry in the same transaction as the change itself.
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { type FieldChange, sellerHistory, users } from '../../db/schema';
import { displayName } from '../users/current-user';

export interface Actor {
  id: string | null;
  name: string;
}

/** Changes the system makes on its own (a subscription period ending) carry this actor. */
export const SYSTEM_ACTOR: Actor = { id: null, name: 'System' };

/** The signed-in user as the history names them. */
export async function actorOf(db: Db | Tx, request: FastifyRequest): Promise<Actor> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, request.user.id));
  return {
    id: request.user.id,
    name: user ? displayName(user.firstName, user.lastName, user.email) : 'Unknown user',
  };
}

/** The fields whose value differs between `before` and `after` (compared as JSON), in `fields` order. */
export function diffFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ field, before: from, after: to });
  }
  return changes;
}

/** A history row (seller or product) as the API answers it: the one audit timeline shape. */
export function historyEntryDto(row: {
  id: string;
  createdAt: Date;
  actorId: string | null;
  actorName: string;
  action: string;
  changes: FieldChange[];
  note: string | null;
}) {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actor: { id: row.actorId, name: row.actorName },
    action: row.action,
    changes: row.changes,
    note: row.note,
  };
}

export async function recordSellerChange(
  db: Db | Tx,
  entry: { sellerId: string; actor: Actor; action: string; changes?: FieldChange[]; note?: string | null },
): Promise<void> {
  await db.insert(sellerHistory).values({
    sellerId: entry.sellerId,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    changes: entry.changes ?? [],
    note: entry.note ?? null,
  });
}
