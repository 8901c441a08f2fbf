import { describe, expect, it } from 'vitest';
import { listRequest } from './api';

const paging = { skip: 20, limit: 20, sort: 'sellerName', order: 'asc' } as const;

describe('the list request of each view', () => {
  it('lists a tab with its filter (SPEC §4)', () => {
    expect(listRequest({ tab: 'pending-kyc', query: '', ...paging })).toEqual({
      url: '/api/v1/sellers/listSellers',
      params: { isActive: false, isEmailVerified: true, isKycDone: false, ...paging },
    });
    expect(listRequest({ tab: 'active', query: '', ...paging }).params).toEqual({
      isActive: true,
      ...paging,
    });
  });

  it('searches a tab with its search filter: Pending KYC leaves e-mail verification out', () => {
    expect(listRequest({ tab: 'pending-kyc', query: 'rao', ...paging })).toEqual({
      url: '/api/v1/sellers/searchSellers',
      params: { isActive: false, isKycDone: false, ...paging, query: 'rao' },
    });
    expect(listRequest({ tab: 'inactive', query: 'rao', ...paging }).params).toEqual({
      isActive: false,
      isEmailVerified: true,
      isKycDone: true,
      ...paging,
      query: 'rao',
    });
  });
});
