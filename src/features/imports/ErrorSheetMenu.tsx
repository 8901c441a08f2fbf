import { Button, Menu, Portal } from '@chakra-ui/react';
import { ChevronDown, FileDown } from 'lucide-react';
import type { ExportFormat } from '../../../contracts/exports';
import { useExportBatchErrors } from './api';

/**
 * "Download error sheet": the sheet's rows with errors and a column saying what is wrong, to fix and
 * upload again. A job builds it; the task toast and the notification carry the download.
 */
export function ErrorSheetMenu({ batch }: { batch: string }) {
  const exportErrors = useExportBatchErrors();
  const start = (format: ExportFormat) => exportErrors.mutate({ batch, format });
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" size="sm" loading={exportErrors.isPending} data-tour="error-sheet">
          <FileDown /> Download error sheet <ChevronDown />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="csv" onClick={() => start('csv')}>
              CSV
            </Menu.Item>
            <Menu.Item value="xlsx" onClick={() => start('xlsx')}>
              Excel (XLSX)
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
