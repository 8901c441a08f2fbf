// What changed between two offer versions (or the draft and the last sent version): lines added,
// removed or changed (quantity, unit price, breaks, discount, tax), and the totals, validity, currency,
// shipping country and notes. Lines are matched by product, else SKU, else name. Pure (issue 30).
import type { OfferDiff, OfferPricing, PricedLine } from '../offers';

type Field = OfferDiff['fields'][number];

function lineKey(line: PricedLine): string {
  if (line.productId) return `product:${line.productId}`;
  if (line.sku) return `sku:${line.sku.toLowerCase()}`;
  return `name:${line.name.trim().toLowerCase()}`;
}

/** Keys unique within one version: a second line of the same product gets "#2". */
function keyed(lines: readonly PricedLine[]): Map<string, PricedLine> {
  const out = new Map<string, PricedLine>();
  for (const line of lines) {
    const base = lineKey(line);
    let key = base;
    for (let n = 2; out.has(key); n++) key = `${base}#${n}`;
    out.set(key, line);
  }
  return out;
}

const LINE_FIELDS = [
  'name',
  'sku',
  'quantity',
  'listUnitPriceMinor',
  'unitPriceMinor',
  'quantityBreaks',
  'discountPercent',
  'discountMinor',
  'taxOptionId',
  'totalMinor',
] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function diffOffers(before: OfferPricing | null, after: OfferPricing): OfferDiff {
  const old = keyed(before?.lines ?? []);
  const now = keyed(after.lines);
  const lines: OfferDiff['lines'] = [];
  for (const [key, line] of now) {
    const previous = old.get(key);
    if (!previous) {
      lines.push({ kind: 'added', key, name: line.name, changes: [] });
      continue;
    }
    const changes: Field[] = [];
    for (const field of LINE_FIELDS) {
      if (!same(previous[field], line[field]))
        changes.push({ field, before: previous[field], after: line[field] });
    }
    if (changes.length) lines.push({ kind: 'changed', key, name: line.name, changes });
  }
  for (const [key, line] of old) {
    if (!now.has(key)) lines.push({ kind: 'removed', key, name: line.name, changes: [] });
  }
  const fields: Field[] = [];
  const top = (field: string, a: unknown, b: unknown) => {
    if (!same(a, b)) fields.push({ field, before: a, after: b });
  };
  top('currency', before?.currency ?? null, after.currency);
  top('shippingCountry', before?.shippingCountry ?? null, after.shippingCountry);
  top('validUntil', before?.validUntil ?? null, after.validUntil);
  top('notes', before?.notes ?? null, after.notes);
  for (const total of [
    'subtotalMinor',
    'discountMinor',
    'taxMinor',
    'shippingMinor',
    'totalMinor',
  ] as const) {
    top(`totals.${total}`, before?.totals[total] ?? null, after.totals[total]);
  }
  return { lines, fields };
}

/** Nothing the customer would see changed. */
export const isEmptyDiff = (diff: OfferDiff) => diff.lines.length === 0 && diff.fields.length === 0;
