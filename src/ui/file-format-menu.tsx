// The one "export to a file" menu: a button that opens CSV / Excel (XLSX) choices. What the choice
// starts (a background export, an error sheet) is the caller's; every list that writes files uses it.
import { Button, type ButtonProps, Menu, Portal } from '@chakra-ui/react';
import { ChevronDown, FileDown } from 'lucide-react';
import type { ExportFormat } from '../../contracts/exports';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel (XLSX)' },
];

export function FileFormatMenu({
  label,
  onChoose,
  loading,
  size,
  'data-tour': tour,
}: {
  label: string;
  onChoose: (format: ExportFormat) => void;
  loading?: boolean;
  size?: ButtonProps['size'];
  /** Its target, when a page guide points at it. */
  'data-tour'?: string;
}) {
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" size={size} loading={loading} data-tour={tour}>
          <FileDown /> {label} <ChevronDown />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {FORMATS.map(({ format, label: name }) => (
              <Menu.Item key={format} value={format} onClick={() => onChoose(format)}>
                {name}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
