// The seller's own pages: their dashboard and their subscription (plans, periods, renewal requests).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SellerDashboard } from '../../../contracts/seller-dashboard';
import type { Seller } from '../../../contracts/sellers';
import type {
  Plan,
  RequestRenewalBody,
  RequestRenewalResult,
  SellerSubscriptions,
} from '../../../contracts/subscriptions';
import { http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';

export const sellerKeys = {
  all: ['sellers'] as const,
  ownDashboard: () => [...sellerKeys.all, 'own-dashboard'] as const,
  subscription: () => [...sellerKeys.all, 'own-subscription'] as const,
  subscriptionPage: (page: { skip: number; limit: number }) => [...sellerKeys.subscription(), page] as const,
  plans: () => [...sellerKeys.all, 'plans'] as const,
};

/** While a renewal request waits for an admin, the page checks this often whether it was decided. */
export const PENDING_POLL_MS = 10_000;

// The pages show their own failures (error states, the blocked notice), so no toast on top.
export const sellerDashboardQuery = () =>
  queryOptions({
    queryKey: sellerKeys.ownDashboard(),
    queryFn: async (): Promise<SellerDashboard> =>
      (await http.get('/api/v1/sellers/getSellerDashboard', { silent: true })).data,
  });

export const useSellerDashboard = () => useQuery(sellerDashboardQuery());

/** The seller resumes their paused shop (Inactive → Active); the dashboard then reads the new status. */
export const useResumeShop = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<Seller> =>
      (await http.put('/api/v1/sellers/updateStatusBySeller', { action: 'activate' })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: sellerKeys.ownDashboard() }),
  });
};

export const useOwnSubscription = (page: { skip: number; limit: number }) =>
  useQuery({
    queryKey: sellerKeys.subscriptionPage(page),
    queryFn: async (): Promise<SellerSubscriptions> =>
      (await http.get('/api/v1/subscriptionManager/getSellerSubscriptions', { params: page, silent: true }))
        .data,
    placeholderData: keepPreviousData,
    // Poll only while a request is open: that is when an admin's decision can change the page.
    refetchInterval: (query) => (query.state.data?.pendingRequest ? PENDING_POLL_MS : false),
  });

export const usePlans = () =>
  useQuery({
    queryKey: sellerKeys.plans(),
    queryFn: async (): Promise<Plan[]> =>
      (await http.get('/api/v1/subscriptionManager/getSubscriptionPlans', { silent: true })).data.result,
    staleTime: 5 * 60_000,
  });

export const useRequestRenewal = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: RequestRenewalBody): Promise<RequestRenewalResult> =>
      (await http.post('/api/v1/subscriptionManager/requestRenewal', body, { silent: true })).data,
    onSettled: () => client.invalidateQueries({ queryKey: sellerKeys.subscription() }),
  });
};

/**
 * After the subscription changed under the seller (a renewal approved, an admin's block or unblock),
 * everything that depends on `blocked` is read again: the current user (the landing rule on `/`), the
 * menu and the dashboard.
 */
export function useRefreshSellerSession() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: sessionKeys.currentUser() }),
      client.invalidateQueries({ queryKey: sessionKeys.sidebar() }),
      client.invalidateQueries({ queryKey: sellerKeys.ownDashboard() }),
    ]);
}
