import { Dialog, Portal, Text } from '@chakra-ui/react';
import { DialogActions } from './form-dialog';
import { FormMessage } from './form-parts';

/**
 * Asks before a consequential action (deactivate, delete). Stays open while the action runs and shows
 * the server's refusal inside the dialog, next to what the user was trying to do.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  danger = false,
  pending = false,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(event) => {
        if (!event.open && !pending) onClose();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" gap="3">
              <Text>{description}</Text>
              <FormMessage status="error">{error}</FormMessage>
            </Dialog.Body>
            <DialogActions
              label={confirmLabel}
              palette={danger ? 'red' : 'brand'}
              pending={pending}
              onCancel={onClose}
              onConfirm={onConfirm}
            />
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
