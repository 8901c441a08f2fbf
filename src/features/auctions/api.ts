// The calls of the auction pages (issue 32, server/modules/auctions): the list with its tab counts,
// creating, editing and cancelling one. Writes answer the auction as it is now (`AuctionDetail`), so a
// page shows the server's state without a second read; their refusals show where the user acted
// (field errors beside their fields), so none is toasted.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AUCTION_EVENTS_API,
  AUCTIONS_API,
  type AuctionBody,
  type AuctionDetail,
  type AuctionEventBody,
  auctionDetailSchema,
  auctionEventSchema,
  auctionListSchema,
  type BidResult,
  bidResultSchema,
  type LiveSnapshot,
  liveSnapshotSchema,
  type StaffBidBody,
} from '../../../contracts/auctions';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import type { AuctionListRequest } from './url-state';

export const auctionKeys = queryKeys<AuctionListRequest>('auctions');

export const auctionPath = (id: string) => `${AUCTIONS_API}/${encodeURIComponent(id)}`;

const detailOf = async (request: Promise<{ data: unknown }>) =>
  auctionDetailSchema.parse((await request).data);

/** One page of auctions with the status tab counts. */
export const fetchAuctionList = async (request: AuctionListRequest, signal?: AbortSignal) =>
  auctionListSchema.parse((await http.get(AUCTIONS_API, { params: request, signal, silent: true })).data);

/** A new auction: a draft, or published (`publish: true`) to start at its time. */
export const createAuction = (body: AuctionBody) => detailOf(http.post(AUCTIONS_API, body, { silent: true }));

/** A draft's or a scheduled auction's new terms (a live one's cannot change). */
export const updateAuction = (id: string, body: AuctionBody) =>
  detailOf(http.put(auctionPath(id), body, { silent: true }));

/** Cancels an auction; its bidders are mailed the reason. */
export const cancelAuction = (id: string, reason: string) =>
  detailOf(http.post(`${auctionPath(id)}/cancel`, { reason }, { silent: true }));

export const useAuctionList = (request: AuctionListRequest) =>
  useQuery({
    queryKey: auctionKeys.list(request),
    queryFn: ({ signal }) => fetchAuctionList(request, signal),
    placeholderData: keepPreviousData,
  });

/** After any write: the answer is the auction now; the list rows and tab counts go stale. */
export function useAuctionChanged() {
  const client = useQueryClient();
  return (auction: AuctionDetail) => {
    client.setQueryData(auctionKeys.detail(auction.id), auction);
    void client.invalidateQueries({ queryKey: auctionKeys.lists() });
  };
}

/** Creates an auction, or edits `id`'s terms when given. */
export function useSaveAuction(id?: string) {
  const changed = useAuctionChanged();
  return useMutation({
    mutationFn: (body: AuctionBody) => (id ? updateAuction(id, body) : createAuction(body)),
    onSuccess: changed,
  });
}

export function useCancelAuction(id: string) {
  const changed = useAuctionChanged();
  return useMutation({
    mutationFn: (reason: string) => cancelAuction(id, reason),
    onSuccess: changed,
  });
}

// ---------------------------------------------------------------------------------------------------
// One auction's page

export const fetchAuction = async (id: string, signal?: AbortSignal) =>
  detailOf(http.get(auctionPath(id), { signal, silent: true }));

/** The live state and the latest bids (the live view starts from it and catches up with it). */
export const fetchLiveSnapshot = async (id: string): Promise<LiveSnapshot> =>
  liveSnapshotSchema.parse((await http.get(`${auctionPath(id)}/live`, { silent: true })).data);

export const placeStaffBid = async (id: string, body: StaffBidBody): Promise<BidResult> =>
  bidResultSchema.parse((await http.post(`${auctionPath(id)}/bids`, body, { silent: true })).data);

export const cancelBid = async (id: string, sequence: number, reason: string): Promise<LiveSnapshot> =>
  liveSnapshotSchema.parse(
    (await http.post(`${auctionPath(id)}/bids/${sequence}/cancel`, { reason }, { silent: true })).data,
  );

export const offerToNextBidder = (id: string) =>
  detailOf(http.post(`${auctionPath(id)}/offer-next`, {}, { silent: true }));
export const relistAuction = (id: string) =>
  detailOf(http.post(`${auctionPath(id)}/relist`, {}, { silent: true }));

export const useAuction = (id: string | null) =>
  useQuery({
    queryKey: auctionKeys.detail(id ?? ''),
    queryFn: ({ signal }) => fetchAuction(id ?? '', signal),
    enabled: id !== null,
  });

/** A bid placed, or cancelled: the ledger, bidders and history on the page are read again. */
export function useAuctionRefetch(id: string) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: auctionKeys.detail(id) });
}

export function useCancelBid(id: string, sequence: number) {
  const refetch = useAuctionRefetch(id);
  return useMutation({ mutationFn: (reason: string) => cancelBid(id, sequence, reason), onSuccess: refetch });
}

export function useOfferToNextBidder(id: string) {
  const changed = useAuctionChanged();
  return useMutation({ mutationFn: () => offerToNextBidder(id), onSuccess: changed });
}

export function useRelist(id: string) {
  const changed = useAuctionChanged();
  return useMutation({ mutationFn: () => relistAuction(id), onSuccess: changed });
}

// ---------------------------------------------------------------------------------------------------
// Events: several lots with staggered ends

export const createAuctionEvent = async (body: AuctionEventBody) =>
  auctionEventSchema.parse((await http.post(AUCTION_EVENTS_API, body, { silent: true })).data);

export function useCreateAuctionEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createAuctionEvent,
    onSuccess: () => void client.invalidateQueries({ queryKey: auctionKeys.lists() }),
  });
}

/** The event whose lots the list shows (its title and gap), or nothing without one. */
export const useAuctionEvent = (id: string | null) =>
  useQuery({
    queryKey: [...auctionKeys.all, 'event', id],
    queryFn: async ({ signal }) =>
      auctionEventSchema.parse(
        (await http.get(`${AUCTION_EVENTS_API}/${encodeURIComponent(id!)}`, { signal, silent: true })).data,
      ),
    enabled: id !== null,
  });
