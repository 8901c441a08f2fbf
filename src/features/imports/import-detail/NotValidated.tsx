import type { Batch } from '../../../../contracts/imports';
import { EmptyMessage } from '../../../ui/page-states';
import { isRunning } from '../shared/api';

/** In place of a section that needs the finished validation: why it is not there yet. */
export function NotValidated({ batch }: { batch: Batch }) {
  return isRunning(batch.status) ? (
    <EmptyMessage
      title="Validation is running"
      description="This fills in as soon as every row is checked; the progress is shown above."
    />
  ) : (
    <EmptyMessage
      title="Validation did not finish"
      description="Resume the batch, or fix the mapping and revalidate, to see what this sheet would do."
    />
  );
}
