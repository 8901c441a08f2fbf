// What can be done to a purchase order from its page (issue 31): send it (the supplier is mailed its
// PDF), take goods in (any number of receipts, each raising the stock; more than a line's tolerance over
// what was ordered needs a confirmation with a reason) and cancel it while nothing has arrived. The
// server refuses what the status does not allow, and the page offers only what it allows (`problems`).
import { Button, Checkbox, Field, HStack, Input, Stack, Table, Text, Textarea } from '@chakra-ui/react';
import { FileText } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type PurchaseOrderDetail, receiptBodySchema } from '../../../contracts/purchase-orders';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DialogError, useDialogWrite } from '../../ui/dialog-write';
import { DownloadButton } from '../../ui/download-button';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { TableScroll } from '../../ui/table-scroll';
import { purchaseOrderPdfLink, useCancelPurchaseOrder, useReceiveGoods, useSendPurchaseOrder } from './api';

type Dialog = 'send' | 'receive' | 'cancel' | null;

/** The server's word for a delivery over a line's tolerance (409 OVER_RECEIPT). */
const OVER_TOLERANCE = 'beyond the tolerance';

function SendDialog({ po, onClose }: { po: PurchaseOrderDetail; onClose: () => void }) {
  const { error, run, pending } = useDialogWrite(useSendPurchaseOrder(po.id), onClose);
  return (
    <ConfirmDialog
      open
      title={`Send ${po.reference}`}
      description={`The supplier is mailed the PDF at ${po.supplier.email}. The purchase order can no longer change; its goods are then taken in as they arrive.`}
      confirmLabel="Send to supplier"
      pending={pending}
      error={error}
      onConfirm={() => run(undefined, (sent) => `${sent.reference} sent to ${sent.supplier.name}.`)}
      onClose={onClose}
    />
  );
}

/** What is still expected of a line: what was ordered less what arrived, none below zero. */
const stillExpected = (line: PurchaseOrderDetail['lines'][number]) =>
  Math.max(0, line.quantity - line.received);

