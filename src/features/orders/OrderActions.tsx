// What can be done to an order from its page (issue 31), each a small form: record a payment, refund
// (with a reason, and goods back from a shipped order: restocked or written off), ship (carrier and
// tracking number; the customer is mailed), mark delivered, cancel (with a reason) and edit the lines
// (a new version with a reason). The server refuses what the order's status or money does not allow,
// and the page offers only what it allows (the detail's `problems`).
import {
  Button,
  Checkbox,
  Field,
  HStack,
  Input,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { type OrderDetail, paymentMethodLabels, paymentMethods } from '../../../contracts/orders';
import { decimalOf, minorOf, money } from '../../lib/money';
import { getErrorMessage } from '../../services/http';
import { DialogError, useDialogWrite } from '../../ui/dialog-write';
import { FormDialog } from '../../ui/form-dialog';
import { notify } from '../../ui/notify';
import {
  useCancelOrder,
  useEditOrder,
  useMarkDelivered,
  useRecordPayment,
  useRefund,
  useShipOrder,
} from './api';
import { type LineForm, linesBody, OrderLinesEditor } from './OrderLinesEditor';

type Dialog = 'pay' | 'refund' | 'ship' | 'cancel' | 'edit' | null;

const today = () => new Date().toISOString().slice(0, 10);

function MoneyField({
  id,
  label,
  value,
  onChange,
  currency,
  helper,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  currency: string;
  helper: string;
}) {
  return (
    <Field.Root required>
      <Field.Label htmlFor={id}>
        {label} ({currency}) <Field.RequiredIndicator />
      </Field.Label>
      <Input id={id} inputMode="decimal" value={value} onChange={(event) => onChange(event.target.value)} />
      <Field.HelperText>{helper}</Field.HelperText>
    </Field.Root>
  );
}

function PaymentDialog({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useRecordPayment(order.id), onClose);
  const [amount, setAmount] = useState(() => decimalOf(order.balanceDueMinor, order.currency));
  const [method, setMethod] = useState<(typeof paymentMethods)[number]>('bank_transfer');
  const [paidOn, setPaidOn] = useState(today);
  const [reference, setReference] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amountMinor = minorOf(amount, order.currency);
    if (typeof amountMinor === 'string') return setError(amountMinor);
    run(
      { amountMinor, method, paidOn, reference },
      () => `Payment of ${money(amountMinor, order.currency)} recorded.`,
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
      <MoneyField
        id="payment-amount"
        label="Amount"
        value={amount}
        onChange={setAmount}
        currency={order.currency}
        helper={`${money(order.balanceDueMinor, order.currency)} is still due.`}
      />
      <Field.Root required>
        <Field.Label htmlFor="payment-method">How it was paid</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            id="payment-method"
            value={method}
            onChange={(event) => setMethod(event.target.value as (typeof paymentMethods)[number])}
          >
            {paymentMethods.map((value) => (
              <option key={value} value={value}>
                {paymentMethodLabels[value]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <Field.Root required>
        <Field.Label htmlFor="payment-date">Paid on</Field.Label>
        <Input
          id="payment-date"
          type="date"
          value={paidOn}
          onChange={(event) => setPaidOn(event.target.value)}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label htmlFor="payment-reference">Reference</Field.Label>
        <Input
          id="payment-reference"
          maxLength={200}
          value={reference}
          onChange={(event) => setReference(event.target.value)}
        />
      </Field.Root>
      <DialogError>{error}</DialogError>
    </FormDialog>
  );
}

/** The order's catalog products with their quantities, for goods sent back. */
function productsOf(order: OrderDetail) {
  const byId = new Map<string, { name: string; quantity: number }>();
  for (const line of order.pricing.lines)
    if (line.productId) {
      const seen = byId.get(line.productId);
      byId.set(line.productId, { name: line.name, quantity: (seen?.quantity ?? 0) + line.quantity });
    }
  return [...byId.entries()].map(([productId, item]) => ({ productId, ...item }));
}

function RefundDialog({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useRefund(order.id), onClose);
  const shipped = order.status === 'shipped' || order.status === 'delivered';
  const products = shipped ? productsOf(order) : [];
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [back, setBack] = useState<Record<string, { quantity: string; restock: boolean }>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amountMinor = minorOf(amount, order.currency);
    if (typeof amountMinor === 'string') return setError(amountMinor);
    if (!reason.trim()) return setError('Say why the money is refunded.');
    const returns = [];
    for (const product of products) {
      const entry = back[product.productId];
      if (!entry || entry.quantity.trim() === '' || entry.quantity.trim() === '0') continue;
      const quantity = Number(entry.quantity);
      if (!Number.isInteger(quantity) || quantity < 0)
        return setError(`${product.name}: a quantity back is a whole number.`);
      returns.push({ productId: product.productId, quantity, restock: entry.restock });
    }
    run({ amountMinor, reason, returns }, () => `Refund of ${money(amountMinor, order.currency)} recorded.`);
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Refund"
      submitLabel="Refund"
      pending={pending}
      size="lg"
    >
      <MoneyField
        id="refund-amount"
        label="Amount"
        value={amount}
        onChange={setAmount}
        currency={order.currency}
        helper={`At most ${money(order.refundableMinor, order.currency)}: what was paid and not refunded yet.`}
      />
      <Field.Root required>
        <Field.Label htmlFor="refund-reason">
          Reason <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          id="refund-reason"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field.Root>
      {products.length ? (
        <Stack gap="2">
          <Text fontWeight="medium">Goods sent back (optional)</Text>
          <Table.Root size="sm" aria-label="Goods sent back">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Product</Table.ColumnHeader>
                <Table.ColumnHeader width="28">Quantity back</Table.ColumnHeader>
                <Table.ColumnHeader>Back on hand</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {products.map((product) => {
                const entry = back[product.productId] ?? { quantity: '', restock: true };
                const set = (patch: Partial<typeof entry>) =>
                  setBack((current) => ({ ...current, [product.productId]: { ...entry, ...patch } }));
                return (
                  <Table.Row key={product.productId}>
                    <Table.Cell>
                      {product.name}
                      <Text fontSize="xs" color="fg.muted">
                        {product.quantity} shipped
                      </Text>
                    </Table.Cell>
                    <Table.Cell>
                      <Input
                        size="sm"
                        inputMode="numeric"
                        aria-label={`Quantity of ${product.name} sent back`}
                        value={entry.quantity}
                        onChange={(event) => set({ quantity: event.target.value })}
                      />
                    </Table.Cell>
                    <Table.Cell>
                      <Checkbox.Root
                        checked={entry.restock}
                        onCheckedChange={(details) => set({ restock: details.checked === true })}
                      >
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                        <Checkbox.Label>Restock (else written off)</Checkbox.Label>
                      </Checkbox.Root>
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        </Stack>
      ) : null}
      <DialogError>{error}</DialogError>
    </FormDialog>
  );
}

function ShipDialog({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useShipOrder(order.id), onClose);
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [notifyCustomer, setNotifyCustomer] = useState(true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!carrier.trim()) return setError('Name the carrier.');
    run({ carrier, trackingNumber, notifyCustomer }, () => `${order.reference} shipped.`);
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Ship the order"
      submitLabel="Ship"
      pending={pending}
    >
      <Text fontSize="sm" color="fg.muted">
        Every line leaves in this shipment: its stock is taken off on hand.
      </Text>
      <Field.Root required>
        <Field.Label htmlFor="ship-carrier">
          Carrier <Field.RequiredIndicator />
        </Field.Label>
        <Input
          id="ship-carrier"
          maxLength={100}
          value={carrier}
          onChange={(event) => setCarrier(event.target.value)}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label htmlFor="ship-tracking">Tracking number</Field.Label>
        <Input
          id="ship-tracking"
          maxLength={100}
          value={trackingNumber}
          onChange={(event) => setTrackingNumber(event.target.value)}
        />
      </Field.Root>
      <Checkbox.Root
        checked={notifyCustomer}
        onCheckedChange={(details) => setNotifyCustomer(details.checked === true)}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Mail {order.email} that it has shipped</Checkbox.Label>
      </Checkbox.Root>
      <DialogError>{error}</DialogError>
    </FormDialog>
  );
}

function CancelDialog({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useCancelOrder(order.id), onClose);
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('Say why the order is cancelled.');
    run(reason, () => `${order.reference} cancelled; its stock is free again.`);
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Cancel the order"
      submitLabel="Cancel order"
      submitPalette="red"
      pending={pending}
    >
      <Field.Root required invalid={Boolean(error)}>
        <Field.Label htmlFor="cancel-reason">
          Reason <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          id="cancel-reason"
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

function EditDialog({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { error, setError, run, pending } = useDialogWrite(useEditOrder(order.id), onClose);
  const [lines, setLines] = useState<LineForm[]>(() =>
    order.pricing.lines.flatMap((line, index) =>
      line.productId
        ? [
            {
              key: `${line.productId}-${index}`,
              productId: line.productId,
              label: line.sku ? `${line.name} (${line.sku})` : line.name,
              quantity: String(line.quantity),
              discountPercent: line.discountPercent === null ? '' : String(line.discountPercent),
            },
          ]
        : [],
    ),
  );
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = linesBody(lines);
    if (typeof body === 'string') return setError(body);
    if (!reason.trim()) return setError('Say why the order changes.');
    run(
      { version: order.version, lines: body, reason },
      (next) => `Version ${next.version} saved: ${money(next.totalMinor, next.currency)}.`,
    );
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      onSubmit={submit}
      title="Edit the lines"
      submitLabel="Save version"
      pending={pending}
      size="xl"
      scrollBehavior="inside"
    >
      <OrderLinesEditor sellerId={order.sellerId} lines={lines} onChange={setLines} idPrefix="edit-order" />
      <Field.Root required>
        <Field.Label htmlFor="edit-reason">
          Why it changes <Field.RequiredIndicator />
        </Field.Label>
        <Input
          id="edit-reason"
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field.Root>
      <DialogError>{error}</DialogError>
    </FormDialog>
  );
}

/** The buttons the order's state allows, and their dialogs. */
export function OrderActions({ order }: { order: OrderDetail }) {
  const [open, setOpen] = useState<Dialog>(null);
  const delivered = useMarkDelivered(order.id);
  const close = () => setOpen(null);
  const { problems } = order;
  return (
    <HStack gap="2" wrap="wrap" data-tour="order-actions">
      {problems.pay === null ? (
        <Button size="sm" colorPalette="brand" onClick={() => setOpen('pay')}>
          Record payment
        </Button>
      ) : null}
      {problems.ship === null ? (
        <Button size="sm" variant="outline" onClick={() => setOpen('ship')}>
          Ship
        </Button>
      ) : null}
      {problems.deliver === null ? (
        <Button
          size="sm"
          variant="outline"
          loading={delivered.isPending}
          onClick={() =>
            delivered.mutate(undefined, {
              onSuccess: () => notify({ type: 'success', title: `${order.reference} delivered.` }),
              onError: (failure) => notify({ type: 'error', title: getErrorMessage(failure) }),
            })
          }
        >
          Mark delivered
        </Button>
      ) : null}
      {problems.refund === null ? (
        <Button size="sm" variant="outline" onClick={() => setOpen('refund')}>
          Refund
        </Button>
      ) : null}
      {problems.edit === null ? (
        <Button size="sm" variant="outline" onClick={() => setOpen('edit')}>
          Edit lines
        </Button>
      ) : null}
      {problems.cancel === null ? (
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => setOpen('cancel')}>
          Cancel order
        </Button>
      ) : null}
      {open === 'pay' ? <PaymentDialog order={order} onClose={close} /> : null}
      {open === 'refund' ? <RefundDialog order={order} onClose={close} /> : null}
      {open === 'ship' ? <ShipDialog order={order} onClose={close} /> : null}
      {open === 'cancel' ? <CancelDialog order={order} onClose={close} /> : null}
      {open === 'edit' ? <EditDialog order={order} onClose={close} /> : null}
    </HStack>
  );
}
