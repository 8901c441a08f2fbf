import { describe, expect, it } from 'vitest';
import { draftLineSchema } from '../offers';
import { diffOffers, isEmptyDiff } from './offer-diff';
import { priceOffer } from './offer-pricing';
import { taxOptions } from './tax-options';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const offer = (
  lines: Record<string, unknown>[],
  over: { validUntil?: string; notes?: string; currency?: string } = {},
) =>
  priceOffer({
    lines: lines.map((l) => draftLineSchema.parse({ name: 'Line', quantity: 1, unitPriceMinor: 1000, ...l })),
    currency: over.currency ?? 'EUR',
    shippingCountry: 'DE',
    taxOptions,
    validUntil: over.validUntil ?? '2026-06-30',
    notes: over.notes ?? '',
    shipping: { amountMinor: 0 },
  });

describe('offer diff', () => {
  it('finds nothing between equal versions', () => {
    const a = offer([{ productId: P1 }]);
    expect(isEmptyDiff(diffOffers(a, offer([{ productId: P1 }])))).toBe(true);
  });

  it('lists added, removed and changed lines with their fields', () => {
    const before = offer([
      { productId: P1, name: 'Chair', quantity: 2 },
      { productId: P2, name: 'Table' },
    ]);
    const after = offer([
      {
        productId: P1,
        name: 'Chair',
        quantity: 5,
        unitPriceMinor: 900,
        quantityBreaks: [{ minQuantity: 5, unitPriceMinor: 800 }],
        discountPercent: 5,
        taxOptionId: 'DE-standard',
      },
      { sku: 'LAMP-1', name: 'Lamp' },
    ]);
    const diff = diffOffers(before, after);
    const chair = diff.lines.find((l) => l.name === 'Chair')!;
    expect(chair.kind).toBe('changed');
    expect(chair.changes.map((c) => c.field)).toEqual([
      'quantity',
      'listUnitPriceMinor',
      'unitPriceMinor',
      'quantityBreaks',
      'discountPercent',
      'taxOptionId',
      'totalMinor',
    ]);
    expect(chair.changes.find((c) => c.field === 'quantity')).toEqual({
      field: 'quantity',
      before: 2,
      after: 5,
    });
    expect(diff.lines.find((l) => l.name === 'Lamp')).toMatchObject({ kind: 'added', key: 'sku:lamp-1' });
    expect(diff.lines.find((l) => l.name === 'Table')).toMatchObject({ kind: 'removed' });
    expect(diff.fields.map((f) => f.field)).toContain('totals.totalMinor');
  });

  it('reports validity, currency and notes changes, and diffs a first version against nothing', () => {
    const diff = diffOffers(
      offer([{}]),
      offer([{}], { validUntil: '2026-07-15', notes: 'Free delivery', currency: 'USD' }),
    );
    expect(diff.fields).toEqual([
      { field: 'currency', before: 'EUR', after: 'USD' },
      { field: 'validUntil', before: '2026-06-30', after: '2026-07-15' },
      { field: 'notes', before: '', after: 'Free delivery' },
    ]);
    const first = diffOffers(null, offer([{ name: 'A' }, { name: 'A' }]));
    expect(first.lines.map((l) => [l.kind, l.key])).toEqual([
      ['added', 'name:a'],
      ['added', 'name:a#2'],
    ]);
  });
});
