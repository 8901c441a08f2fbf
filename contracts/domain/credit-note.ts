/**
 * A credit note's lines (issue 31). A refund gives back an amount of money, not goods at a price, so its
 * credit note splits the amount over the invoice's tax rates in proportion to what each rate's lines
 * (and the untaxed shipping) were charged, by the largest remainder so the parts add up to the cent, then
 * takes each part's tax out of it (the part is tax included, as the money paid was). Integers only.
 */

export interface ChargedLine {
  taxRate: number;
  /** Net plus tax, in minor units. */
  totalMinor: number;
}

export interface CreditLine {
  name: string;
  sku: string;
  quantity: number;
  unitPriceMinor: number;
  discountMinor: number;
  netMinor: number;
  taxRate: number;
  taxMinor: number;
  totalMinor: number;
}

/** Basis points of a percent rate (7.5 → 750), so the arithmetic stays integral. */
const basisPoints = (rate: number) => Math.round(rate * 100);

/** The tax inside a tax-included amount at `rate` percent, rounded half-up. */
export function includedTaxMinor(grossMinor: number, rate: number): number {
  const bp = BigInt(basisPoints(rate));
  if (bp === 0n) return 0;
  const numerator = BigInt(grossMinor) * bp * 2n;
  const denominator = (10_000n + bp) * 2n;
  return Number((numerator + denominator / 2n) / denominator);
}

/**
 * A tax-included amount split into net and tax so that tax = net × rate rounded half-up (what an
 * invoice line states and what EN 16931 validators check) and net + tax = gross. Where rounding skips
 * the gross (no net gives it exactly), the tax takes the odd minor unit.
 */
export function splitIncluded(gross: number, rate: number): { net: number; tax: number } {
  const bp = basisPoints(rate);
  if (bp === 0) return { net: gross, tax: 0 };
  const taxOf = (net: number) => {
    const product = BigInt(net) * BigInt(bp) * 2n;
    return Number((product + 10_000n) / 20_000n);
  };
  const estimate = gross - includedTaxMinor(gross, rate);
  for (const net of [estimate, estimate - 1, estimate + 1]) {
    if (net >= 0 && net + taxOf(net) === gross) return { net, tax: taxOf(net) };
  }
  return { net: estimate, tax: gross - estimate };
}

/** `amount` split in proportion to `weights` (largest remainder: the parts sum to `amount` exactly). */
export function allocateMinor(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) return weights.map((_, index) => (index === 0 ? amount : 0));
  const exact = weights.map((weight) => (BigInt(amount) * BigInt(weight)) / BigInt(total));
  const remainders = weights.map((weight, index) => ({
    index,
    rest: (BigInt(amount) * BigInt(weight)) % BigInt(total),
  }));
  let left = BigInt(amount) - exact.reduce((sum, part) => sum + part, 0n);
  remainders.sort((a, b) => (a.rest === b.rest ? a.index - b.index : a.rest > b.rest ? -1 : 1));
  for (const { index } of remainders) {
    if (left <= 0n) break;
    exact[index] = (exact[index] as bigint) + 1n;
    left -= 1n;
  }
  return exact.map(Number);
}

/**
 * The lines crediting `amountMinor` of an invoice charged as `lines` plus `shippingMinor` (untaxed):
 * one line per tax rate that had a charge, named after the reason.
 */
export function creditLinesFor(
  charged: { lines: readonly ChargedLine[]; shippingMinor: number },
  amountMinor: number,
  reason: string,
): CreditLine[] {
  const byRate = new Map<number, number>();
  for (const line of charged.lines)
    byRate.set(line.taxRate, (byRate.get(line.taxRate) ?? 0) + line.totalMinor);
  if (charged.shippingMinor > 0) byRate.set(0, (byRate.get(0) ?? 0) + charged.shippingMinor);
  const rates = [...byRate.keys()].sort((a, b) => a - b);
  const parts = allocateMinor(
    amountMinor,
    rates.map((rate) => byRate.get(rate) as number),
  );
  return rates.flatMap((rate, index) => {
    const gross = parts[index] as number;
    if (gross === 0) return [];
    const { net, tax } = splitIncluded(gross, rate);
    return [
      {
        name: rates.length > 1 ? `${reason} (${rate}% tax)` : reason,
        sku: '',
        quantity: 1,
        unitPriceMinor: net,
        discountMinor: 0,
        netMinor: net,
        taxRate: rate,
        taxMinor: tax,
        totalMinor: gross,
      },
    ];
  });
}
