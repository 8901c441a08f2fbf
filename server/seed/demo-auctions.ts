// The demo's auctions (issue 32): an event of three lots of the demo shop, live from the seed's start and
// ending three days later one minute apart (staggered, as an event's lots are), so Manage Auctions, an
// auction's page with its live view and a lot's public page have something to show on first start.
// No bids: bidding is the demo's to try (staff bid for a customer on the auction's page). The close
// sweep ends them at their time like any other auction.
import { asc, eq } from 'drizzle-orm';
import { defaultIncrementTable, staggeredEnds } from '../../contracts/domain/auction-rules';
import type { Tx } from '../db/client';
import { auctionEvents, auctions, products } from '../db/schema';
import { type Actor, recordAuditEntries } from '../lib/audit';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const DEMO_AUCTION_EVENT = 'Collectors’ weekend';

export async function seedDemoAuctions(tx: Tx, sellerId: string, admin: Actor, now = Date.now()) {
  const candidates = await tx
    .select({
      id: products.id,
      title: products.title,
      priceMinor: products.priceMinor,
      currency: products.currency,
    })
    .from(products)
    .where(eq(products.sellerId, sellerId))
    .orderBy(asc(products.createdAt), asc(products.id))
    .limit(20);
  // The event's lots share one currency: the first product's.
  const currency = candidates[0]?.currency;
  const lots = candidates.filter((product) => product.currency === currency).slice(0, 3);
  if (!currency || lots.length === 0) return;
  const [event] = await tx
    .insert(auctionEvents)
    .values({ title: DEMO_AUCTION_EVENT, sellerId, gapSeconds: 60, createdBy: admin.id })
    .returning();
  const ends = staggeredEnds(now + 3 * DAY, lots.length, 60_000);
  const rows = await tx
    .insert(auctions)
    .values(
      lots.map((product, index) => ({
        eventId: event!.id,
        sellerId,
        productId: product.id,
        quantity: 1,
        title: product.title,
        description: 'A lot of the demo event: bid for a customer from this page, or open its public page.',
        currency,
        // A third of the list price, at least one whole unit of the currency.
        startingPriceMinor: Math.max(100, Math.round(product.priceMinor / 3 / 100) * 100),
        increments: defaultIncrementTable(currency),
        startsAt: new Date(now - HOUR),
        endsAt: new Date(ends[index]!),
        hardEndAt: new Date(ends[index]! + HOUR),
        effectiveEndAt: new Date(ends[index]!),
        softCloseSeconds: 120,
        extensionSeconds: 120,
        status: 'scheduled',
        createdBy: admin.id,
      })),
    )
    .returning({ id: auctions.id });
  await recordAuditEntries(
    tx,
    rows.map((row, index) => ({
      subject: { type: 'auction', id: row.id },
      actor: admin,
      action: 'created',
      note: `Lot ${index + 1} of ${rows.length} of “${DEMO_AUCTION_EVENT}”, published`,
    })),
  );
}
