// The enquiry form's reads: the shop's live products for the picker, and the duplicate check.
import { and, asc, desc, eq, gt, or, sql } from 'drizzle-orm';
import { ENQUIRY_PRODUCT_PAGE_SIZE } from '../../../contracts/enquiry';
import { normalizeText } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { customerQueries, offers, products } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';

/** One more than a page, so the caller knows whether there are more. */
export async function liveProducts(db: Db, sellerId: string, search: string, skip: number) {
  const key = normalizeText(search);
  return db
    .select({ id: products.id, title: products.title, sku: products.sku })
    .from(products)
    .where(
      and(
        eq(products.sellerId, sellerId),
        eq(products.status, 'live'),
        key === ''
          ? undefined
          : or(
              sql`${products.titleKey} LIKE ${containsPattern(key)}`,
              sql`${products.skuKey} LIKE ${containsPattern(key)}`,
            ),
      ),
    )
    .orderBy(asc(products.titleKey), asc(products.id))
    .offset(skip)
    .limit(ENQUIRY_PRODUCT_PAGE_SIZE + 1);
}

/** How two messages compare as "the same": accents, case and spacing aside. */
export function normalizedMessage(message: string): string {
  return normalizeText(message);
}

/** The most recent rows compared: a sender over the limits never gets near this many in 24 h. */
const RECENT_ROWS = 50;

/** Whether the shop has had this message from this address (as a query or an offer request) lately. */
export async function isDuplicate(
  db: Db,
  input: { sellerId: string; email: string; message: string; sinceMs: number },
): Promise<boolean> {
  const since = new Date(Date.now() - input.sinceMs);
  const email = input.email.trim().toLowerCase();
  const [asked, requested] = await Promise.all([
    db
      .select({ message: customerQueries.message })
      .from(customerQueries)
      .where(
        and(
          eq(customerQueries.sellerId, input.sellerId),
          sql`lower(${customerQueries.email}) = ${email}`,
          gt(customerQueries.createdAt, since),
        ),
      )
      .orderBy(desc(customerQueries.createdAt))
      .limit(RECENT_ROWS),
    db
      .select({ message: offers.message })
      .from(offers)
      .where(
        and(
          eq(offers.sellerId, input.sellerId),
          sql`lower(${offers.email}) = ${email}`,
          gt(offers.createdAt, since),
        ),
      )
      .orderBy(desc(offers.createdAt))
      .limit(RECENT_ROWS),
  ]);
  return [...asked, ...requested].some((row) => normalizedMessage(row.message) === input.message);
}
