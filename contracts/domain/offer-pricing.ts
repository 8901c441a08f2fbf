// An offer's prices (issue 30; the same rules orders use): a quantity break picks the unit price, a
// line's discount is a percent or an amount off, tax comes from the tax options of the shipping
// country (the settings' company.taxOptions, passed in), shipping is quoted apart. Everything is integer minor units of the offer's currency (JPY has
// none below the yen, KWD three): amounts are computed in BigInt and rounded half-up (away from zero for
// the non-negative amounts here) once per line, so a total is the sum of what its lines show. Pure.
import type { DraftLine, OfferPricing, PricedLine, QuantityBreak } from '../offers';
import { moneyDigits } from './currency';

/** A tax rate the settings offer (contracts/settings.ts taxOptionSettingSchema): value in percent. */
export interface TaxRate {
  readonly id: string;
  readonly label: string;
  readonly value: number;
  /** ISO 3166-1 alpha-2, or 'EU' for the bloc-wide rate. */
  readonly country: string;
}

/** The unit price for a quantity: the break with the largest minimum the quantity reaches, else the list price. */
export function unitPriceFor(
  quantity: number,
  listUnitPriceMinor: number,
  breaks: readonly QuantityBreak[],
): number {
  let best: QuantityBreak | null = null;
  for (const b of breaks) {
    if (quantity >= b.minQuantity && (best === null || b.minQuantity > best.minQuantity)) best = b;
  }
  return best ? best.unitPriceMinor : listUnitPriceMinor;
}

/** numerator / denominator rounded half-up, for non-negative BigInts. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${what} is too large.`);
  return Number(value);
}

/** `amount` × `percent` % rounded half-up to a minor unit; percent with up to 4 decimals (7.5, 12.25). */
export function percentOf(amountMinor: number, percent: number): number {
  const scaledPercent = BigInt(Math.round(percent * 10_000));
  return toSafeNumber(divideHalfUp(BigInt(amountMinor) * scaledPercent, 1_000_000n), 'The amount');
}

/**
 * The options a line may use for goods shipped to `country`: the country's own named rates (CA GST,
 * HST, PST; DE standard, reduced…; BR ICMS, ISS), else the EU-wide rates for an EU member without its own.
 */
export function taxRatesFor(country: string | null, options: readonly TaxRate[]): TaxRate[] {
  if (!country) return [];
  const code = country.trim().toUpperCase();
  const own = options.filter((o) => o.country === code);
  if (own.length > 0 || !EU_MEMBERS.has(code)) return own;
  return options.filter((o) => o.country === 'EU');
}

/** The tax option `taxOptionId` for goods shipped to `country`, or why a line may not use it. */
export function taxOptionFor(
  country: string | null,
  taxOptionId: string,
  options: readonly TaxRate[],
): TaxRate | string {
  const option = options.find((o) => o.id === taxOptionId);
  if (!option) return `There is no tax option ${taxOptionId} in the settings.`;
  if (!country) return `Choose the shipping country before taxing a line with ${option.label}.`;
  if (taxRatesFor(country, options).some((o) => o.id === option.id)) return option;
  return `${option.label} is not a tax of ${country.toUpperCase()}.`;
}

const EU_MEMBERS = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
);

export function priceLine(
  line: DraftLine,
  country: string | null,
  taxOptions: readonly TaxRate[],
): { line: PricedLine; error: string | null } {
  const unit = unitPriceFor(line.quantity, line.unitPriceMinor, line.quantityBreaks);
  const gross = BigInt(line.quantity) * BigInt(unit);
  let discount = 0n;
  if (line.discountPercent !== null)
    discount = BigInt(percentOf(toSafeNumber(gross, 'A line'), line.discountPercent));
  else if (line.discountMinor !== null) discount = BigInt(line.discountMinor);
  if (discount > gross) discount = gross;
  const net = gross - discount;
  let tax = 0;
  let rate = 0;
  let taxLabel: string | null = null;
  let error: string | null = null;
  if (line.taxOptionId) {
    const found = taxOptionFor(country, line.taxOptionId, taxOptions);
    if (typeof found === 'string') error = `${line.name}: ${found}`;
    else {
      rate = found.value;
      taxLabel = found.label;
      tax = percentOf(toSafeNumber(net, 'A line'), rate);
    }
  }
  const netMinor = toSafeNumber(net, 'A line');
  return {
    error,
    line: {
      productId: line.productId,
      name: line.name,
      sku: line.sku,
      quantity: line.quantity,
      listUnitPriceMinor: line.unitPriceMinor,
      unitPriceMinor: unit,
      quantityBreaks: [...line.quantityBreaks].sort((a, b) => a.minQuantity - b.minQuantity),
      discountPercent: line.discountPercent,
      discountMinor: line.discountMinor,
      grossMinor: toSafeNumber(gross, 'A line'),
      discountTotalMinor: Number(discount),
      netMinor,
      taxOptionId: line.taxOptionId,
      taxLabel,
      taxRate: rate,
      taxMinor: tax,
      totalMinor: netMinor + tax,
    },
  };
}

export interface PricingInput {
  lines: readonly DraftLine[];
  currency: string;
  shippingCountry: string | null;
  /** The tax options of the settings (company.taxOptions); lines pick theirs by id. */
  taxOptions: readonly TaxRate[];
  validUntil: string;
  notes: string;
  /** The shipping quote in minor units of the currency, or why there is none. */
  shipping: { amountMinor: number } | { error: string };
}

/** Prices a draft. Pricing problems are listed in `pricingErrors`: they block sending, never the lifecycle. */
export function priceOffer(input: PricingInput): OfferPricing {
  const errors: string[] = [];
  const lines: PricedLine[] = [];
  for (const draft of input.lines) {
    const priced = priceLine(draft, input.shippingCountry, input.taxOptions);
    lines.push(priced.line);
    if (priced.error) errors.push(priced.error);
  }
  const shippingMinor = 'amountMinor' in input.shipping ? input.shipping.amountMinor : 0;
  if ('error' in input.shipping) errors.push(input.shipping.error);
  const sum = (pick: (l: PricedLine) => number) => lines.reduce((total, l) => total + BigInt(pick(l)), 0n);
  const subtotal = sum((l) => l.grossMinor);
  const discount = sum((l) => l.discountTotalMinor);
  const tax = sum((l) => l.taxMinor);
  const total = subtotal - discount + tax + BigInt(shippingMinor);
  return {
    currency: input.currency,
    shippingCountry: input.shippingCountry,
    lines,
    totals: {
      subtotalMinor: toSafeNumber(subtotal, 'The subtotal'),
      discountMinor: toSafeNumber(discount, 'The discount'),
      taxMinor: toSafeNumber(tax, 'The tax'),
      shippingMinor,
      totalMinor: toSafeNumber(total, 'The total'),
    },
    validUntil: input.validUntil,
    notes: input.notes,
    pricingErrors: errors,
  };
}

/** Minor units → a decimal string with the currency's digits ("1234.50", JPY "1235", KWD "1.234"). */
export function minorToDecimal(amountMinor: number, currency: string): string {
  const digits = moneyDigits(currency);
  if (digits === 0) return String(amountMinor);
  const sign = amountMinor < 0 ? '-' : '';
  const text = String(Math.abs(amountMinor)).padStart(digits + 1, '0');
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
