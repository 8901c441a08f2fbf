// Subscription requests (/subscriptions/subscriptions-request): renewal requests to decide, every
// seller's subscription, blocking. One fetcher + query options + hook per API operation.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BlockSubscriptionBody,
  DecideRenewalBody,
  DecideRenewalResult,
  RenewalListFilter,
  RenewalRequest,
  SellerSubscriptions,
  SubscriptionRow,
  SubscriptionStateKey,
} from '../../../contracts/subscriptions';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';

const BASE = '/api/v1/subscriptionManager';

export interface RenewalListQuery {
  status: RenewalListFilter;
  skip: number;
  limit: number;
}
export interface SubscriptionListQuery {
  status: SubscriptionStateKey | '';
  query: string;
  skip: number;
  limit: number;
}

const requestKeys = queryKeys<RenewalListQuery>('subscriptions', 'requests');
const sellerKeys = queryKeys<SubscriptionListQuery>('subscriptions', 'sellers');
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  requests: () => requestKeys.all,
  requestList: requestKeys.list,
  sellers: () => sellerKeys.all,
  sellerList: sellerKeys.list,
  sellerDetail: sellerKeys.detail,
};

// Each view shows its own failure (error state or the dialog's message): no toast on top.
export const useRenewalRequests = (q: RenewalListQuery) =>
  useQuery({
    queryKey: subscriptionKeys.requestList(q),
    queryFn: async (): Promise<{ result: RenewalRequest[]; count: number }> =>
      (await http.get(`${BASE}/listRenewalRequests`, { params: q, silent: true })).data,
    placeholderData: keepPreviousData,
  });

export const useSellerSubscriptionList = (q: SubscriptionListQuery) =>
  useQuery({
    queryKey: subscriptionKeys.sellerList(q),
    queryFn: async (): Promise<{ result: SubscriptionRow[]; count: number }> =>
      (
        await http.get(`${BASE}/getSubscriptions`, {
          params: { ...q, status: q.status || undefined, query: q.query.trim() || undefined },
          silent: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });

export const useSellerSubscriptionDetail = (sellerId: string | null) =>
  useQuery({
    queryKey: subscriptionKeys.sellerDetail(sellerId ?? ''),
    queryFn: async (): Promise<SellerSubscriptions> =>
      (await http.get(`${BASE}/getSellerSubscriptions`, { params: { sellerId, limit: 24 }, silent: true }))
        .data,
    enabled: !!sellerId,
  });

/** A decision or a block changes requests and subscriptions alike: both lists are read again. */
function useInvalidateAll() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: subscriptionKeys.all });
}

export const useDecideRenewal = () => {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: async (input: { id: string } & DecideRenewalBody): Promise<DecideRenewalResult> => {
      const { id, ...body } = input;
      return (await http.post(`${BASE}/decideRenewalRequest/${id}`, body, { silent: true })).data;
    },
    // Also after a failure: a 409 means someone else decided it, and the list should show that.
    onSettled: invalidate,
  });
};

export const useBlockSubscription = () => {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: async (body: BlockSubscriptionBody) =>
      (await http.post(`${BASE}/blockSubscription`, body, { silent: true })).data,
    onSettled: invalidate,
  });
};
