// The supplier list the admin manages (issue 31): name, e-mail the purchase orders go to, address, tax id,
// currency and the receiving tolerance of their deliveries. A supplier with purchase orders is made
// inactive rather than deleted, so its orders keep their supplier.
import { and, asc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { Supplier, SupplierBody } from '../../../contracts/purchase-orders';
import type { Db } from '../../db/client';
import { suppliers } from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { isUniqueViolation } from '../../lib/pg-errors';
import { supplierOf } from './service';

const values = (body: SupplierBody) => ({
  name: body.name,
  email: body.email,
  phone: body.phone,
  address: body.address,
  taxId: body.taxId,
  currency: body.currency,
  toleranceKind: body.tolerance.kind,
  toleranceValue: body.tolerance.value,
  active: body.active,
});

const duplicate = (name: string) =>
  new HttpError(409, `There is a supplier named “${name}” already.`, 'SUPPLIER_EXISTS');

export async function listSuppliers(
  db: Db,
  query: { query: string; activeOnly: 'true' | 'false'; skip: number; limit: number },
): Promise<{ result: Supplier[]; total: number }> {
  const conditions: (SQL | undefined)[] = [
    query.query ? ilike(suppliers.name, containsPattern(query.query)) : undefined,
    query.activeOnly === 'true' ? eq(suppliers.active, true) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(suppliers)
      .where(where)
      .orderBy(asc(suppliers.name))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: sql<number>`count(*)::integer` }).from(suppliers).where(where),
  ]);
  return { result: rows.map(supplierOf), total: Number(counted?.n ?? 0) };
}

export async function createSupplier(db: Db, actor: Actor, body: SupplierBody): Promise<Supplier> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(suppliers).values(values(body)).returning();
      await recordAudit(tx, { subject: { type: 'supplier', id: row!.id }, actor, action: 'created' });
      return supplierOf(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(body.name);
    throw error;
  }
}

export async function updateSupplier(
  db: Db,
  actor: Actor,
  id: string,
  body: SupplierBody,
): Promise<Supplier> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(suppliers)
        .set({ ...values(body), updatedAt: new Date() })
        .where(eq(suppliers.id, id))
        .returning();
      if (!row) throw new HttpError(404, 'There is no such supplier.', 'SUPPLIER_NOT_FOUND');
      await recordAudit(tx, { subject: { type: 'supplier', id }, actor, action: 'updated' });
      return supplierOf(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(body.name);
    throw error;
  }
}
