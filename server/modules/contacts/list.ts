// The contacts list: the query tree and the search box compiled by the one contact query compiler
// (audience.ts), a page in the chosen order and the total through the shared paging strategy
// (server/lib/paged-find.ts): few matches are read once for the exact total and the page; many (a broad
// filter over 100k contacts) get an estimate and a walk of the index in the list's order. Then the page's
// rows are read by primary key with their company type.
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ContactList, ContactSortField, contactListQuerySchema } from '../../../contracts/contacts';
import { decodeQuery, emptyQuery, normalizeText } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { companyTypes, contacts } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { type CountLimits, findPage } from '../../lib/paged-find';
import { compileContactQuery } from './audience';
import { toContact } from './repository';

/**
 * Each order walks an index ending in id (contacts_created_idx; contacts_name_idx, contacts_email_uq
 * and contacts_last_contacted_idx). Name sorts by the normalised search key's start, which begins with
 * the first and last name.
 */
export const sortKeys: Record<ContactSortField, SQL> = {
  createdAt: sql`${contacts.createdAt}`,
  name: sql`${contacts.searchKey}`,
  email: sql`${contacts.email}`,
  lastContactedAt: sql`coalesce(${contacts.lastContactedAt}, '-infinity'::timestamptz)`,
};

type Query = z.output<typeof contactListQuerySchema>;

/**
 * Tighter than the product grid's: a contacts filter is a handful of wide enum conditions (country,
 * language, company type), and reading 10,000 matches to count them exactly cost 100 ms at 100k contacts
 * on PGlite. On a table of 20,000+ contacts, a filter the planner expects to match more than 5,000 is
 * estimated from a block sample ("about 12,000") and the page walks the ordered index; otherwise one read
 * of at most 5,001 matches gives the exact total and the page. (An estimate is never shown below
 * exactLimit + 1, so trustEstimateAbove stays equal to it.)
 */
export const contactCountLimits: CountLimits = {
  exactLimit: 5_000,
  sampleRows: 5_000,
  sampleAboveRows: 20_000,
  trustEstimateAbove: 5_000,
};

/** A page's rows with their company type, by primary key. */
const buildPageRowsQuery = (db: Db) =>
  db
    .select({ contact: contacts, typeName: companyTypes.name })
    .from(contacts)
    .leftJoin(companyTypes, sql`${companyTypes.id} = ${contacts.companyTypeId}`)
    .where(sql`${contacts.id} = ANY(${sql.placeholder('ids')}::uuid[])`)
    .prepare('contacts_page_rows');

// Built once per database: Drizzle's select builder (its column walk) cost more than a page's mapping.
const pageRowsQueries = new WeakMap<Db, ReturnType<typeof buildPageRowsQuery>>();
function pageRowsQuery(db: Db) {
  let query = pageRowsQueries.get(db);
  if (!query) {
    query = buildPageRowsQuery(db);
    pageRowsQueries.set(db, query);
  }
  return query;
}

export async function listContacts(db: Db, query: Query): Promise<ContactList> {
  const tree = query.query ? decodeQuery(query.query) : emptyQuery();
  if (!tree) throw new HttpError(400, 'The filter is not a valid query.', 'INVALID_QUERY');
  const where = compileContactQuery(tree, query.search);
  const found = await findPage(
    db,
    contacts,
    where,
    {
      key: sortKeys[query.sort],
      order: query.order,
      skip: query.skip,
      limit: query.limit,
      unfiltered: tree.children.length === 0 && normalizeText(query.search) === '',
    },
    contactCountLimits,
  );
  if (found.ids.length === 0) return { result: [], count: found.count, countExact: found.countExact };
  const rows = await pageRowsQuery(db).execute({ ids: found.ids });
  const byId = new Map(rows.map((row) => [row.contact.id, row]));
  return {
    result: found.ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toContact(row.contact, row.typeName)] : [];
    }),
    count: found.count,
    countExact: found.countExact,
  };
}
