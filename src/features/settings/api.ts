// The settings API of the page (contracts/settings.ts). Every key starts with ['settings'], so the
// broker's SETTINGS_CHANGED message refreshes every open settings view with one invalidation. Each
// request asks for the page's scope (scope.tsx): with `sellerId` when a shop's settings are shown.
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import type { AuditPage } from '../../../contracts/audit';
import type {
  SaveSectionBody,
  SectionState,
  SettingsHistoryRow,
  StoredSection,
  settingsOverviewSchema,
} from '../../../contracts/settings';
import { http } from '../../services/http';
import { scopeParams, useSettingsSellerId } from './scope';

export type SettingsOverview = z.infer<typeof settingsOverviewSchema>;

export interface HistoryFilters {
  section?: StoredSection;
  userId?: string;
  from?: string;
  to?: string;
}

/** A scope's key part: null is the user's own scope. */
type ScopeKey = string | null;

export const settingsKeys = {
  all: ['settings'] as const,
  overview: (sellerId: ScopeKey) => ['settings', 'overview', sellerId] as const,
  section: (section: StoredSection, sellerId: ScopeKey) =>
    ['settings', 'section', section, sellerId] as const,
  history: (filters: HistoryFilters & { skip?: number; limit?: number }, sellerId: ScopeKey) =>
    ['settings', 'history', sellerId, filters] as const,
};

const API = '/api/v1/settings';

/** The sections of one scope: the user's own (null), or a shop's an admin or staff member chose. */
export const useScopeOverview = (sellerId: ScopeKey) =>
  useQuery({
    queryKey: settingsKeys.overview(sellerId),
    queryFn: async ({ signal }): Promise<SettingsOverview> =>
      (await http.get(API, { params: scopeParams(sellerId), signal, silent: true })).data,
  });

/** The sections of the page's scope. */
export const useSettingsOverview = () => useScopeOverview(useSettingsSellerId());

export function useSectionState(section: StoredSection) {
  const sellerId = useSettingsSellerId();
  return useQuery({
    queryKey: settingsKeys.section(section, sellerId),
    queryFn: async ({ signal }): Promise<SectionState> =>
      (await http.get(`${API}/${section}`, { params: scopeParams(sellerId), signal, silent: true })).data,
  });
}

/** Failures are shown by the form that saved (beside its fields), so they are not toasted as well. */
export function useSaveSection(section: StoredSection) {
  const client = useQueryClient();
  const sellerId = useSettingsSellerId();
  return useMutation({
    mutationFn: async (body: SaveSectionBody): Promise<SectionState> =>
      (await http.put(`${API}/${section}`, body, { params: scopeParams(sellerId), silent: true })).data,
    onSuccess: (state) => {
      client.setQueryData(settingsKeys.section(section, sellerId), state);
      void client.invalidateQueries({ queryKey: ['settings', 'history'] });
    },
  });
}

export interface HistoryPage {
  result: SettingsHistoryRow[];
  count: number;
}

export function useSettingsHistoryPage(filters: HistoryFilters, skip: number, limit: number) {
  const sellerId = useSettingsSellerId();
  return useQuery({
    queryKey: settingsKeys.history({ ...filters, skip, limit }, sellerId),
    queryFn: async ({ signal }): Promise<HistoryPage> =>
      (
        await http.get(`${API}/history`, {
          params: { ...filters, ...scopeParams(sellerId), skip, limit },
          signal,
          silent: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** One section's history in the one audit timeline's page shape, older pages on demand. */
export function useSectionHistory(section: StoredSection, limit = 10) {
  const sellerId = useSettingsSellerId();
  return useInfiniteQuery({
    queryKey: settingsKeys.history({ section, limit }, sellerId),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<AuditPage> => {
      const page: HistoryPage = (
        await http.get(`${API}/history`, {
          params: { section, ...scopeParams(sellerId), skip: pageParam, limit },
          signal,
          silent: true,
        })
      ).data;
      return {
        count: page.count,
        result: page.result.map((row) => ({
          id: row.id,
          at: row.at,
          actor: row.actor,
          action: row.section,
          changes: row.changes,
          note: null,
        })),
      };
    },
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.result.length, 0);
      return loaded < last.count ? loaded : undefined;
    },
  });
}
