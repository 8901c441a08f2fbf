import { CloseButton, Dialog, Field, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { DialogActions } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';

const NOTE_MAX = 500;

export interface NoteDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  confirmPalette: 'brand' | 'red' | 'green';
  noteLabel: string;
  /** Rejections need a reason the seller will read; approvals and blocks may leave it empty. */
  noteRequired: boolean;
  pending: boolean;
  error: string | null;
  onConfirm: (note: string | undefined) => void;
  onClose: () => void;
}

/** A confirmation with a note: approve, reject, block, unblock. Failures stay in the dialog. */
export function NoteDialog(props: NoteDialogProps) {
  const { open, noteRequired, onConfirm, onClose } = props;
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (open) {
      setNote('');
      setMissing(false);
    }
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (noteRequired && !trimmed) {
      setMissing(true);
      return;
    }
    onConfirm(trimmed || undefined);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content asChild>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{props.title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text color="fg.muted">{props.description}</Text>
                  <Field.Root invalid={missing} required={noteRequired}>
                    <Field.Label>{props.noteLabel}</Field.Label>
                    <Textarea
                      name="note"
                      rows={3}
                      maxLength={NOTE_MAX}
                      value={note}
                      onChange={(e) => {
                        setNote(e.target.value);
                        setMissing(false);
                      }}
                    />
                    <Field.ErrorText>Write a reason for the seller</Field.ErrorText>
                  </Field.Root>
                  <FormMessage status="error">{props.error}</FormMessage>
                </Stack>
              </Dialog.Body>
              <DialogActions
                label={props.confirmLabel}
                palette={props.confirmPalette}
                pending={props.pending}
                onCancel={onClose}
              />
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
