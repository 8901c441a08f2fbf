// Exporting a tag tree — the draft, or a published version — as CSV or XLSX (a row per tag with its
// full path) or nested JSON. The file is written by a background task; its end raises the task toast and
// the notification carries the download.
import { tagExportFormats } from '../../../contracts/tags';
import { FileFormatMenu } from '../../ui/file-format-menu';
import { useExportTags } from './api';

export function TagExportMenu({
  source,
  'data-tour': tour,
}: {
  source: 'draft' | number;
  'data-tour'?: string;
}) {
  const exporting = useExportTags();
  return (
    <FileFormatMenu
      label={source === 'draft' ? 'Export' : `Export version ${source}`}
      formats={tagExportFormats}
      loading={exporting.isPending}
      onChoose={(format) => exporting.mutate({ source, format })}
      data-tour={tour}
    />
  );
}
