import { describe, expect, it } from 'vitest';
import { landingRedirect } from './landing';

const seller = (blocked: boolean, isNewSeller: boolean) => ({
  isSeller: true,
  seller: {
    blocked,
    isNewSeller,
    sellerAddress: '',
    sellerCode: 'S',
    sellerName: 'S',
    sellerId: 'id',
    logo: null,
  },
});

describe('landing on /', () => {
  it('sends a blocked seller who is not new to the subscription payment page', () => {
    expect(landingRedirect(seller(true, false))).toBe('/sellers/payment-seller-subscriptions');
  });
  it.each([
    [false, false],
    [false, true],
    [true, true],
  ])('sends any other seller (blocked %s, new %s) to the general dashboard', (blocked, isNew) => {
    expect(landingRedirect(seller(blocked, isNew))).toBe('/sellers/general-dashboard');
  });
  it('keeps admins and staff on the dashboard', () => {
    expect(landingRedirect({ isSeller: false, seller: null })).toBeNull();
  });
});
