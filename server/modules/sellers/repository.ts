// Reads and checks the seller routes share: find a seller (optionally locked for a change), keep e-mail
// and seller code unique (case-insensitive, as the database's unique indexes are), generate a code.
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sellers, users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';

export type SellerRow = typeof sellers.$inferSelect;

export const sellerNotFound = () => new HttpError(404, 'Seller not found', 'SELLER_NOT_FOUND');

/** The seller, or 404. `forUpdate` locks the row until the transaction ends, so changes never interleave. */
export async function findSeller(db: Db | Tx, id: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(sellers).where(eq(sellers.id, id));
  const [seller] = options.forUpdate ? await query.for('update') : await query;
  if (!seller) throw sellerNotFound();
  return seller;
}

/** Writes `patch` to the seller (stamping updatedAt) and returns the row as it is now. */
export async function updateSeller(tx: Tx, id: string, patch: Partial<typeof sellers.$inferInsert>) {
  const [row] = await tx
    .update(sellers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(sellers.id, id))
    .returning();
  return row as SellerRow;
}

/** The user account that signs in for the seller (the oldest, if there are several), for the detail view. */
export async function sellerUserId(db: Db, sellerId: string): Promise<string | null> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.sellerId, sellerId))
    .orderBy(users.createdAt)
    .limit(1);
  return user?.id ?? null;
}

const duplicateEmail = (email: string) =>
  new HttpError(409, `A seller with the e-mail ${email} already exists.`, 'DUPLICATE_EMAIL');
const duplicateCode = (code: string) =>
  new HttpError(409, `The seller code ${code} is already taken.`, 'DUPLICATE_SELLER_CODE');

/** 409 when another seller already has this e-mail or code, compared case-insensitively. */
export async function assertUnique(
  db: Db | Tx,
  values: { email?: string; sellerCode?: string },
  exceptId?: string,
): Promise<void> {
  const other = (condition: SQL) => (exceptId ? and(condition, ne(sellers.id, exceptId)) : condition);
  if (values.email !== undefined) {
    const [taken] = await db
      .select({ id: sellers.id })
      .from(sellers)
      .where(other(sql`lower(${sellers.email}) = lower(${values.email})`))
      .limit(1);
    if (taken) throw duplicateEmail(values.email);
  }
  if (values.sellerCode !== undefined) {
    const [taken] = await db
      .select({ id: sellers.id })
      .from(sellers)
      .where(other(sql`lower(${sellers.sellerCode}) = lower(${values.sellerCode})`))
      .limit(1);
    if (taken) throw duplicateCode(values.sellerCode);
  }
}

/**
 * Two admins saving the same e-mail at the same moment both pass `assertUnique`; the unique index
 * stops the second, and this turns that into the same 409 the check gives.
 */
export function asDuplicateError(error: unknown, values: { email?: string; sellerCode?: string }): unknown {
  if (isUniqueViolation(error, 'sellers_email_uq')) return duplicateEmail(values.email ?? '');
  if (isUniqueViolation(error, 'sellers_code_uq')) return duplicateCode(values.sellerCode ?? '');
  return error;
}

/** The next free SEL-nnnn code: one more than the highest such code (readable, sortable, short). */
export async function nextSellerCode(db: Db | Tx): Promise<string> {
  const [row] = await db
    .select({
      highest: sql<number | null>`max(substring(${sellers.sellerCode} from '^SEL-([0-9]{1,9})$')::int)`,
    })
    .from(sellers);
  const next = Number(row?.highest ?? 0) + 1;
  return `SEL-${String(next).padStart(4, '0')}`;
}
