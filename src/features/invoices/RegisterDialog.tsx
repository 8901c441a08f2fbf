// The invoice register of a period (issue 31): every invoice and credit note issued in it with the tax
// per rate, written by the export job as CSV or XLSX; the bell brings the file when it is ready.
import { Field, Input, SegmentGroup, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { invoiceRegisterBodySchema } from '../../../contracts/invoices';
import { getErrorMessage } from '../../services/http';
import { notifyTaskStarted } from '../../services/task-started';
import { FormDialog } from '../../ui/form-dialog';
import { useInvoiceRegister } from './api';

export const REGISTER_STARTED_MESSAGE =
  'Invoice register export started. You will be notified when the file is ready.';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** This month so far: from its first day to today. */
function thisMonth() {
  const today = new Date();
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
  return { from: isoDay(first), to: isoDay(today) };
}

export function RegisterDialog({ onClose }: { onClose: () => void }) {
  const register = useInvoiceRegister();
  const [range, setRange] = useState(thisMonth);
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = invoiceRegisterBodySchema.safeParse({ ...range, format });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Check the period.');
    setError(null);
    register.mutate(checked.data, {
      onSuccess: (task) => {
        notifyTaskStarted(task, { type: 'info', title: REGISTER_STARTED_MESSAGE });
        onClose();
      },
      onError: (failure) => setError(getErrorMessage(failure)),
    });
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Invoice register"
      submitLabel="Export register"
      pending={register.isPending}
    >
      <Text fontSize="sm" color="fg.muted">
        Every invoice and credit note issued in the period, with the tax per rate. The file comes as a
        notification when it is written.
      </Text>
      <Field.Root required>
        <Field.Label htmlFor="register-from">
          From <Field.RequiredIndicator />
        </Field.Label>
        <Input
          id="register-from"
          type="date"
          value={range.from}
          onChange={(event) => setRange((current) => ({ ...current, from: event.target.value }))}
        />
      </Field.Root>
      <Field.Root required>
        <Field.Label htmlFor="register-to">
          To <Field.RequiredIndicator />
        </Field.Label>
        <Input
          id="register-to"
          type="date"
          value={range.to}
          onChange={(event) => setRange((current) => ({ ...current, to: event.target.value }))}
        />
      </Field.Root>
      <SegmentGroup.Root
        value={format}
        onValueChange={(details) => details.value && setFormat(details.value as 'csv' | 'xlsx')}
        aria-label="File format"
        size="sm"
      >
        <SegmentGroup.Indicator />
        <SegmentGroup.Items
          items={[
            { value: 'csv', label: 'CSV' },
            { value: 'xlsx', label: 'Excel (XLSX)' },
          ]}
        />
      </SegmentGroup.Root>
      <Text role="alert" color="fg.error" fontSize="sm">
        {error}
      </Text>
    </FormDialog>
  );
}
