// The shops an admin or staff member may open in Settings (GET /api/v1/settings/sellers): searched a few
// at a time by name or code, or one named by its id for a linked view (`?seller=`).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../services/http';

export interface SellerOption {
  value: string;
  label: string;
}

const API = '/api/v1/settings/sellers';
/** The first few matches: a longer list is narrowed by typing, never loaded whole. */
export const SELLER_OPTIONS_LIMIT = 20;

// Not under ['settings']: a settings change does not rename a shop.
const keys = {
  search: (text: string) => ['settingsSellers', 'search', text] as const,
  named: (sellerId: string) => ['settingsSellers', 'named', sellerId] as const,
};

const fetchOptions = async (params: Record<string, string | number>, signal: AbortSignal) =>
  ((await http.get(API, { params, signal, silent: true })).data as { result: SellerOption[] }).result;

export const useSellerSearch = (text: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.search(text),
    queryFn: ({ signal }) => fetchOptions({ q: text, limit: SELLER_OPTIONS_LIMIT }, signal),
    enabled,
    placeholderData: keepPreviousData,
  });

/** The chosen shop by its id: its option, or null when there is no such shop. */
export const useSellerOption = (sellerId: string | null) =>
  useQuery({
    queryKey: keys.named(sellerId ?? ''),
    queryFn: async ({ signal }) => (await fetchOptions({ ids: sellerId ?? '', limit: 1 }, signal))[0] ?? null,
    enabled: sellerId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
