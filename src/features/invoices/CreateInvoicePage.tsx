import {
  Button,
  Card,
  Field,
  Heading,
  HStack,
  Input,
  SegmentGroup,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import { formatDate, formatDateTime } from '../../../contracts/domain/format';
import { orderStatusLabels } from '../../../contracts/domain/order-state';
import {
  type CreateInvoiceBody,
  createInvoiceBodySchema,
  INVOICES_ROUTE,
  invoicePageLink,
} from '../../../contracts/invoices';
import type { OrderListItem } from '../../../contracts/orders';
import { minorOf, money } from '../../lib/money';
import { useClientSettings } from '../../services/client-settings';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { SellerChooser } from '../../ui/choosers';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { PageHeader } from '../../ui/page-states';
import { TableScroll } from '../../ui/table-scroll';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useCreateInvoice, useOrderSearch, useSellerPeriods } from './api';
import { type InvoiceLineForm, InvoiceLinesEditor, linesInput } from './InvoiceLinesEditor';

type Source = CreateInvoiceBody['source'];
type Errors = Partial<Record<string, string>>;

const SOURCES: { value: Source; label: string }[] = [
  { value: 'order', label: 'From an order' },
  { value: 'subscription', label: 'Subscription period' },
  { value: 'manual', label: 'By hand' },
];

/** zod issues as messages by path: 'buyer.name', 'lines', 'lines.0.taxRate'. */
function messagesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const out: Errors = {};
  for (const issue of issues) {
    const key = issue.path.slice(0, 3).map(String).join('.');
    out[key] ??= issue.message;
  }
  return out;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root size="sm">
      <Card.Header>
        <Heading as="h2" size="sm">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/** A labelled input with its error. */
