// Exports (issue 4 "Background tasks"): any list a user can see, written by a background job to CSV or
// XLSX and downloaded from the link in the completion notification. Sellers first; later lists add
// their own `…ExportBodySchema` here and a handler on the server.
import { z } from 'zod';
import { listSellersQuerySchema } from './sellers';

export const exportFormats = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof exportFormats)[number];
/** Every file an export job can write: the tables' formats, and JSON for a tree (tags). */
export const exportFileFormats = [...exportFormats, 'json'] as const;
export type ExportFileFormat = (typeof exportFileFormats)[number];

/** The sellers list's own filters (tab flags, search, sort) plus the file format; no paging. */
export const sellersExportBodySchema = listSellersQuerySchema.omit({ skip: true, limit: true }).extend({
  format: z.enum(exportFormats).default('csv'),
  query: z.string().trim().max(100).optional(),
});
export type SellersExportBody = z.input<typeof sellersExportBodySchema>;

/** Where the finished file of an export task is downloaded (authenticated, owner only). */
export function exportDownloadPath(taskId: string): string {
  return `/api/v1/exports/${taskId}/download`;
}
