// The company types a contact may have: a short list the admin manages. Names are unique ignoring case;
// deleting a type leaves its contacts without one (the foreign key sets null), and says how many.
import { asc, eq, sql } from 'drizzle-orm';
import type { CompanyType, CompanyTypeBody } from '../../../contracts/contacts';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { companyTypes } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';

const notFound = () => new HttpError(404, 'There is no such company type.', 'COMPANY_TYPE_NOT_FOUND');
const duplicate = (name: string) => {
  const message = `There is already a company type named “${name}”.`;
  return new HttpError(409, message, 'DUPLICATE_COMPANY_TYPE', { name: message });
};

export async function listCompanyTypes(db: Db): Promise<CompanyType[]> {
  // Counted per type through contacts_company_type_idx: a short list, each count an index range.
  return rowsOf<CompanyType>(
    await db.execute(sql`
      SELECT t.id, t.name, t.position,
             (SELECT count(*)::integer FROM contacts c WHERE c.company_type_id = t.id) AS contacts
      FROM company_types t ORDER BY t.position, lower(t.name)`),
  );
}

async function readType(db: Db, id: string): Promise<CompanyType> {
  const found = (await listCompanyTypes(db)).find((type) => type.id === id);
  if (!found) throw notFound();
  return found;
}

async function write<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'company_types_name_uq')) throw duplicate(name);
    throw error;
  }
}

export async function createCompanyType(db: Db, body: CompanyTypeBody): Promise<CompanyType> {
  const name = body.name.trim();
  const [row] = await write(name, async () => {
    const position =
      body.position ??
      (
        await db
          .select({ next: sql<number>`coalesce(max(${companyTypes.position}) + 1, 0)`.mapWith(Number) })
          .from(companyTypes)
      )[0]?.next ??
      0;
    return db.insert(companyTypes).values({ name, position }).returning({ id: companyTypes.id });
  });
  return readType(db, (row as { id: string }).id);
}

export async function updateCompanyType(db: Db, id: string, body: CompanyTypeBody): Promise<CompanyType> {
  const name = body.name.trim();
  const rows = await write(name, () =>
    db
      .update(companyTypes)
      .set({ name, ...(body.position === undefined ? {} : { position: body.position }) })
      .where(eq(companyTypes.id, id))
      .returning({ id: companyTypes.id }),
  );
  if (!rows.length) throw notFound();
  return readType(db, id);
}

export async function deleteCompanyType(db: Db, id: string): Promise<{ contacts: number }> {
  const type = await readType(db, id);
  await db.delete(companyTypes).where(eq(companyTypes.id, id));
  return { contacts: type.contacts };
}

export async function companyTypeByName(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: companyTypes.id, name: companyTypes.name })
    .from(companyTypes)
    .orderBy(asc(companyTypes.position));
  return new Map(rows.map((row) => [row.name.trim().toLowerCase(), row.id]));
}
