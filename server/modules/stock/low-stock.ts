// Low-stock notices: after a change of some products' stock (an order, a count, an import), the seller of
// each product that just fell to its threshold or below is told once per crossing, in-app and by mail as
// the communication settings route 'order' notices. The crossing is claimed by one UPDATE
// (lowStockCrossings), so two instances never tell twice; it runs after the change has committed.
import { eq, inArray } from 'drizzle-orm';
import { plural } from '../../../contracts/domain/format';
import type { Db } from '../../db/client';
import { products, users } from '../../db/schema';
import type { NotificationInput } from '../../lib/notifications';
import { lowStockCrossings } from './stock';

export type Notify = (userId: string, input: NotificationInput) => Promise<unknown>;

/** The product's page, where its stock and moves are shown. */
export const stockPageLink = (productId: string) => `/product/staging-products?id=${productId}`;

export async function tellLowStock(db: Db, productIds: readonly string[], notify: Notify): Promise<number> {
  const crossings = await lowStockCrossings(db, [...new Set(productIds)]);
  if (crossings.length === 0) return 0;
  const titles = new Map(
    (
      await db
        .select({ id: products.id, title: products.title })
        .from(products)
        .where(
          inArray(
            products.id,
            crossings.map((crossing) => crossing.productId),
          ),
        )
    ).map((row) => [row.id, row.title]),
  );
  const people = new Map<string, string[]>();
  for (const sellerId of new Set(crossings.map((crossing) => crossing.sellerId))) {
    const rows = await db.select({ id: users.id }).from(users).where(eq(users.sellerId, sellerId));
    people.set(
      sellerId,
      rows.map((row) => row.id),
    );
  }
  for (const crossing of crossings) {
    const title = titles.get(crossing.productId) ?? 'A product';
    for (const userId of people.get(crossing.sellerId) ?? [])
      await notify(userId, {
        type: 'order',
        title: `Low stock: ${title}`,
        body: `${plural(crossing.available, 'unit')} available; the low-stock threshold is ${crossing.threshold}.`,
        link: stockPageLink(crossing.productId),
      });
  }
  return crossings.length;
}
