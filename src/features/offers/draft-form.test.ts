import { describe, expect, it } from 'vitest';
import { draftBodyOf, emptyLine, initialForm } from './draft-form';
import { detail } from './testing';

describe('offer draft form', () => {
  it('starts from the saved draft with prices as decimals', () => {
    const form = initialForm(detail());
    expect(form).toMatchObject({ currency: 'EUR', shippingCountry: 'DE', validUntil: '2099-01-10' });
    expect(form.lines[0]).toMatchObject({
      name: 'Chair <b>',
      quantity: '12',
      price: '10.00',
      discountKind: 'percent',
      discount: '10',
      taxOptionId: 'DE-standard',
    });
    expect(form.lines[0]!.breaks[0]).toMatchObject({ minQuantity: '10', price: '9.00' });
  });

  it('starts from the request when nothing was priced, and an expired offer from a new validity', () => {
    const fresh = initialForm(detail({ draft: null, lastSent: null, status: 'requested' }));
    expect(fresh.lines).toHaveLength(1);
    expect(fresh.lines[0]).toMatchObject({ name: 'Chair <b>', quantity: '12', price: '' });
    expect(fresh.validUntil).toBe('2099-02-01');
    const expired = initialForm(detail({ draft: null, status: 'expired' }));
    expect(expired.validUntil).toBe('2099-02-01');
  });

  it('turns the form into the draft body in minor units', () => {
    const result = draftBodyOf(initialForm(detail()));
    expect('body' in result && result.body).toMatchObject({
      currency: 'EUR',
      shippingCountry: 'DE',
      lines: [
        {
          quantity: 12,
          unitPriceMinor: 1000,
          quantityBreaks: [{ minQuantity: 10, unitPriceMinor: 900 }],
          discountPercent: 10,
          discountMinor: null,
          taxOptionId: 'DE-standard',
        },
      ],
    });
  });

  it('names every problem by its field', () => {
    const form = initialForm(detail());
    form.shippingCountry = 'Germany';
    form.lines.push({ ...emptyLine(), quantity: '0', discountKind: 'amount', discount: '1.234' });
    const result = draftBodyOf(form);
    expect('errors' in result && result.errors).toEqual({
      shippingCountry: 'A country is a two-letter code, e.g. DE.',
      'lines.1.name': 'Give every line a name.',
      'lines.1.quantity': 'A quantity is a whole number, 1 or more.',
      'lines.1.price': 'Enter a price.',
      'lines.1.discount': 'EUR has 2 decimals at most.',
    });
  });
});
