// Shipping for a parcel of one seller's (or of the marketplace's own) from the live settings, for the
// modules that price orders. It reads through `app.settings`, so a saved change is quoted at once on
// every instance (the cache forgets at commit).
import type { FastifyInstance } from 'fastify';
import {
  type Parcel,
  quoteShipping,
  type ShippingQuote,
  type ShippingRules,
  shippingRulesFor,
} from '../../../contracts/domain/shipping-rates';
import { type ParcelDimensions, volumetricWeight } from '../../../contracts/domain/volumetric-weight';

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
  return quoteShipping(parcel, await shippingRulesOf(app, sellerId));
}

/**
 * The rules a seller's parcels are quoted by, read once: a caller that prices inside a transaction reads
 * them before it opens one (a single-connection database cannot answer a second reader meanwhile).
 */
export async function shippingRulesOf(
  app: Pick<FastifyInstance, 'settings'>,
  sellerId: string | null,
): Promise<ShippingRules> {
  const marketplace = (await app.settings.effective(null)).shipping;
  if (sellerId === null) return shippingRulesFor(marketplace);
  const own = (await app.settings.effective(sellerId)).shipping;
  const overridesZones = JSON.stringify(own.zones) !== JSON.stringify(marketplace.zones);
  return shippingRulesFor(marketplace, { ...own, overridesZones });
}

const KG: Record<string, number> = { kg: 1, g: 0.001, lb: 0.453_592_37 };

export interface WeighedItem {
  weight: number | null;
  weightUnit: string;
  dimensions: ParcelDimensions | null;
  quantity: number;
}

/** The parcel's chargeable weight: the greater of the summed actual and the summed volumetric weights. */
export function chargeableKgOf(items: readonly WeighedItem[], divisor?: number): number {
  let actualKg = 0;
  let volumetricKg = 0;
  for (const item of items) {
    if (item.weight) actualKg += item.weight * (KG[item.weightUnit] ?? 1) * item.quantity;
    if (item.dimensions) volumetricKg += volumetricWeight(item.dimensions, divisor) * item.quantity;
  }
  return Math.max(actualKg, volumetricKg);
}

/**
 * What shipping costs in `currency`, or why it cannot be quoted. Nothing to weigh, or no shipping zones
 * set up anywhere (a marketplace that has not priced shipping yet): no charge. Offers and orders price
 * shipping with this one rule.
 */
export function shippingCharge(
  rules: ShippingRules,
  parcel: { country: string; chargeableKg: number },
  currency: string,
): { amountMinor: number } | { error: string } {
  if (parcel.chargeableKg === 0) return { amountMinor: 0 };
  if (rules.sellerZones.length === 0 && rules.marketplaceZones.length === 0) return { amountMinor: 0 };
  const quote = quoteShipping({ country: parcel.country, actualKg: parcel.chargeableKg }, rules);
  if (!quote.ok) return { error: `Shipping could not be quoted: ${quote.reason}` };
  if (quote.currency !== currency)
    return {
      error: `Shipping to ${parcel.country} is quoted in ${quote.currency}; the amounts are in ${currency}.`,
    };
  return { amountMinor: quote.rateMinor };
}
