// A dialog asking for a reason before a change people are told about (an invoice's failed payment or
// cancellation, an auction's or a bid's cancellation): the reason is required, the write's refusal
// shows in the dialog, success toasts and closes (useDialogWrite).
import { Field, Text, Textarea } from '@chakra-ui/react';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useDialogWrite } from './dialog-write';
import { FormDialog } from './form-dialog';

export function ReasonDialog<Result>({
  title,
  intro,
  submitLabel,
  danger,
  mutation,
  done,
  onClose,
}: {
  title: string;
  intro: string;
  submitLabel: string;
  danger?: boolean;
  mutation: UseMutationResult<Result, unknown, string>;
  done: (result: Result) => string;
  onClose: () => void;
}) {
  const { error, setError, run, pending } = useDialogWrite(mutation, onClose);
  const [reason, setReason] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('Say why.');
    run(reason.trim(), done);
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title={title}
      submitLabel={submitLabel}
      submitPalette={danger ? 'red' : undefined}
      pending={pending}
    >
      <Text fontSize="sm" color="fg.muted">
        {intro}
      </Text>
      <Field.Root required invalid={Boolean(error)}>
        <Field.Label htmlFor={id}>
          Reason <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          id={id}
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}
