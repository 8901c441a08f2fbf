// The settings API of the page (contracts/settings.ts). Every key starts with ['settings'], so the
// broker's SETTINGS_CHANGED message refreshes every open settings view with one invalidation.
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

export type SettingsOverview = z.infer<typeof settingsOverviewSchema>;

export interface HistoryFilters {
  section?: StoredSection;
  userId?: string;
  from?: string;
  to?: string;
}

export const settingsKeys = {
  all: ['settings'] as const,
  overview: () => ['settings', 'overview'] as const,
  section: (section: StoredSection) => ['settings', 'section', section] as const,
  history: (filters: HistoryFilters & { skip?: number; limit?: number }) =>
    ['settings', 'history', filters] as const,
};

const API = '/api/v1/settings';

export const useSettingsOverview = () =>
  useQuery({
    queryKey: settingsKeys.overview(),
    queryFn: async ({ signal }): Promise<SettingsOverview> =>
      (await http.get(API, { signal, silent: true })).data,
  });

export const useSectionState = (section: StoredSection) =>
  useQuery({
    queryKey: settingsKeys.section(section),
    queryFn: async ({ signal }): Promise<SectionState> =>
      (await http.get(`${API}/${section}`, { signal, silent: true })).data,
  });

/** Failures are shown by the form that saved (beside its fields), so they are not toasted as well. */
export function useSaveSection(section: StoredSection) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveSectionBody): Promise<SectionState> =>
      (await http.put(`${API}/${section}`, body, { silent: true })).data,
    onSuccess: (state) => {
      client.setQueryData(settingsKeys.section(section), state);
      void client.invalidateQueries({ queryKey: ['settings', 'history'] });
    },
  });
}

export interface HistoryPage {
  result: SettingsHistoryRow[];
  count: number;
}

export const useSettingsHistoryPage = (filters: HistoryFilters, skip: number, limit: number) =>
  useQuery({
    queryKey: settingsKeys.history({ ...filters, skip, limit }),
    queryFn: async ({ signal }): Promise<HistoryPage> =>
      (await http.get(`${API}/history`, { params: { ...filters, skip, limit }, signal, silent: true })).data,
    placeholderData: keepPreviousData,
  });

/** One section's history in the one audit timeline's page shape, older pages on demand. */
export const useSectionHistory = (section: StoredSection, limit = 10) =>
  useInfiniteQuery({
    queryKey: settingsKeys.history({ section, limit }),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<AuditPage> => {
      const page: HistoryPage = (
        await http.get(`${API}/history`, {
          params: { section, skip: pageParam, limit },
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
