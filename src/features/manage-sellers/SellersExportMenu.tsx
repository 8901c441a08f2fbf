import { Button, Menu, Portal } from '@chakra-ui/react';
import { ChevronDown, FileDown } from 'lucide-react';
import type { ExportFormat } from '../../../contracts/exports';
import { notify } from '../../ui/notify';
import { exportBodyOf, type SellerListParams, useExportSellers } from './api';

export const EXPORT_STARTED_MESSAGE = 'Sellers export started. You will be notified when it is ready.';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel (XLSX)' },
];

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
      onSuccess: () => notify({ type: 'info', title: EXPORT_STARTED_MESSAGE }),
    });
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" loading={exportSellers.isPending} data-tour="sellers-export">
          <FileDown /> Export <ChevronDown />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {FORMATS.map(({ format, label }) => (
              <Menu.Item key={format} value={format} onClick={() => start(format)}>
                {label}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
