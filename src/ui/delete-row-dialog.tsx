import { useState } from 'react';
import { getErrorMessage } from '../services/http';
import { ConfirmDialog } from './confirm-dialog';
import { notify } from './notify';

/** The part of a delete mutation (TanStack's `useMutation`, keyed by the row's id) the dialog drives. */
type DeleteMutation<Id> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  reset: () => void;
  mutate: (id: Id, options: { onSuccess: () => void }) => void;
};

/**
 * Asks before deleting one row of a list (open while `target` is set). Keeps the row it was opened on
 * while it closes, so the title does not blank out during the animation; a refusal shows inside it and
 * is forgotten on close; a deletion is announced with `deleted`'s title.
 */
export function DeleteRowDialog<Id, Row extends { id: Id }>({
  target,
  remove,
  title,
  description,
  deleted,
  onClose,
}: {
  target: Row | null;
  remove: DeleteMutation<Id>;
  title: (shown: Row | null) => string;
  description: (shown: Row | null) => string;
  deleted: (row: Row) => string;
  onClose: () => void;
}) {
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!target}
      title={title(shown)}
      description={description(shown)}
      confirmLabel="Delete"
      danger
      pending={remove.isPending}
      error={remove.isError ? getErrorMessage(remove.error) : null}
      onClose={close}
      onConfirm={() =>
        shown &&
        remove.mutate(shown.id, {
          onSuccess: () => {
            notify({ type: 'success', title: deleted(shown) });
            close();
          },
        })
      }
    />
  );
}
