// An auction's terms as stored, checked against each other (the schema checks each field alone): the
// product is the seller's and sold in the auction's currency, which is one of the shop's; the times, the
// reserve and Buy Now agree. Shared by one auction's create and edit and by an event's lots.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AuctionBody } from '../../../contracts/auctions';
import { defaultIncrementTable, incrementTableProblems } from '../../../contracts/domain/auction-rules';
import { products } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { RouteViewer } from '../../lib/route-viewer';

const HOUR_MS = 3_600_000;

export type AuctionApp = Pick<FastifyInstance, 'db' | 'settings'>;

const invalid = (field: keyof AuctionBody, message: string) =>
  new HttpError(422, message, 'AUCTION_INVALID', { [field]: message });

/** The terms as stored, checked against each other (the schema checks each field alone). */
export async function termsFrom(app: AuctionApp, viewer: RouteViewer, body: AuctionBody) {
  const { db } = app;
  const sellerId = viewer.isSeller ? viewer.sellerId : body.sellerId;
  if (!sellerId) throw invalid('sellerId', 'Choose a seller from the list.');
  const [product] = await db
    .select({ id: products.id, sellerId: products.sellerId, currency: products.currency })
    .from(products)
    .where(eq(products.id, body.productId));
  if (!product || product.sellerId !== sellerId)
    throw invalid('productId', 'Choose one of this seller’s products.');
  // The winner's order is priced like any order of the product: in its currency.
  if (product.currency !== body.currency)
    throw invalid(
      'currency',
      `This product is sold in ${product.currency}: auction it in ${product.currency}.`,
    );
  // The winner's order is priced in it, so it is one of the shop's currencies, as an order's is.
  const settings = await app.settings.effective(sellerId);
  if (!settings.localization.currencies.includes(body.currency))
    throw invalid('currency', 'Choose one of the marketplace’s currencies.');
  const startsAt = new Date(body.startsAt);
  const endsAt = new Date(body.endsAt);
  const hardEndAt = body.hardEndAt ? new Date(body.hardEndAt) : new Date(endsAt.getTime() + HOUR_MS);
  if (endsAt <= startsAt) throw invalid('endsAt', 'The end comes after the start.');
  if (hardEndAt < endsAt) throw invalid('hardEndAt', 'The hard end is at or after the scheduled end.');
  if (body.reserveMinor !== null && body.reserveMinor < body.startingPriceMinor)
    throw invalid('reserveMinor', 'The reserve is at least the starting price.');
  if (
    body.buyNowMinor !== null &&
    body.buyNowMinor <= Math.max(body.startingPriceMinor, body.reserveMinor ?? 0)
  )
    throw invalid('buyNowMinor', 'Buy Now is above the starting price and the reserve.');
  const increments = body.increments ?? defaultIncrementTable(body.currency);
  const problems = incrementTableProblems(increments);
  if (problems.length > 0) throw invalid('increments', problems.join(' '));
  return {
    sellerId,
    productId: body.productId,
    quantity: body.quantity,
    title: body.title,
    description: body.description,
    currency: body.currency,
    startingPriceMinor: body.startingPriceMinor,
    reserveMinor: body.reserveMinor,
    buyNowMinor: body.buyNowMinor,
    increments,
    startsAt,
    endsAt,
    hardEndAt,
    effectiveEndAt: endsAt,
    softCloseSeconds: body.softCloseSeconds,
    extensionSeconds: body.extensionSeconds,
    paymentHours: body.paymentHours,
  };
}

export function mustStartLater(startsAt: Date, now: Date) {
  if (startsAt <= now) throw invalid('startsAt', 'A published auction starts in the future.');
}
