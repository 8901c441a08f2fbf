// An order's lines priced by the server (issue 31): catalog products at their list price, each line's
// discount, tax from the tax options of the shipping country (a line without a choice takes the
// country's first rate, the standard one in the settings' table), and shipping quoted on the order's
// chargeable weight — the greater of the actual and the volumetric weight, summed over the lines — from
// the seller's own zones first (a marketplace with no zones set up charges no shipping). The arithmetic is the offers' (contracts/domain/offer-pricing.ts):
// integer minor units, BigInt, rounded half-up once per line.
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { moneyDigits } from '../../../contracts/domain/currency';
import { priceOffer, type TaxRate, taxRatesFor } from '../../../contracts/domain/offer-pricing';
import type { ShippingRules } from '../../../contracts/domain/shipping-rates';
import type { DraftLine, OfferPricing } from '../../../contracts/offers';
import type { OrderLineInput } from '../../../contracts/orders';
import type { Db, Tx } from '../../db/client';
import { products } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { chargeableKgOf, shippingCharge, shippingRulesOf } from '../settings-company/shipping-quote';

/** What pricing needs from the settings: read before the order's transaction opens. */
export interface PricingContext {
  sellerId: string;
  currencies: readonly string[];
  taxOptions: readonly TaxRate[];
  shipping: ShippingRules;
}

export async function pricingContext(
  app: Pick<FastifyInstance, 'settings'>,
  sellerId: string,
): Promise<PricingContext> {
  const settings = await app.settings.effective(sellerId);
  return {
    sellerId,
    currencies: settings.localization.currencies,
    taxOptions: settings.company.taxOptions,
    shipping: await shippingRulesOf(app, sellerId),
  };
}

/** Prices the lines; a product not of the seller, a currency mismatch or a tax or shipping problem is a 400. */
export async function priceOrder(
  context: PricingContext,
  db: Db | Tx,
  input: {
    currency: string;
    country: string;
    /** `unitPriceMinor`: a price agreed elsewhere (an auction's hammer price) instead of the catalog's. */
    lines: readonly (OrderLineInput & { unitPriceMinor?: number })[];
    notes: string;
  },
): Promise<OfferPricing> {
  const sellerId = context.sellerId;
  if (!context.currencies.includes(input.currency))
    throw new HttpError(
      400,
      `${input.currency} is not a currency this marketplace offers.`,
      'CURRENCY_NOT_OFFERED',
    );
  const ids = [...new Set(input.lines.map((line) => line.productId))];
  const found = await db
    .select({
      id: products.id,
      title: products.title,
      sku: products.sku,
      priceMinor: products.priceMinor,
      currency: products.currency,
      weight: products.weight,
      weightUnit: products.weightUnit,
      dimensions: products.dimensions,
    })
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.sellerId, sellerId)));
  if (found.length !== ids.length)
    throw new HttpError(400, 'Choose products of this order’s seller.', 'PRODUCT_NOT_OF_SELLER');
  const byId = new Map(found.map((product) => [product.id, product]));
  const taxOptions = context.taxOptions;
  const countryRates = taxRatesFor(input.country, taxOptions);
  const drafts: DraftLine[] = input.lines.map((line) => {
    const product = byId.get(line.productId)!;
    if (product.currency !== input.currency)
      throw new HttpError(
        400,
        `${product.title} is priced in ${product.currency}; this order is in ${input.currency}.`,
        'CURRENCY_MISMATCH',
      );
    return {
      productId: product.id,
      name: product.title,
      sku: product.sku,
      quantity: line.quantity,
      // Catalog prices are stored in cents; the order's currency has its own digits (JPY 0, KWD 3).
      unitPriceMinor: line.unitPriceMinor ?? centsToMinor(product.priceMinor, input.currency),
      quantityBreaks: [],
      discountPercent: line.discountPercent,
      discountMinor: line.discountMinor,
      taxOptionId: line.taxOptionId === undefined ? (countryRates[0]?.id ?? null) : line.taxOptionId,
    };
  });
  const chargeableKg = chargeableKgOf(
    input.lines.map((line) => ({ ...byId.get(line.productId)!, quantity: line.quantity })),
    context.shipping.volumetricDivisor,
  );
  const shipping = shippingCharge(context.shipping, { country: input.country, chargeableKg }, input.currency);
  let pricing: OfferPricing;
  try {
    pricing = priceOffer({
      lines: drafts,
      currency: input.currency,
      shippingCountry: input.country,
      taxOptions,
      validUntil: '',
      notes: input.notes,
      shipping,
    });
  } catch (error) {
    throw new HttpError(400, `The order could not be priced: ${(error as Error).message}`, 'PRICING_ERROR');
  }
  if (pricing.pricingErrors.length)
    throw new HttpError(400, pricing.pricingErrors.join(' '), 'PRICING_ERROR');
  return pricing;
}

/** A catalog price (two decimals) in the currency's minor units, rounded half-up. */
export function centsToMinor(cents: number, currency: string): number {
  const digits = moneyDigits(currency);
  if (digits === 2) return cents;
  if (digits > 2) return cents * 10 ** (digits - 2);
  const factor = 10 ** (2 - digits);
  return Math.floor((cents + factor / 2) / factor);
}
