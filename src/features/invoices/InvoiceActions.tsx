// What can be done to an invoice from its page (issue 31): issue a draft (its number is final), delete a
// draft, record money received, mark its payment failed, cancel it with a credit note and mail it to the
// buyer. Each button shows only when the invoice's `problems` allow the action and the user's permission
// on Manage Invoices has it (edit; delete for deleting); the server checks both again.
import { Button, Field, HStack, Input, Text, Textarea } from '@chakra-ui/react';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { INVOICES_ROUTE, type InvoiceDetail, invoiceMailBodySchema } from '../../../contracts/invoices';
import { decimalOf, minorOf, money } from '../../lib/money';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DialogError, useDialogWrite } from '../../ui/dialog-write';
import { FormDialog } from '../../ui/form-dialog';
import { notify } from '../../ui/notify';
import { ReasonDialog } from '../../ui/reason-dialog';
import {
  useCancelInvoice,
  useDeleteInvoice,
  useInvoicePayment,
  useIssueInvoice,
  useMailInvoice,
  useMarkPaymentFailed,
} from './api';

type Dialog = 'issue' | 'delete' | 'pay' | 'fail' | 'cancel' | 'mail' | null;

const today = () => new Date().toISOString().slice(0, 10);

/** "Invoice INV-1", "Credit note CN-1", or the draft's words. */
export function invoiceTitle(invoice: Pick<InvoiceDetail, 'kind' | 'number'>): string {
  const credit = invoice.kind === 'credit_note';
  if (invoice.number === null) return credit ? 'Draft credit note' : 'Draft invoice';
  return `${credit ? 'Credit note' : 'Invoice'} ${invoice.number}`;
}

function IssueDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const { error, run, pending } = useDialogWrite(useIssueInvoice(invoice.id), onClose);
  return (
    <ConfirmDialog
      open
      title={invoice.kind === 'credit_note' ? 'Issue the credit note' : 'Issue the invoice'}
      description="Issuing gives it the next number of the issuer’s counter and freezes the document with its PDF and XML. The number is final: an issued invoice is never changed or deleted, only cancelled with a credit note."
      confirmLabel="Issue"
      pending={pending}
      error={error}
      onConfirm={() => run(undefined, (issued) => `${invoiceTitle(issued)} issued.`)}
      onClose={onClose}
    />
  );
}

function DeleteDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const remove = useDeleteInvoice(invoice.id);
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      open
      danger
      title="Delete the draft"
      description={`The draft for ${invoice.buyer.name} is deleted for good. It has no number yet, so no gap is left in the numbering.`}
      confirmLabel="Delete draft"
      pending={remove.isPending}
      error={error}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            notify({ type: 'success', title: 'Draft deleted.' });
            navigate(INVOICES_ROUTE);
          },
          onError: (failure) => setError(getErrorMessage(failure)),
        })
      }
      onClose={onClose}
    />
  );
}

function PaymentDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useInvoicePayment(invoice.id), onClose);
  const [amount, setAmount] = useState(() => decimalOf(invoice.balanceMinor, invoice.currency));
  const [paidOn, setPaidOn] = useState(today);
  const [reference, setReference] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amountMinor = minorOf(amount, invoice.currency);
    if (typeof amountMinor === 'string') return setError(amountMinor);
    if (amountMinor < 1) return setError('An amount is more than 0.');
    if (!paidOn) return setError('Enter the day it was paid.');
    run(
      { amountMinor, paidOn, reference: reference.trim() },
      () => `Payment of ${money(amountMinor, invoice.currency)} recorded.`,
    );
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Record a payment"
      submitLabel="Record payment"
      pending={pending}
    >
      <Field.Root required>
        <Field.Label htmlFor="invoice-payment-amount">
          Amount ({invoice.currency}) <Field.RequiredIndicator />
        </Field.Label>
        <Input
          id="invoice-payment-amount"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <Field.HelperText>{`${money(invoice.balanceMinor, invoice.currency)} is still to pay.`}</Field.HelperText>
      </Field.Root>
      <Field.Root required>
        <Field.Label htmlFor="invoice-payment-date">
          Paid on <Field.RequiredIndicator />
        </Field.Label>
        <Input
          id="invoice-payment-date"
          type="date"
          value={paidOn}
          onChange={(event) => setPaidOn(event.target.value)}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label htmlFor="invoice-payment-reference">Reference</Field.Label>
        <Input
          id="invoice-payment-reference"
          maxLength={200}
          value={reference}
          onChange={(event) => setReference(event.target.value)}
        />
      </Field.Root>
      <DialogError>{error}</DialogError>
    </FormDialog>
  );
}

function FailDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  return (
    <ReasonDialog
      title="Mark the payment failed"
      intro="The invoice shows as failed until money arrives on it."
      submitLabel="Mark failed"
      danger
      mutation={useMarkPaymentFailed(invoice.id)}
      done={(next) => `${invoiceTitle(next)}: payment marked failed.`}
      onClose={onClose}
    />
  );
}

function CancelDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  return (
    <ReasonDialog
      title="Cancel with a credit note"
      intro={`A credit note for ${money(invoice.totalMinor - invoice.creditedMinor, invoice.currency)} is issued against it; the invoice keeps its number and shows as cancelled.`}
      submitLabel="Issue credit note"
      danger
      mutation={useCancelInvoice(invoice.id)}
      done={(next) => `${invoiceTitle(next)} cancelled with a credit note.`}
      onClose={onClose}
    />
  );
}

function MailDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useMailInvoice(invoice.id), onClose);
  const [to, setTo] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = to.trim() || undefined;
    const checked = invoiceMailBodySchema.safeParse({ to: address });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Check the address.');
    run(address, () => `${invoiceTitle(invoice)} mailed to ${address ?? invoice.buyer.email}.`);
  };
  return (
    <FormDialog open onClose={onClose} onSubmit={submit} title="Mail it" submitLabel="Send" pending={pending}>
      <Text fontSize="sm" color="fg.muted">
        {invoice.buyer.email
          ? `The PDF goes to the buyer, ${invoice.buyer.email}, unless you give another address.`
          : 'The buyer has no e-mail address: give one.'}
      </Text>
      <Field.Root invalid={Boolean(error)}>
        <Field.Label htmlFor="invoice-mail-to">Another address</Field.Label>
        <Input
          id="invoice-mail-to"
          type="email"
          maxLength={320}
          value={to}
          onChange={(event) => setTo(event.target.value)}
        />
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/** The buttons the invoice's state and the user's permissions allow, and their dialogs. */
export function InvoiceActions({ invoice }: { invoice: InvoiceDetail }) {
  const [open, setOpen] = useState<Dialog>(null);
  const { can } = useRouteActions(INVOICES_ROUTE);
  const close = () => setOpen(null);
  const { problems } = invoice;
  const edit = can('edit');
  const offered = {
    issue: edit && problems.issue === null,
    pay: edit && problems.pay === null,
    mail: edit && problems.mail === null,
    fail: edit && problems.fail === null,
    cancel: edit && problems.cancel === null,
    delete: can('delete') && problems.delete === null,
  };
  const none = !Object.values(offered).some(Boolean);
  return (
    <HStack gap="2" wrap="wrap" data-tour="invoice-actions">
      {none ? (
        <Text fontSize="sm" color="fg.muted">
          Nothing to do on it now.
        </Text>
      ) : null}
      {offered.issue ? (
        <Button size="sm" colorPalette="brand" onClick={() => setOpen('issue')}>
          Issue
        </Button>
      ) : null}
      {offered.pay ? (
        <Button size="sm" colorPalette="brand" onClick={() => setOpen('pay')}>
          Record payment
        </Button>
      ) : null}
      {offered.mail ? (
        <Button size="sm" variant="outline" onClick={() => setOpen('mail')}>
          Mail to buyer
        </Button>
      ) : null}
      {offered.fail ? (
        <Button size="sm" variant="outline" onClick={() => setOpen('fail')}>
          Mark payment failed
        </Button>
      ) : null}
      {offered.cancel ? (
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => setOpen('cancel')}>
          Cancel with credit note
        </Button>
      ) : null}
      {offered.delete ? (
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => setOpen('delete')}>
          Delete draft
        </Button>
      ) : null}
      {open === 'issue' ? <IssueDialog invoice={invoice} onClose={close} /> : null}
      {open === 'delete' ? <DeleteDialog invoice={invoice} onClose={close} /> : null}
      {open === 'pay' ? <PaymentDialog invoice={invoice} onClose={close} /> : null}
      {open === 'fail' ? <FailDialog invoice={invoice} onClose={close} /> : null}
      {open === 'cancel' ? <CancelDialog invoice={invoice} onClose={close} /> : null}
      {open === 'mail' ? <MailDialog invoice={invoice} onClose={close} /> : null}
    </HStack>
  );
}