function TextInput({
  id,
  label,
  value,
  onChange,
  error,
  required,
  maxLength = 200,
  type = 'text',
  helper,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  maxLength?: number;
  type?: 'text' | 'email';
  helper?: string;
}) {
  return (
    <Field.Root required={required} invalid={Boolean(error)}>
      <Field.Label htmlFor={id}>
        {label} {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input
        id={id}
        type={type}
        maxLength={maxLength}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {helper ? <Field.HelperText>{helper}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

// ── From an order ────────────────────────────────────────────────────────────────────────────────────

function OrderPicker({
  chosen,
  onChoose,
  error,
}: {
  chosen: OrderListItem | null;
  onChoose: (order: OrderListItem) => void;
  error?: string;
}) {
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const orders = useOrderSearch(searched);
  const rows = orders.data ?? [];
  return (
    <Stack gap="3">
      <Field.Root invalid={Boolean(error)}>
        <Field.Label htmlFor="invoice-order-search">Find an order</Field.Label>
        <Input
          id="invoice-order-search"
          type="search"
          placeholder="ORD number, customer or e-mail"
          maxLength={200}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Field.HelperText>The draft takes the order’s customer, lines, taxes and shipping.</Field.HelperText>
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
      {orders.isError ? <FormMessage status="error">{getErrorMessage(orders.error)}</FormMessage> : null}
      {rows.length ? (
        <TableScroll label="Orders found">
          <Table.Root size="sm" aria-label="Orders found">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Order</Table.ColumnHeader>
                <Table.ColumnHeader>Customer</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
                <Table.ColumnHeader>Placed</Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Text srOnly>Choose</Text>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((order) => {
                const picked = chosen?.id === order.id;
                return (
                  <Table.Row key={order.id} bg={picked ? 'bg.emphasized' : undefined}>
                    <Table.Cell whiteSpace="nowrap">{order.reference}</Table.Cell>
                    <Table.Cell>
                      <Text truncate maxW="56" title={`${order.customerName} <${order.email}>`}>
                        {order.customerName}
                      </Text>
                    </Table.Cell>
                    <Table.Cell>{orderStatusLabels[order.status]}</Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap">
                      {money(order.totalMinor, order.currency)}
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDateTime(order.createdAt)}</Table.Cell>
                    <Table.Cell>
                      <Button
                        size="xs"
                        variant={picked ? 'solid' : 'outline'}
                        aria-pressed={picked}
                        aria-label={`Choose ${order.reference}`}
                        onClick={() => onChoose(order)}
                      >
                        {picked ? 'Chosen' : 'Choose'}
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        </TableScroll>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {orders.isPending ? 'Searching…' : 'No order found.'}
        </Text>
      )}
      {chosen ? (
        <Text fontSize="sm" role="status">
          Invoicing {chosen.reference} for {chosen.customerName}, {money(chosen.totalMinor, chosen.currency)}.
        </Text>
      ) : null}
    </Stack>
  );
}

// ── A subscription period ────────────────────────────────────────────────────────────────────────────

function PeriodPicker({
  sellerId,
  onSeller,
  periodId,
  onPeriod,
  errors,
}: {
  sellerId: string;
  onSeller: (sellerId: string) => void;
  periodId: string;
  onPeriod: (periodId: string) => void;
  errors: Errors;
}) {
  const periods = useSellerPeriods(sellerId);
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
      <Field.Root required invalid={Boolean(errors.sellerId)}>
        <Field.Label htmlFor="invoice-period-seller">
          Seller <Field.RequiredIndicator />
        </Field.Label>
        <SellerChooser
          id="invoice-period-seller"
          label="Seller"
          blank="Choose a seller"
          value={sellerId}
          onChange={onSeller}
        />
        <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
      </Field.Root>
      <Field.Root required invalid={Boolean(errors.subscriptionId)}>
        <Field.Label htmlFor="invoice-period">
          Subscription period <Field.RequiredIndicator />
        </Field.Label>
        <OptionSelect
          id="invoice-period"
          blank={sellerId ? 'Choose a period' : 'Choose the seller first'}
          disabled={!sellerId}
          value={periodId}
          options={(periods.data ?? []).map((period) => ({
            value: period.id,
            label: `${period.plan.name}, ${formatDate(period.startsAt)} – ${formatDate(period.endsAt)}`,
          }))}
          onChange={onPeriod}
        />
        <Field.HelperText>
          {sellerId && periods.data?.length === 0
            ? 'This seller has no subscription period.'
            : 'The marketplace bills the seller for the period’s plan.'}
        </Field.HelperText>
        <Field.ErrorText>
          {errors.subscriptionId ?? (periods.isError ? getErrorMessage(periods.error) : undefined)}
        </Field.ErrorText>
      </Field.Root>
    </SimpleGrid>
  );
}

// ── By hand ──────────────────────────────────────────────────────────────────────────────────────────

interface BuyerForm {
  name: string;
  email: string;
  taxId: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

const emptyBuyer: BuyerForm = {
  name: '',
  email: '',
  taxId: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  zipcode: '',
  country: '',
};

const BUYER_FIELDS: [keyof BuyerForm, string, boolean][] = [
  ['name', 'Buyer name', true],
  ['email', 'Buyer e-mail', false],
  ['taxId', 'Tax id', false],
  ['addressLine1', 'Address line 1', false],
  ['addressLine2', 'Address line 2', false],
  ['city', 'City', false],
  ['state', 'State or region', false],
  ['zipcode', 'Zip code', false],
  ['country', 'Country (two letters)', true],
];

/**
 * New invoice (`/invoices/create-invoice`, issue 31): a draft made from an order (its customer, lines and
 * taxes), from a seller's subscription period (the marketplace bills the seller) or typed by hand. Sellers
 * invoice their own orders only. The draft opens on its page, where it is checked and issued.
 */
export default function CreateInvoicePage() {
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? true;
  const settings = useClientSettings().data;
  const [, navigate] = useLocation();
  const create = useCreateInvoice();
  const [source, setSource] = useState<Source>('order');
  const [order, setOrder] = useState<OrderListItem | null>(null);
  const [periodSeller, setPeriodSeller] = useState('');
  const [periodId, setPeriodId] = useState('');
  const [sellerId, setSellerId] = useState('');
  const [buyer, setBuyer] = useState<BuyerForm>(emptyBuyer);
  const [currency, setCurrency] = useState('');
  const [lines, setLines] = useState<InvoiceLineForm[]>([]);
  const [shipping, setShipping] = useState('');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const chosenCurrency = currency || settings?.defaultCurrency || '';
  const from: Source = isSeller ? 'order' : source;

  const bodyOf = (): { body: unknown; problems: Errors } => {
    if (from === 'order') return { body: { source: 'order', orderId: order?.id ?? '' }, problems: {} };
    if (from === 'subscription')
      return {
        body: { source: 'subscription', subscriptionId: periodId },
        problems: periodSeller ? {} : { sellerId: 'Choose a seller from the list.' },
      };
    const typed = linesInput(lines, chosenCurrency);
    const problems: Errors = { ...typed.problems };
    let shippingMinor: number | string = 0;
    if (shipping.trim()) {
      shippingMinor = minorOf(shipping, chosenCurrency);
      if (typeof shippingMinor === 'string') problems.shippingMinor = shippingMinor;
    }
    return {
      body: {
        source: 'manual',
        sellerId,
        buyer,
        currency: chosenCurrency,
        lines: typed.lines,
        shippingMinor: typeof shippingMinor === 'number' ? shippingMinor : 0,
        reference,
        notes,
      },
      problems,
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, problems } = bodyOf();
    const checked = createInvoiceBodySchema.safeParse(body);
    const found: Errors = checked.success
      ? { ...problems }
      : { ...messagesOf(checked.error.issues), ...problems };
    setErrors(found);
    if (!checked.success || Object.keys(found).length) return;
    create.mutate(checked.data, { onSuccess: (draft) => navigate(invoicePageLink(draft.id)) });
  };

  return (
    <>
      <PageHeader
        title="New invoice"
        description="Make a draft invoice. It gets its number only when it is issued, from its page."
      />
      <form onSubmit={submit} noValidate aria-label="New invoice">
        <Stack gap="4" maxW="5xl">
          {isSeller ? null : (
            <Stack gap="1">
              <Text fontWeight="medium" id="invoice-source-label">
                Made from
              </Text>
              <SegmentGroup.Root
                value={source}
                onValueChange={(details) => {
                  if (!details.value) return;
                  setSource(details.value as Source);
                  setErrors({});
                }}
                aria-labelledby="invoice-source-label"
                size="sm"
                alignSelf="flex-start"
              >
                <SegmentGroup.Indicator />
                <SegmentGroup.Items items={SOURCES} />
              </SegmentGroup.Root>
            </Stack>
          )}
          {from === 'order' ? (
            <Section title="Order">
              <OrderPicker chosen={order} onChoose={setOrder} error={errors.orderId} />
            </Section>
          ) : null}
          {from === 'subscription' ? (
            <Section title="Subscription period">
              <PeriodPicker
                sellerId={periodSeller}
                onSeller={(next) => {
                  setPeriodSeller(next);
                  setPeriodId('');
                }}
                periodId={periodId}
                onPeriod={setPeriodId}
                errors={errors}
              />
            </Section>
          ) : null}
          {from === 'manual' ? (
            <>
              <Section title="Seller and buyer">
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                  <Field.Root required invalid={Boolean(errors.sellerId)} gridColumn={{ md: 'span 2' }}>
                    <Field.Label htmlFor="invoice-seller">
                      Issuing seller <Field.RequiredIndicator />
                    </Field.Label>
                    <SellerChooser
                      id="invoice-seller"
                      label="Issuing seller"
                      blank="Choose a seller"
                      value={sellerId}
                      onChange={setSellerId}
                    />
                    <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
                  </Field.Root>
                  {BUYER_FIELDS.map(([name, label, required]) => (
                    <TextInput
                      key={name}
                      id={`invoice-buyer-${name}`}
                      label={label}
                      required={required}
                      type={name === 'email' ? 'email' : 'text'}
                      maxLength={name === 'country' ? 2 : name === 'taxId' ? 30 : 200}
                      value={buyer[name]}
                      error={errors[`buyer.${name}`]}
                      onChange={(value) =>
                        setBuyer((current) => ({
                          ...current,
                          [name]: name === 'country' ? value.toUpperCase() : value,
                        }))
                      }
                    />
                  ))}
                </SimpleGrid>
              </Section>
              <Section title="Lines">
                <Stack gap="3">
                  <Field.Root width={{ base: 'full', md: '48' }} invalid={Boolean(errors.currency)}>
                    <Field.Label htmlFor="invoice-currency">Currency</Field.Label>
                    <OptionSelect
                      id="invoice-currency"
                      value={chosenCurrency}
                      options={(settings?.currencies ?? []).map((code) => ({ value: code, label: code }))}
                      onChange={setCurrency}
                    />
                    <Field.ErrorText>{errors.currency}</Field.ErrorText>
                  </Field.Root>
                  <InvoiceLinesEditor
                    lines={lines}
                    currency={chosenCurrency}
                    errors={errors}
                    onChange={setLines}
                  />
                  <FormMessage status="error">{errors.lines ?? null}</FormMessage>
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                    <TextInput
                      id="invoice-shipping"
                      label={`Shipping (${chosenCurrency || '—'})`}
                      value={shipping}
                      maxLength={20}
                      error={errors.shippingMinor}
                      onChange={setShipping}
                    />
                    <TextInput
                      id="invoice-reference"
                      label="Reference"
                      value={reference}
                      maxLength={100}
                      helper="The buyer’s purchase order or your own reference."
                      error={errors.reference}
                      onChange={setReference}
                    />
                  </SimpleGrid>
                </Stack>
              </Section>
              <Field.Root invalid={Boolean(errors.notes)}>
                <Field.Label htmlFor="invoice-notes">Notes</Field.Label>
                <Textarea
                  id="invoice-notes"
                  rows={3}
                  maxLength={2000}
                  value={notes}
                  onChange={(event) => setNotes(event.target.value)}
                />
                <Field.ErrorText>{errors.notes}</Field.ErrorText>
              </Field.Root>
            </>
          ) : null}
          <FormMessage status="error">{create.isError ? getErrorMessage(create.error) : null}</FormMessage>
          <HStack justify="end" gap="2">
            <Button asChild variant="outline">
              <RouterLink href={INVOICES_ROUTE}>Cancel</RouterLink>
            </Button>
            <Button type="submit" colorPalette="brand" loading={create.isPending}>
              Make draft
            </Button>
          </HStack>
        </Stack>
      </form>
    </>
  );
}
