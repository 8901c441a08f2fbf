import type { ExportFormat } from '../../../contracts/exports';
import { notifyTaskStarted } from '../../services/task-started';
import { FileFormatMenu } from '../../ui/file-format-menu';
import { exportBodyOf, type SellerListParams, useExportSellers } from './api';

export const EXPORT_STARTED_MESSAGE = 'Sellers export started. You will be notified when it is ready.';

/**
 * Exports what the list shows (tab or search, sort) to a file, in the background: the server answers at
 * once with a task, and the file arrives as a notification with a download link.
 */
export function SellersExportMenu({
  view,
}: {
  view: Pick<SellerListParams, 'tab' | 'query' | 'sort' | 'order'>;
}) {
  const exportSellers = useExportSellers();
  const start = (format: ExportFormat) =>
    exportSellers.mutate(exportBodyOf(view, format), {
      // A failure is toasted by the http client.
      // Not after the export's own "Completed" toast, when the job was that quick.
      onSuccess: (task) => notifyTaskStarted(task, { type: 'info', title: EXPORT_STARTED_MESSAGE }),
    });
  return (
    <FileFormatMenu
      label="Export"
      data-tour="sellers-export"
      loading={exportSellers.isPending}
      onChoose={start}
    />
  );
}
