import { FileFormatMenu } from '../../ui/file-format-menu';
import { useExportBatchErrors } from './api';

/**
 * "Download error sheet": the sheet's rows with errors and a column saying what is wrong, to fix and
 * upload again. A job builds it; the task toast and the notification carry the download.
 */
export function ErrorSheetMenu({ batch }: { batch: string }) {
  const exportErrors = useExportBatchErrors();
  return (
    <FileFormatMenu
      label="Download error sheet"
      size="sm"
      data-tour="error-sheet"
      loading={exportErrors.isPending}
      onChoose={(format) => exportErrors.mutate({ batch, format })}
    />
  );
}
