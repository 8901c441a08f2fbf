// The overall settings history's extras (issue 29): who appears in it (the "Who" filter names people,
// never asks for an id) and the CSV / XLSX export of what the list's filters select.
import { z } from 'zod';
import { exportFormats } from './exports';
import { settingsHistoryQuerySchema } from './settings';

/** The history list's filters, without paging. */
export const settingsHistoryFiltersSchema = settingsHistoryQuerySchema.omit({ skip: true, limit: true });
export type SettingsHistoryFilters = z.infer<typeof settingsHistoryFiltersSchema>;

/** POST /settings/history/export: the list's filters and the file format. */
export const settingsHistoryExportBodySchema = settingsHistoryFiltersSchema.extend({
  format: z.enum(exportFormats).default('csv'),
});
export type SettingsHistoryExportBody = z.input<typeof settingsHistoryExportBodySchema>;

const named = z.object({ id: z.string(), name: z.string() });

/**
 * GET /settings/history/actors: the people who changed the settings this user may see (their latest
 * name), and the shops whose settings the history holds, to name each row's scope.
 */
export const settingsHistoryActorsSchema = z.object({
  actors: z.array(named),
  sellers: z.array(named),
});
export type SettingsHistoryActors = z.infer<typeof settingsHistoryActorsSchema>;
