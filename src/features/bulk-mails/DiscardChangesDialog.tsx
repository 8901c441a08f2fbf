import { ConfirmDialog } from '../../ui/confirm-dialog';

/** Asks before an editor closes on unsaved changes; discarding closes it, cancelling stays. */
export function DiscardChangesDialog({
  open,
  description,
  onStay,
  onDiscard,
}: {
  open: boolean;
  /** What is kept instead (the last save, or nothing). */
  description: string;
  onStay: () => void;
  onDiscard: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="Discard your changes?"
      description={description}
      confirmLabel="Discard"
      danger
      onConfirm={() => {
        onStay();
        onDiscard();
      }}
      onClose={onStay}
    />
  );
}
