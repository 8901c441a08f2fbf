// A file menu whose choice starts a job that writes the file (an error sheet), then downloads the file
// here as soon as the job is done; the notification in the bell carries it too, for later.
import { useState } from 'react';
import type { ExportFormat } from '../../contracts/exports';
import { taskAcceptedSchema } from '../../contracts/notifications';
import { useDownloadWhenReady } from '../services/download-when-ready';
import { FileFormatMenu } from './file-format-menu';

export function TaskFileMenu({
  label,
  preparingLabel,
  start,
  size,
  'data-tour': tour,
}: {
  label: string;
  /** What the button says until the file is downloaded ("Preparing error sheet…"). */
  preparingLabel: string;
  /** Asks the server for the file: its answer names the task (`taskStatus`). */
  start: (format: ExportFormat) => Promise<unknown>;
  size?: 'sm' | 'md';
  'data-tour'?: string;
}) {
  const [starting, setStarting] = useState(false);
  const download = useDownloadWhenReady();
  const choose = async (format: ExportFormat) => {
    setStarting(true);
    try {
      const { taskStatus } = taskAcceptedSchema.parse(await start(format));
      void download.start(taskStatus.taskId);
    } catch {
      // A refused request is toasted by the http client.
    } finally {
      setStarting(false);
    }
  };
  return (
    <FileFormatMenu
      label={label}
      size={size}
      data-tour={tour}
      loading={starting || download.waiting}
      loadingText={preparingLabel}
      onChoose={(format) => void choose(format)}
    />
  );
}
