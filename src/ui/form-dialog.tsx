import { Button, Dialog, Portal, Stack } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';

/**
 * A dialog's footer: Cancel and the main button, which spins while `pending` (Cancel is disabled then).
 * Without `onConfirm` the main button submits the dialog's form.
 */
export function DialogActions({
  label,
  pending,
  onCancel,
  onConfirm,
  palette = 'brand',
}: {
  label: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm?: () => void;
  palette?: 'brand' | 'red' | 'green';
}) {
  return (
    <Dialog.Footer>
      <Button variant="outline" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        colorPalette={palette}
        loading={pending}
        onClick={onConfirm}
      >
        {label}
      </Button>
    </Dialog.Footer>
  );
}

/**
 * A dialog that is one form: a title, the fields (the caller's children, stacked), Cancel and a submit
 * button that spins while `pending`. Cancel is disabled while the submission runs; `onClose` decides
 * whether closing by Escape or the backdrop is allowed then.
 */
export function FormDialog({
  open,
  onClose,
  onSubmit,
  title,
  label,
  submitLabel,
  pending,
  submitPalette,
  size,
  scrollBehavior,
  children,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  title: string;
  /** The form's accessible name, when it should differ from the title. */
  label?: string;
  submitLabel: string;
  pending: boolean;
  /** The submit button's colour: red for a refusal. */
  submitPalette?: 'brand' | 'red' | 'green';
  size?: Dialog.RootProps['size'];
  /** 'inside' for long forms: the body scrolls, the title and buttons stay in view. */
  scrollBehavior?: Dialog.RootProps['scrollBehavior'];
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => !event.open && onClose()}
      size={size}
      scrollBehavior={scrollBehavior}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content asChild>
            <form onSubmit={onSubmit} noValidate aria-label={label ?? title}>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{children}</Stack>
              </Dialog.Body>
              <DialogActions
                label={submitLabel}
                palette={submitPalette}
                pending={pending}
                onCancel={onClose}
              />
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
