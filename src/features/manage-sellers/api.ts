// Every call of the Manage Sellers page: one fetcher + query/mutation hook per API operation, with one
// query-key factory so a change refreshes exactly what it touches (the lists and their tab counts too).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat, SellersExportBody } from '../../../contracts/exports';
import { type TaskStatusInfo, taskAcceptedSchema } from '../../../contracts/notifications';
import {
  type CreateSellerBody,
  nextSellerCodeSchema,
  type SellerDetail,
  type SellerStatusAction,
  type UpdateSellerBody,
} from '../../../contracts/seller-admin';
import {
  type Seller,
  type SellerList,
  type SellerTabKey,
  searchFilterOf,
  sellerListSchema,
  sellerTabs,
} from '../../../contracts/sellers';
import { queryKeys } from '../../lib/query-keys';
import { useHistory } from '../../services/history-query';
import { http } from '../../services/http';
import type { SellerSortField, SortOrder } from './url-state';

const BASE = '/api/v1/sellers';

export interface SellerListParams {
  tab: SellerTabKey;
  skip: number;
  limit: number;
  sort: SellerSortField;
  order: SortOrder;
  query: string;
}

export const sellerAdminKeys = {
  ...queryKeys<SellerListParams>('manage-sellers'),
  nextCode: () => [...sellerAdminKeys.all, 'next-code'] as const,
  history: (id: string) => [...sellerAdminKeys.all, 'history', id] as const,
};
// A seller's documents live under their own key, shared with the seller's dashboard
// (src/services/seller-documents.ts).

/**
 * The request a list view makes: listSellers with the tab's filter, or searchSellers with the search
 * filter of the tab (SPEC §4: Pending KYC searches with fewer flags than it lists with).
 */
export function listRequest(params: SellerListParams): { url: string; params: Record<string, unknown> } {
  const { tab, query, ...paging } = params;
  if (query) return { url: `${BASE}/searchSellers`, params: { ...searchFilterOf[tab], ...paging, query } };
  const filter = sellerTabs.find((candidate) => candidate.key === tab)?.filter ?? {};
  return { url: `${BASE}/listSellers`, params: { ...filter, ...paging } };
}

export const useSellerList = (params: SellerListParams) =>
  useQuery({
    queryKey: sellerAdminKeys.list(params),
    queryFn: async ({ signal }): Promise<SellerList> => {
      const request = listRequest(params);
      // The page shows the failure in place (with a retry), so it is not toasted as well.
      const response = await http.get(request.url, { params: request.params, signal, silent: true });
      return sellerListSchema.parse(response.data);
    },
    placeholderData: keepPreviousData,
  });

export const useSeller = (id: string | null) =>
  useQuery({
    queryKey: sellerAdminKeys.detail(id ?? ''),
    queryFn: async ({ signal }): Promise<SellerDetail> =>
      (await http.get(`${BASE}/getSellersById/${id}`, { signal, silent: true })).data,
    enabled: !!id,
  });

export const useSellerHistory = (id: string) =>
  useHistory(sellerAdminKeys.history(id), `${BASE}/getUpdateHistory/${id}`);

/**
 * Any change to a seller (a document upload too) can move it between tabs and adds history: refresh
 * everything of this page.
 */
export function useInvalidateSellers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: sellerAdminKeys.all });
}

/**
 * The code an empty Seller code field would give, for the create dialog's hint. Silent: without it the
 * hint just names no code. Under `all`, so creating a seller refreshes it.
 */
export const useNextSellerCode = (enabled: boolean) =>
  useQuery({
    queryKey: sellerAdminKeys.nextCode(),
    queryFn: async ({ signal }): Promise<string> =>
      nextSellerCodeSchema.parse((await http.get(`${BASE}/nextSellerCode`, { signal, silent: true })).data)
        .sellerCode,
    enabled,
    staleTime: 0,
  });

/** Form mutations show their failure in the form, so they are silent; the rest are toasted by `http`. */
export const useCreateSeller = () =>
  useMutation({
    mutationFn: async (body: CreateSellerBody): Promise<Seller> =>
      (await http.post(`${BASE}/createNewSeller`, body, { silent: true })).data,
    onSuccess: useInvalidateSellers(),
  });

export const useUpdateSeller = () =>
  useMutation({
    mutationFn: async (input: { id: string; body: UpdateSellerBody }): Promise<Seller> =>
      (await http.put(`${BASE}/updateSeller/${input.id}`, input.body, { silent: true })).data,
    onSuccess: useInvalidateSellers(),
  });

export const useChangeSellerStatus = () =>
  useMutation({
    mutationFn: async (input: { id: string; action: SellerStatusAction; reason?: string }): Promise<Seller> =>
      (
        await http.put(
          `${BASE}/updateSellerStatusById/${input.id}`,
          { action: input.action, reason: input.reason },
          { silent: true },
        )
      ).data,
    onSuccess: useInvalidateSellers(),
  });

export const useMarkSellerFree = () =>
  useMutation({
    mutationFn: async (input: { id: string; isFree: boolean }): Promise<Seller> =>
      (await http.put(`${BASE}/markSellerFree/${input.id}`, { isFree: input.isFree })).data,
    onSuccess: useInvalidateSellers(),
  });

const formWith = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return form;
};

/** `onProgress` gets 0…1 as the browser sends the file (axios `onUploadProgress`). */
export const useUploadLogo = () =>
  useMutation({
    mutationFn: async (input: { sellerId: string; file: File; onProgress: (fraction: number) => void }) =>
      (
        await http.post(`${BASE}/uploadSellerLogo/${input.sellerId}`, formWith(input.file), {
          silent: true,
          onUploadProgress: (event) => {
            const total = event.total ?? input.file.size;
            if (total > 0) input.onProgress(Math.min(1, event.loaded / total));
          },
        })
      ).data as Seller,
    onSuccess: useInvalidateSellers(),
  });

/**
 * The export of what the list shows (the tab's or the search's filters, the search text and the sort),
 * without paging: the same flags `listRequest` sends, as the text the query schema reads.
 */
export function exportBodyOf(
  params: Pick<SellerListParams, 'tab' | 'query' | 'sort' | 'order'>,
  format: ExportFormat,
): SellersExportBody {
  const { params: listParams } = listRequest({ ...params, skip: 0, limit: 1 });
  const body: SellersExportBody = { sort: params.sort, order: params.order, format };
  for (const flag of ['isActive', 'isEmailVerified', 'isKycDone'] as const) {
    const value = listParams[flag];
    if (typeof value === 'boolean') body[flag] = value ? 'true' : 'false';
  }
  if (params.query) body.query = params.query;
  return body;
}

/** Starts a sellers export; the answer's `taskStatus` is recorded by the http client's task handler. */
export const useExportSellers = () =>
  useMutation({
    mutationFn: async (body: SellersExportBody): Promise<TaskStatusInfo> =>
      taskAcceptedSchema.parse((await http.post('/api/v1/exports/sellers', body)).data).taskStatus,
  });
