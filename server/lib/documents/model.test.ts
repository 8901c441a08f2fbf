import { describe, expect, it } from 'vitest';
import { makeDocument, pricedLine } from './fixtures';
import { businessDocumentSchema, checkTotals, displayMoney, taxBreakdown } from './model';

describe('taxBreakdown', () => {
  it('groups EUR lines by rate, sorted, with shipping as a zero-rated base', () => {
    const lines = [
      pricedLine({ name: 'A', quantity: 2, unitPriceMinor: 1_000, taxRate: 19 }), // 20.00 → 3.80
      pricedLine({ name: 'B', quantity: 1, unitPriceMinor: 999, taxRate: 7 }), // 9.99 → 0.6993 → 0.70
      pricedLine({ name: 'C', quantity: 3, unitPriceMinor: 333, discountMinor: 99, taxRate: 19 }), // 9.00 → 1.71
    ];
    expect(taxBreakdown(lines, 495)).toEqual([
      { rate: 0, category: 'Z', baseMinor: 495, taxMinor: 0 },
      { rate: 7, category: 'S', baseMinor: 999, taxMinor: 70 },
      { rate: 19, category: 'S', baseMinor: 2_900, taxMinor: 551 },
    ]);
  });

  it('has no zero-rated group without shipping or untaxed lines', () => {
    const lines = [pricedLine({ name: 'A', quantity: 1, unitPriceMinor: 1_000, taxRate: 19 })];
    expect(taxBreakdown(lines, 0)).toEqual([{ rate: 19, category: 'S', baseMinor: 1_000, taxMinor: 190 }]);
  });

  it('keeps JPY amounts in whole yen (10 %)', () => {
    const lines = [
      pricedLine({ name: 'Tea', quantity: 3, unitPriceMinor: 1_234, taxRate: 10 }), // ¥3,702 → ¥370.2 → ¥370
      pricedLine({ name: 'Cup', quantity: 1, unitPriceMinor: 555, taxRate: 10 }), // ¥555 → ¥55.5 → ¥56
    ];
    expect(taxBreakdown(lines, 0)).toEqual([{ rate: 10, category: 'S', baseMinor: 4_257, taxMinor: 426 }]);
  });

  it('keeps KWD amounts in fils (3 digits) and fractional rates', () => {
    const lines = [pricedLine({ name: 'Oud', quantity: 2, unitPriceMinor: 12_345, taxRate: 7.5 })];
    // 24.690 KWD × 7.5 % = 1.85175 → 1.852
    expect(taxBreakdown(lines, 0)).toEqual([
      { rate: 7.5, category: 'S', baseMinor: 24_690, taxMinor: 1_852 },
    ]);
    expect(displayMoney(24_690, 'KWD')).toBe('KWD 24.690');
  });
});

describe('checkTotals', () => {
  const eur = () =>
    makeDocument({
      lines: [
        { name: 'A', quantity: 2, unitPriceMinor: 1_000, taxRate: 19 },
        { name: 'B', quantity: 1, unitPriceMinor: 999, taxRate: 7 },
      ],
      shippingMinor: 495,
      paidMinor: 1_000,
    });

  it('accepts consistent EUR totals: 29.99 net + 4.50 tax + 4.95 shipping = 39.44', () => {
    const doc = eur();
    expect(doc.totals).toEqual({
      netMinor: 2_999,
      taxMinor: 450,
      shippingMinor: 495,
      totalMinor: 3_944,
      paidMinor: 1_000,
      dueMinor: 2_944,
    });
    expect(checkTotals(doc)).toEqual([]);
    expect(businessDocumentSchema.safeParse(doc).success).toBe(true);
  });

  it('reports totals off by one minor unit', () => {
    const doc = eur();
    doc.totals = { ...doc.totals, taxMinor: 451, totalMinor: 3_945, dueMinor: 2_945 };
    expect(checkTotals(doc)).toEqual(['totals.taxMinor 451 ≠ 450', 'totals.totalMinor 3945 ≠ 3944']);
  });

  it('reports a line whose net, total or tax does not add up', () => {
    const doc = eur();
    const [first] = doc.lines;
    if (!first) throw new Error('fixture has lines');
    doc.lines[0] = { ...first, netMinor: 1_999, totalMinor: 2_000 };
    const problems = checkTotals(doc);
    expect(problems).toContainEqual(expect.stringMatching(/^line 1: net 1999/));
    expect(problems).toContainEqual(expect.stringMatching(/^line 1: total 2000/));
    // 20.00 × 19 % is 3.80; 3.81 is not a rounding of it.
    doc.lines[0] = { ...first, taxMinor: 381, totalMinor: 2_381 };
    expect(checkTotals(doc)).toContainEqual('line 1: tax 381 is not net × 19 % rounded');
  });

  it('checks JPY and KWD documents exactly', () => {
    const jpy = makeDocument({
      currency: 'JPY',
      lines: [{ name: 'Tea', quantity: 3, unitPriceMinor: 1_234, taxRate: 10 }],
    });
    expect(jpy.totals.totalMinor).toBe(4_072);
    expect(checkTotals(jpy)).toEqual([]);
    const kwd = makeDocument({
      currency: 'KWD',
      lines: [{ name: 'Oud', quantity: 2, unitPriceMinor: 12_345, taxRate: 7.5 }],
    });
    expect(kwd.totals.totalMinor).toBe(26_542);
    expect(checkTotals(kwd)).toEqual([]);
    kwd.totals = { ...kwd.totals, dueMinor: 26_541 };
    expect(checkTotals(kwd)).toEqual(['totals.dueMinor 26541 ≠ 26542']);
  });

  it('the schema refuses bad dates, currencies and more than 500 lines', () => {
    const doc = eur();
    expect(businessDocumentSchema.safeParse({ ...doc, issueDate: '2025-02-30' }).success).toBe(false);
    expect(businessDocumentSchema.safeParse({ ...doc, currency: 'XXY' }).success).toBe(false);
    const many = Array.from({ length: 501 }, () => doc.lines[0]);
    expect(businessDocumentSchema.safeParse({ ...doc, lines: many }).success).toBe(false);
  });
});
