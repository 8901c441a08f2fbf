import { describe, expect, it } from 'vitest';
import { isBlockedSeller, landingRedirect } from './landing';

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

describe('isBlockedSeller', () => {
  it('is true only for a seller who is blocked and not new', () => {
    expect(isBlockedSeller(seller(true, false))).toBe(true);
    expect(isBlockedSeller(seller(true, true))).toBe(false);
    expect(isBlockedSeller(seller(false, false))).toBe(false);
  });
});
