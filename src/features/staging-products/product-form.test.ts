import { describe, expect, it } from 'vitest';
import { emptyProductForm, toCreateBody, toUpdateBody } from './product-form';

describe('the product form', () => {
  it('flags an empty title and SKU on their fields before sending, with the server’s words', () => {
    const form = { ...emptyProductForm, title: '  ', sku: '', categoryId: 'c', price: '10', inventory: '1' };
    const created = toCreateBody(form, [], true);
    expect(created.body).toBeNull();
    expect(created.errors).toMatchObject({
      title: 'Give the product a title.',
      sku: 'Give the product a SKU.',
    });
    expect(toUpdateBody(form, [], 1).errors).toMatchObject({ title: 'Give the product a title.' });
    const filled = toCreateBody({ ...form, title: 'Tee', sku: 'TEE-1' }, [], true);
    expect(filled.errors).toEqual({});
    expect(filled.body).toMatchObject({ title: 'Tee', sku: 'TEE-1' });
  });
});
