// Shipping for a parcel of one seller's (or of the marketplace's own) from the live settings, for the
// modules that price orders. It reads through `app.settings`, so a saved change is quoted at once on
// every instance (the cache forgets at commit).
import type { FastifyInstance } from 'fastify';
import {
  type Parcel,
  quoteShipping,
  type ShippingQuote,
  shippingRulesFor,
} from '../../../contracts/domain/shipping-rates';

/**
 * The quote for `parcel`: the seller's own zones first, then the marketplace's; the seller's divisor.
 * A seller who has not set zones of their own inherits the marketplace's: their effective zones are
 * then the marketplace's, compared by value since the two reads are separate objects.
 */
export async function quoteFor(
  app: Pick<FastifyInstance, 'settings'>,
  sellerId: string | null,
  parcel: Parcel,
): Promise<ShippingQuote> {
  const marketplace = (await app.settings.effective(null)).shipping;
  if (sellerId === null) return quoteShipping(parcel, shippingRulesFor(marketplace));
  const own = (await app.settings.effective(sellerId)).shipping;
  const overridesZones = JSON.stringify(own.zones) !== JSON.stringify(marketplace.zones);
  return quoteShipping(parcel, shippingRulesFor(marketplace, { ...own, overridesZones }));
}
