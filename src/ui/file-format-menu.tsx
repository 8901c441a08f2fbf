// The one "export to a file" menu: a button that opens CSV / Excel (XLSX) choices (and JSON where a list
// offers it). What the choice starts (a background export, an error sheet) is the caller's; every list
// that writes files uses it.
import { Button, type ButtonProps, Menu, Portal } from '@chakra-ui/react';
import { ChevronDown, FileDown } from 'lucide-react';
import type { ExportFileFormat, ExportFormat } from '../../contracts/exports';

const LABELS: Record<ExportFileFormat, string> = {
  csv: 'CSV',
  xlsx: 'Excel (XLSX)',
  json: 'JSON',
};
const TABLE_FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];

export function FileFormatMenu<F extends ExportFileFormat = ExportFormat>({
  label,
  onChoose,
  formats = TABLE_FORMATS as readonly F[],
  loading,
  loadingText,
  size,
  'data-tour': tour,
}: {
  label: string;
  onChoose: (format: F) => void;
  /** The formats offered (CSV and XLSX unless a list writes more, as the tag tree's JSON). */
  formats?: readonly F[];
  loading?: boolean;
  /** What the button says while loading (else a spinner alone, and the button loses its name). */
  loadingText?: string;
  size?: ButtonProps['size'];
  /** Its target, when a page guide points at it. */
  'data-tour'?: string;
}) {
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" size={size} loading={loading} loadingText={loadingText} data-tour={tour}>
          <FileDown /> {label} <ChevronDown />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {formats.map((format) => (
              <Menu.Item key={format} value={format} onClick={() => onChoose(format)}>
                {LABELS[format]}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
