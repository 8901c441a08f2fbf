// Every back-office call of the offer pages (issue 30, server/modules/offers): the list with its tab
// counts, one offer, recording a request, saving the draft (the server prices it), sending it, and the
// diff of a version against another. Writes answer the offer as it is now, so the page shows the
// server's state without a second read; their refusals show where the user acted, so none is toasted.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreateOfferBody,
  OFFERS_API,
  type OfferDetail,
  type OfferDraftBody,
  offerDetailSchema,
  offerListSchema,
  versionDiffSchema,
} from '../../../contracts/offers';
import { ORDERS_API, type OrderAddress } from '../../../contracts/orders';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import type { OfferListRequest } from './url-state';

export const offerKeys = {
  ...queryKeys<OfferListRequest>('offers'),
  diff: (id: string, version: number, against: number) =>
    [...queryKeys('offers').all, 'diff', id, version, against] as const,
};

const idPath = (id: string) => `${OFFERS_API}/${encodeURIComponent(id)}`;

export const useOfferList = (request: OfferListRequest) =>
  useQuery({
    queryKey: offerKeys.list(request),
    queryFn: async ({ signal }) =>
      offerListSchema.parse((await http.get(OFFERS_API, { params: request, signal, silent: true })).data),
    placeholderData: keepPreviousData,
  });

export const useOfferDetail = (id: string | null) =>
  useQuery({
    queryKey: offerKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      offerDetailSchema.parse((await http.get(idPath(id ?? ''), { signal, silent: true })).data),
    enabled: Boolean(id),
  });

/** Version `version` against `against` (0: nothing before, every line added). */
export const useVersionDiff = (id: string, version: number, against: number, enabled = true) =>
  useQuery({
    queryKey: offerKeys.diff(id, version, against),
    queryFn: async ({ signal }) =>
      versionDiffSchema.parse(
        (
          await http.get(`${idPath(id)}/versions/${version}/diff`, {
            params: { against },
            signal,
            silent: true,
          })
        ).data,
      ),
    enabled: enabled && version >= 1,
    staleTime: Number.POSITIVE_INFINITY, // sent versions never change
  });

/** After any write: the answer is the offer now; the list rows and tab counts go stale. */
function useOfferChanged() {
  const client = useQueryClient();
  return (offer: OfferDetail) => {
    client.setQueryData(offerKeys.detail(offer.id), offer);
    void client.invalidateQueries({ queryKey: offerKeys.lists() });
  };
}

const parsed = async (request: Promise<{ data: unknown }>) => offerDetailSchema.parse((await request).data);

export function useCreateOffer() {
  const changed = useOfferChanged();
  return useMutation({
    mutationFn: (body: CreateOfferBody) => parsed(http.post(OFFERS_API, body, { silent: true })),
    onSuccess: changed,
  });
}

export function useSaveDraft(id: string) {
  const changed = useOfferChanged();
  return useMutation({
    mutationFn: (body: OfferDraftBody) => parsed(http.put(`${idPath(id)}/draft`, body, { silent: true })),
    onSuccess: changed,
  });
}

export function useSendOffer(id: string) {
  const changed = useOfferChanged();
  return useMutation({
    mutationFn: () => parsed(http.post(`${idPath(id)}/send`, undefined, { silent: true })),
    onSuccess: changed,
  });
}

/** Makes the order of an accepted offer (the orders API), shipped to `shippingAddress`; answers its id. */
export function useOrderFromOffer(offerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (shippingAddress: OrderAddress) =>
      (
        await http.post<{ id: string }>(
          `${ORDERS_API}/fromOffer/${encodeURIComponent(offerId)}`,
          { shippingAddress },
          { silent: true },
        )
      ).data.id,
    onSuccess: () => client.invalidateQueries({ queryKey: offerKeys.detail(offerId) }),
  });
}
