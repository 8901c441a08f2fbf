// An order's money (issue 31): a property test that totals are the sum of their lines, taxes and
// shipping for random orders in every kind of currency (EUR two decimals, JPY none, KWD three), and the
// status and payment state computed from the sums.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftLineSchema } from '../offers';
import { priceOffer } from './offer-pricing';
import {
  balanceDueMinor,
  orderActionProblem,
  paymentStateOf,
  refundableMinor,
  statusAfterMoney,
} from './order-state';
import { taxOptions } from './tax-options';

const countries = ['DE', 'CA', 'BR', 'JP', 'IN', 'FR', 'US'];

describe('order totals', () => {
  it('are the sum of their lines, taxes and shipping, in integer minor units of any currency', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('EUR', 'JPY', 'KWD'),
        fc.constantFrom(...countries),
        fc.array(
          fc.record({
            quantity: fc.integer({ min: 1, max: 500 }),
            unitPriceMinor: fc.integer({ min: 0, max: 5_000_000 }),
            discountPercent: fc.option(fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100)),
            taxPick: fc.nat(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 100_000 }),
        (currency, country, raw, shippingMinor) => {
          const rates = taxOptions.filter((option) => option.country === country);
          const lines = raw.map((line, index) =>
            draftLineSchema.parse({
              name: `Line ${index}`,
              quantity: line.quantity,
              unitPriceMinor: line.unitPriceMinor,
              discountPercent: line.discountPercent,
              taxOptionId: rates.length ? rates[line.taxPick % rates.length]!.id : null,
            }),
          );
          const pricing = priceOffer({
            lines,
            currency,
            shippingCountry: country,
            taxOptions,
            validUntil: '',
            notes: '',
            shipping: { amountMinor: shippingMinor },
          });
          expect(pricing.pricingErrors).toEqual([]);
          const sum = (pick: (line: (typeof pricing.lines)[number]) => number) =>
            pricing.lines.reduce((total, line) => total + pick(line), 0);
          for (const line of pricing.lines) {
            for (const amount of [line.netMinor, line.taxMinor, line.totalMinor])
              expect(Number.isInteger(amount)).toBe(true);
            expect(line.totalMinor).toBe(line.netMinor + line.taxMinor);
            expect(line.netMinor).toBe(line.grossMinor - line.discountTotalMinor);
          }
          expect(pricing.totals.totalMinor).toBe(sum((line) => line.totalMinor) + shippingMinor);
          expect(pricing.totals.taxMinor).toBe(sum((line) => line.taxMinor));
          expect(pricing.totals.subtotalMinor - pricing.totals.discountMinor).toBe(
            sum((line) => line.netMinor),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('order state', () => {
  const money = (totalMinor: number, paidMinor: number, refundedMinor: number) => ({
    totalMinor,
    paidMinor,
    refundedMinor,
  });

  it('computes the payment state from payments and refunds', () => {
    expect(paymentStateOf(money(1000, 0, 0))).toBe('unpaid');
    expect(paymentStateOf(money(1000, 400, 0))).toBe('partly_paid');
    expect(paymentStateOf(money(1000, 1000, 0))).toBe('paid');
    expect(paymentStateOf(money(1000, 1000, 300))).toBe('partly_refunded');
    expect(paymentStateOf(money(1000, 1000, 1000))).toBe('refunded');
    expect(balanceDueMinor(money(1000, 400, 0))).toBe(600);
    expect(refundableMinor(money(1000, 1000, 300))).toBe(700);
  });

  it('moves an open order between pending and paid, and any live one to refunded', () => {
    expect(statusAfterMoney('pending', money(1000, 1000, 0))).toBe('paid');
    expect(statusAfterMoney('paid', money(1500, 1000, 0))).toBe('pending');
    expect(statusAfterMoney('shipped', money(1000, 1000, 200))).toBe('shipped');
    expect(statusAfterMoney('shipped', money(1000, 1000, 1000))).toBe('refunded');
    expect(statusAfterMoney('cancelled', money(1000, 1000, 0))).toBe('cancelled');
  });

  it('says why an action is refused', () => {
    expect(orderActionProblem('cancel', 'paid', money(1000, 1000, 0))).toMatch(/Refund what was paid/);
    expect(orderActionProblem('cancel', 'pending', money(1000, 0, 0))).toBeNull();
    expect(orderActionProblem('ship', 'delivered', money(1000, 1000, 0))).toMatch(/cannot be shipped/);
    expect(orderActionProblem('deliver', 'paid', money(1000, 1000, 0))).toMatch(/Only a shipped order/);
    expect(orderActionProblem('refund', 'pending', money(1000, 0, 0))).toMatch(/Nothing was paid/);
    expect(orderActionProblem('pay', 'paid', money(1000, 1000, 0))).toBe('This order is paid in full.');
    expect(orderActionProblem('edit', 'shipped', money(1000, 1000, 0))).toBe(
      'A shipped order cannot be edited.',
    );
  });
});
