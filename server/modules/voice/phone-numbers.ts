// Every user has a phone number (issue 6): the local voice provider rings the user who owns a
// dialled number. Seeded users have theirs; invited staff and anyone still without one get the next
// free number of the installation's own range, "+91 90000 NNNNN".
import { and, eq, ne, sql } from 'drizzle-orm';
import type { ServerRole } from '../../../contracts/roles';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { users } from '../../db/schema';
import { isUniqueViolation } from '../../lib/pg-errors';

const LOCAL_PREFIX_DIGITS = '9190000';
const LOCAL_RANGE_SIZE = 99_999;
const PHONE_INDEX = 'users_phone_digits_uq';
const ATTEMPTS = 5;

/** Numbers compare by their digits, as the unique index users_phone_digits_uq does. */
export const phoneDigitsSql = sql`regexp_replace(${users.phone}, '[^0-9]', '', 'g')`;

export function formatLocalNumber(n: number): string {
  return `+91 90000 ${String(n).padStart(5, '0')}`;
}

/**
 * The lowest free number of the local range. Free when read: a concurrent allocation may take it
 * first, which the unique index turns into an error the callers retry on (withFreshNumber).
 */
export async function allocateLocalNumber(db: Db | Tx): Promise<string> {
  // generate_series yields in order and stops at the first hit; each probe is an index lookup.
  const result = await db.execute(sql`
    SELECT n FROM generate_series(1, ${LOCAL_RANGE_SIZE}::int) AS n
    WHERE NOT EXISTS (
      SELECT 1 FROM ${users}
      WHERE ${users.phone} <> '' AND ${phoneDigitsSql} = ${LOCAL_PREFIX_DIGITS} || lpad(n::text, 5, '0')
    )
    LIMIT 1`);
  const [row] = rowsOf<{ n: number }>(result);
  if (!row) throw new Error('Every number of the local range +91 90000 NNNNN is taken');
  return formatLocalNumber(Number(row.n));
}

/** Runs `attempt` again when it lost a race for a number (a unique violation of the phone index). */
export async function withFreshNumber<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= ATTEMPTS || !isUniqueViolation(error, PHONE_INDEX)) throw error;
    }
  }
}

/** The user's number; a user without one gets the next free number first. */
export async function ensureUserNumber(db: Db, userId: string): Promise<string> {
  const [current] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  if (!current) throw new Error(`no user ${userId}`);
  if (current.phone !== '') return current.phone;
  return withFreshNumber(async () => {
    const number = await allocateLocalNumber(db);
    const [updated] = await db
      .update(users)
      .set({ phone: number, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.phone, '')))
      .returning({ phone: users.phone });
    if (updated) return updated.phone;
    // Another request gave this user a number in the meantime: that one stands.
    const [now] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
    return now?.phone ?? number;
  });
}

export interface NumberOwner {
  id: string;
  role: ServerRole;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  isActive: boolean;
}

/** The user whose number has these digits, if any. */
export async function findNumberOwner(db: Db | Tx, digits: string): Promise<NumberOwner | undefined> {
  const [owner] = await db
    .select({
      id: users.id,
      role: users.role,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      isActive: users.isActive,
    })
    .from(users)
    .where(and(ne(users.phone, ''), eq(phoneDigitsSql, digits)));
  return owner;
}
