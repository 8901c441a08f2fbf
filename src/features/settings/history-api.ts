// The overall history's extras: the people and shops it names (the "Who" filter, each row's scope) and
// its export, both of the page's scope (scope.tsx). Keys start with ['settings', 'history'], so a save
// refreshes them with the list.
import { useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '../../../contracts/exports';
import type { SettingsHistoryActors } from '../../../contracts/settings-history';
import { http } from '../../services/http';
import type { HistoryFilters } from './api';
import { scopeParams, useSettingsSellerId } from './scope';

const API = '/api/v1/settings/history';

export function useHistoryActors() {
  const sellerId = useSettingsSellerId();
  return useQuery({
    queryKey: ['settings', 'history', sellerId, 'actors'] as const,
    queryFn: async ({ signal }): Promise<SettingsHistoryActors> =>
      (await http.get(`${API}/actors`, { params: scopeParams(sellerId), signal, silent: true })).data,
  });
}

/** Starts the export of what the filters select in a scope; the answer names the task (`taskStatus`). */
export const startHistoryExport = async (
  filters: HistoryFilters,
  format: ExportFormat,
  sellerId: string | null,
) => (await http.post(`${API}/export`, { ...filters, ...scopeParams(sellerId), format })).data as unknown;