function ReceiveDialog({ po, onClose }: { po: PurchaseOrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useReceiveGoods(po.id), onClose);
  const open = po.lines.filter((line) => !line.done);
  const [quantities, setQuantities] = useState<Record<string, string>>(() =>
    Object.fromEntries(open.map((line) => [line.id, String(stillExpected(line))])),
  );
  const [note, setNote] = useState('');
  /** The server's over-receipt message, once it refused the quantities without a confirmation. */
  const [over, setOver] = useState<string | null>(null);
  const [keepExtra, setKeepExtra] = useState(false);
  const [overReason, setOverReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setReasonError(null);
    const lines = [];
    for (const line of open) {
      const text = (quantities[line.id] ?? '').trim();
      if (text === '' || text === '0') continue;
      if (!/^\d+$/.test(text)) return setError(`${line.name}: a quantity is a whole number.`);
      lines.push({ lineId: line.id, quantity: Number(text) });
    }
    const confirmOver = over !== null && keepExtra;
    const checked = receiptBodySchema.safeParse({
      lines,
      note,
      confirmOver,
      overReason: confirmOver ? overReason : '',
    });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      if (issue?.path[0] === 'overReason') return setReasonError(issue.message);
      return setError(issue?.message ?? 'Enter what arrived.');
    }
    run(
      checked.data,
      (received) => `Receipt of ${received.reference} recorded: the stock rose.`,
      (message) => {
        if (!message.includes(OVER_TOLERANCE)) return false;
        setOver(message);
        return true;
      },
    );
  };

  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Receive goods"
      label={`Receive goods of ${po.reference}`}
      submitLabel="Record receipt"
      pending={pending}
      size="xl"
      scrollBehavior="inside"
    >
      <Text fontSize="sm" color="fg.muted">
        Enter what arrived in this delivery; leave a line empty or at 0 when none of it came. The stock of
        each product rises by what you enter.
      </Text>
      <TableScroll label="What arrived">
        <Table.Root size="sm" aria-label="What arrived">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Product</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Ordered</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Received so far</Table.ColumnHeader>
              <Table.ColumnHeader width="32">Arrived now</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {open.map((line) => (
              <Table.Row key={line.id}>
                <Table.Cell overflowWrap="anywhere">
                  {line.name}
                  {line.sku ? (
                    <Text fontSize="xs" color="fg.muted">
                      {line.sku}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell textAlign="end">{line.quantity}</Table.Cell>
                <Table.Cell textAlign="end">{line.received}</Table.Cell>
                <Table.Cell>
                  <Input
                    size="sm"
                    inputMode="numeric"
                    aria-label={`Quantity of ${line.name} that arrived`}
                    value={quantities[line.id] ?? ''}
                    onChange={(event) =>
                      setQuantities((current) => ({ ...current, [line.id]: event.target.value }))
                    }
                  />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScroll>
      <Field.Root>
        <Field.Label htmlFor="receipt-note">Note</Field.Label>
        <Textarea
          id="receipt-note"
          rows={2}
          maxLength={1000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </Field.Root>
      {over ? (
        <Stack gap="3" data-testid="po-over-receipt">
          <FormMessage status="error">{over}</FormMessage>
          <Checkbox.Root
            checked={keepExtra}
            onCheckedChange={(details) => setKeepExtra(details.checked === true)}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Keep the extra units</Checkbox.Label>
          </Checkbox.Root>
          {keepExtra ? (
            <Field.Root required invalid={Boolean(reasonError)}>
              <Field.Label htmlFor="receipt-over-reason">
                Why the extra units are kept <Field.RequiredIndicator />
              </Field.Label>
              <Input
                id="receipt-over-reason"
                maxLength={500}
                value={overReason}
                onChange={(event) => setOverReason(event.target.value)}
              />
              <Field.ErrorText>{reasonError}</Field.ErrorText>
            </Field.Root>
          ) : (
            <Text fontSize="sm" color="fg.muted">
              Or lower the quantities to what the tolerance allows.
            </Text>
          )}
        </Stack>
      ) : null}
      <DialogError>{error}</DialogError>
    </FormDialog>
  );
}

function CancelDialog({ po, onClose }: { po: PurchaseOrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useCancelPurchaseOrder(po.id), onClose);
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('Say why the purchase order is cancelled.');
    run(reason, (cancelled) => `${cancelled.reference} cancelled.`);
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Cancel the purchase order"
      submitLabel="Cancel purchase order"
      submitPalette="red"
      pending={pending}
    >
      <Field.Root required invalid={Boolean(error)}>
        <Field.Label htmlFor="po-cancel-reason">
          Reason <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          id="po-cancel-reason"
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

/**
 * The purchase order's PDF, then the buttons its state allows to those who may edit purchase orders
 * (`canEdit`: Purchase Orders' edit), and their dialogs.
 */
export function PurchaseOrderActions({ po, canEdit }: { po: PurchaseOrderDetail; canEdit: boolean }) {
  const [open, setOpen] = useState<Dialog>(null);
  const close = () => setOpen(null);
  const allowed = (action: keyof PurchaseOrderDetail['problems']) => canEdit && po.problems[action] === null;
  return (
    <HStack gap="2" wrap="wrap" data-tour="po-actions">
      <DownloadButton size="sm" path={purchaseOrderPdfLink(po.id)} fileName={`${po.reference}.pdf`}>
        <FileText aria-hidden /> Download the PDF
      </DownloadButton>
      {allowed('send') ? (
        <Button size="sm" colorPalette="brand" onClick={() => setOpen('send')}>
          Send to supplier
        </Button>
      ) : null}
      {allowed('receive') ? (
        <Button size="sm" colorPalette="brand" variant="outline" onClick={() => setOpen('receive')}>
          Receive goods
        </Button>
      ) : null}
      {allowed('cancel') ? (
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => setOpen('cancel')}>
          Cancel purchase order
        </Button>
      ) : null}
      {open === 'send' ? <SendDialog po={po} onClose={close} /> : null}
      {open === 'receive' ? <ReceiveDialog po={po} onClose={close} /> : null}
      {open === 'cancel' ? <CancelDialog po={po} onClose={close} /> : null}
    </HStack>
  );
}
