// The overall history's extras: the people and shops it names (the "Who" filter, each row's scope) and
// its export. Keys start with ['settings', 'history'], so a save refreshes them with the list.
import { useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '../../../contracts/exports';
import type { SettingsHistoryActors } from '../../../contracts/settings-history';
import { http } from '../../services/http';
import type { HistoryFilters } from './api';

const API = '/api/v1/settings/history';

export const useHistoryActors = () =>
  useQuery({
    queryKey: ['settings', 'history', 'actors'] as const,
    queryFn: async ({ signal }): Promise<SettingsHistoryActors> =>
      (await http.get(`${API}/actors`, { signal, silent: true })).data,
  });

/** Starts the export of what the filters select; the answer names the task (`taskStatus`). */
export const startHistoryExport = async (filters: HistoryFilters, format: ExportFormat) =>
  (await http.post(`${API}/export`, { ...filters, format })).data as unknown;
