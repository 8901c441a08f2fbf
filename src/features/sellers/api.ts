import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../services/http';

export interface SellerDashboard {
  sellerId: string;
  sellerCode: string;
  sellerName: string;
  sellerAddress: string;
  logo: string | null;
  isActive: boolean;
  isEmailVerified: boolean;
  isKycDone: boolean;
  isNewSeller: boolean;
  blocked: boolean;
  memberSince: string;
}

export const sellerKeys = {
  all: ['sellers'] as const,
  ownDashboard: () => [...sellerKeys.all, 'own-dashboard'] as const,
  blocked: () => [...sellerKeys.all, 'is-blocked'] as const,
};

export const sellerDashboardQuery = () =>
  queryOptions({
    queryKey: sellerKeys.ownDashboard(),
    queryFn: async (): Promise<SellerDashboard> =>
      (await http.get('/api/v1/sellers/getSellerDashboard')).data,
  });

export const sellerBlockedQuery = () =>
  queryOptions({
    queryKey: sellerKeys.blocked(),
    queryFn: async (): Promise<{ blocked: boolean; isNewSeller: boolean }> =>
      (await http.get('/api/v1/subscriptionManager/isSellerBlocked')).data,
  });

export const useSellerDashboard = () => useQuery(sellerDashboardQuery());
export const useSellerBlocked = () => useQuery(sellerBlockedQuery());
