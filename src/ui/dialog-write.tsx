import { Text } from '@chakra-ui/react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { getErrorMessage } from '../services/http';
import { notify } from './notify';

/**
 * A dialog's write (orders, invoices, purchase orders): refused, its reason shows in the dialog
 * (`error`) unless `refused` takes it over; done, a toast says so and the dialog closes. The page then
 * shows the record as the server answered it.
 */
export function useDialogWrite<Result, Body>(
  mutation: UseMutationResult<Result, unknown, Body>,
  onClose: () => void,
) {
  const [error, setError] = useState<string | null>(null);
  const run = (body: Body, done: (result: Result) => string, refused?: (message: string) => boolean) => {
    setError(null);
    mutation.mutate(body, {
      onSuccess: (result) => {
        notify({ type: 'success', title: done(result) });
        onClose();
      },
      onError: (failure) => {
        const message = getErrorMessage(failure);
        if (!refused?.(message)) setError(message);
      },
    });
  };
  return { error, setError, run, pending: mutation.isPending };
}

/** Why the dialog's write was refused, announced to screen readers. */
export function DialogError({ children }: { children: string | null }) {
  return (
    <Text role="alert" color="fg.error" fontSize="sm">
      {children}
    </Text>
  );
}
