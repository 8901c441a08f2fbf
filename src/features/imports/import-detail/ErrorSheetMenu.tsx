import { TaskFileMenu } from '../../../ui/task-file-menu';
import { useExportBatchErrors } from '../shared/api';

/**
 * "Download error sheet": the sheet's rows with errors and a column saying what is wrong, to fix and
 * upload again. A job builds it; the page downloads it when it is ready, and the notification keeps it.
 */
export function ErrorSheetMenu({ batch }: { batch: string }) {
  const exportErrors = useExportBatchErrors();
  return (
    <TaskFileMenu
      label="Download error sheet"
      preparingLabel="Preparing error sheet…"
      size="sm"
      data-tour="error-sheet"
      start={(format) => exportErrors.mutateAsync({ batch, format })}
    />
  );
}
