import { describe, expect, it } from 'vitest';
import type { Seller } from '../../../contracts/sellers';
import { emptySellerForm, formFromSeller, parseCreate, parseUpdate } from './seller-form';

const seller: Seller = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  sellerCode: 'SEL-0042',
  sellerName: 'Rao Traders',
  email: 'rao@example.com',
  phone: '+91 98765 43210',
  address: null,
  logo: null,
  sellerLogos: [],
  isActive: false,
  isEmailVerified: false,
  isKycDone: false,
  isNewSeller: true,
  blocked: false,
  isFree: false,
  status: 'Pending Verification',
  kycRejectionReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('seller form', () => {
  it('builds a create body without code or address when they are blank', () => {
    const result = parseCreate({
      ...emptySellerForm,
      sellerName: 'Rao Traders',
      email: 'rao@example.com',
      phone: '+91 98765 43210',
    });
    expect(result).toEqual({
      ok: true,
      body: {
        sellerName: 'Rao Traders',
        email: 'rao@example.com',
        phone: '+91 98765 43210',
        sellerCode: undefined,
        address: null,
      },
    });
  });

  it('names each invalid field, address fields by their path', () => {
    const result = parseCreate({
      ...emptySellerForm,
      sellerName: 'R',
      email: 'nope',
      phone: 'x',
      sellerCode: 'bad code',
      address: { ...emptySellerForm.address, city: 'c'.repeat(101) },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      'address.city',
      'email',
      'phone',
      'sellerCode',
      'sellerName',
    ]);
  });

  it('sends only what changed on edit, and says so when nothing did', () => {
    const values = formFromSeller(seller);
    expect(parseUpdate(values, seller)).toEqual({ ok: false, errors: { form: 'Nothing has changed.' } });
    expect(parseUpdate({ ...values, sellerCode: 'sel-0042' }, seller).ok).toBe(false);
    const renamed = parseUpdate(
      { ...values, sellerName: 'Rao & Sons', address: { ...values.address, city: 'Pune' } },
      seller,
    );
    expect(renamed).toEqual({
      ok: true,
      body: {
        sellerName: 'Rao & Sons',
        address: { ...values.address, city: 'Pune' },
      },
    });
  });
});
