// Creating an auction, or editing a draft's or a scheduled auction's terms (issue 32): the seller (admins
// and staff), one of the seller's products (searched on the server) and its quantity, the title and
// description, the currency and the amounts in it, the times, the soft close, the winner's payment time
// and the increment table. Amounts are typed in major units with the currency's decimals (whole yen
// for JPY) and sent as integer minor units. "Save draft" keeps it to itself; "Publish" schedules it.
import {
  Button,
  Dialog,
  Field,
  Fieldset,
  HStack,
  IconButton,
  Input,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Plus, RotateCcw, Trash2 } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { type AuctionBody, type AuctionDetail, auctionBodySchema } from '../../../contracts/auctions';
import { defaultIncrementTable, incrementTableProblems } from '../../../contracts/domain/auction-rules';
import { dateTimeInputValue, formatDateTime } from '../../../contracts/domain/format';
import { decimalOf, minorOf } from '../../lib/money';
import { useClientSettings } from '../../services/client-settings';
import { ApiError, getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { SellerChooser } from '../../ui/choosers';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { OptionSelect } from '../../ui/option-select';
import { TableScroll } from '../../ui/table-scroll';
import { useSaveAuction } from './api';
import { AmountField, instantOf, ProductChoice, WideFormDialog } from './auction-fields';

const FIELDS = [
  'sellerId',
  'productId',
  'quantity',
  'title',
  'description',
  'currency',
  'startingPriceMinor',
  'reserveMinor',
  'buyNowMinor',
  'increments',
  'startsAt',
  'endsAt',
  'hardEndAt',
  'softCloseSeconds',
  'extensionSeconds',
  'paymentHours',
] as const satisfies readonly (keyof AuctionBody)[];
type FieldName = (typeof FIELDS)[number];
type Errors = Partial<Record<FieldName, string>>;

const HOUR_MS = 3_600_000;

/** One tier of the increment table as typed: major units of the currency. */
interface TierRow {
  key: number;
  from: string;
  step: string;
}

interface Form {
  sellerId: string;
  productId: string;
  quantity: string;
  title: string;
  description: string;
  /** '' until chosen: the settings' default currency. */
  currency: string;
  startingPrice: string;
  reserve: string;
  buyNow: string;
  /** datetime-local texts, in the reader's time zone. */
  startsAt: string;
  endsAt: string;
  hardEndAt: string;
  softCloseMinutes: string;
  extensionMinutes: string;
  paymentHours: string;
  /** null: the default table of the chosen currency (it follows a change of currency). */
  increments: TierRow[] | null;
}

let lastRowKey = 0;
const rowKey = () => {
  lastRowKey += 1;
  return lastRowKey;
};

const rowsOf = (tiers: readonly { fromMinor: number; stepMinor: number }[], currency: string): TierRow[] =>
  tiers.map((tier) => ({
    key: rowKey(),
    from: decimalOf(tier.fromMinor, currency),
    step: decimalOf(tier.stepMinor, currency),
  }));

const minutesOf = (seconds: number) => String(Math.round((seconds / 60) * 100) / 100);

function initialForm(auction: AuctionDetail | undefined): Form {
  if (!auction)
    return {
      sellerId: '',
      productId: '',
      quantity: '1',
      title: '',
      description: '',
      currency: '',
      startingPrice: '',
      reserve: '',
      buyNow: '',
      startsAt: '',
      endsAt: '',
      hardEndAt: '',
      softCloseMinutes: '2',
      extensionMinutes: '2',
      paymentHours: '48',
      increments: null,
    };
  const decimal = (minor: number | null) => (minor === null ? '' : decimalOf(minor, auction.currency));
  return {
    sellerId: auction.sellerId,
    productId: auction.productId,
    quantity: String(auction.quantity),
    title: auction.title,
    description: auction.description,
    currency: auction.currency,
    startingPrice: decimal(auction.startingPriceMinor),
    reserve: decimal(auction.reserveMinor),
    buyNow: decimal(auction.buyNowMinor),
    startsAt: dateTimeInputValue(auction.startsAt),
    endsAt: dateTimeInputValue(auction.endsAt),
    hardEndAt: dateTimeInputValue(auction.hardEndAt),
    softCloseMinutes: minutesOf(auction.softCloseSeconds),
    extensionMinutes: minutesOf(auction.extensionSeconds),
    paymentHours: String(auction.paymentHours),
    increments: rowsOf(auction.increments, auction.currency),
  };
}

/** Minutes as typed → whole seconds from 0 to an hour, or why not. */
function secondsOf(text: string): number | string {
  const minutes = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(minutes)) return 'Enter a number of minutes.';
  const seconds = Math.round(minutes * 60);
  return seconds < 0 || seconds > 3600 ? 'From 0 to 60 minutes.' : seconds;
}

/**
 * What the form sends, checked: the body, or the messages beside the fields. Amounts and increments
 * become minor units of the currency; minutes become seconds.
 */
function auctionBodyOf(
  form: Form,
  currency: string,
  chooseSeller: boolean,
  publish: boolean,
): { body: AuctionBody } | { errors: Errors } {
  const problems: Errors = {};
  const amount = (field: FieldName, text: string, optional: boolean): number | null | undefined => {
    if (optional && text.trim() === '') return null;
    const minor = minorOf(text, currency);
    if (typeof minor === 'string') {
      problems[field] = minor;
      return undefined;
    }
    return minor;
  };
  if (chooseSeller && !form.sellerId) problems.sellerId = 'Choose a seller from the list.';
  if (!/^\s*\d+\s*$/.test(form.quantity)) problems.quantity = 'A quantity is a whole number.';
  if (!currency) problems.currency = 'Choose a currency from the list.';
  const startingPriceMinor = currency ? amount('startingPriceMinor', form.startingPrice, false) : undefined;
  const reserveMinor = currency ? amount('reserveMinor', form.reserve, true) : undefined;
  const buyNowMinor = currency ? amount('buyNowMinor', form.buyNow, true) : undefined;

  const rows = form.increments ?? rowsOf(defaultIncrementTable(currency), currency);
  const increments: { fromMinor: number; stepMinor: number }[] = [];
  rows.forEach((row, index) => {
    const from = row.from.trim() === '' ? 'Enter where it starts.' : minorOf(row.from, currency);
    const step = minorOf(row.step, currency);
    if (typeof from === 'string') problems.increments ??= `Increment ${index + 1}, from: ${from}`;
    else if (typeof step === 'string') problems.increments ??= `Increment ${index + 1}, step: ${step}`;
    else increments.push({ fromMinor: from, stepMinor: step });
  });
  if (!problems.increments && currency) {
    const wrong = incrementTableProblems(increments);
    if (wrong.length) problems.increments = wrong.join(' ');
  }

  const startsAt = instantOf(form.startsAt);
  const endsAt = instantOf(form.endsAt);
  const hardEndAt = instantOf(form.hardEndAt);
  if (!startsAt) problems.startsAt = 'Choose when it starts.';
  if (!endsAt) problems.endsAt = 'Choose when it ends.';
  else if (startsAt && endsAt <= startsAt) problems.endsAt = 'The end comes after the start.';
  if (form.hardEndAt && !hardEndAt) problems.hardEndAt = 'Choose a date and time, or leave it empty.';
  else if (hardEndAt && endsAt && hardEndAt < endsAt)
    problems.hardEndAt = 'The hard end is at or after the scheduled end.';

  const softCloseSeconds = secondsOf(form.softCloseMinutes);
  if (typeof softCloseSeconds === 'string') problems.softCloseSeconds = softCloseSeconds;
  const extensionSeconds = secondsOf(form.extensionMinutes);
  if (typeof extensionSeconds === 'string') problems.extensionSeconds = extensionSeconds;
  const hours = Number(form.paymentHours.trim());
  if (!/^\s*\d+\s*$/.test(form.paymentHours) || hours < 1 || hours > 24 * 14)
    problems.paymentHours = 'A whole number of hours, from 1 to 336 (14 days).';

  const checked = auctionBodySchema.safeParse({
    sellerId: chooseSeller ? form.sellerId || undefined : undefined,
    productId: form.productId,
    quantity: Number(form.quantity),
    title: form.title,
    description: form.description,
    currency,
    startingPriceMinor,
    reserveMinor,
    buyNowMinor,
    increments,
    startsAt,
    endsAt,
    hardEndAt: hardEndAt ?? undefined,
    softCloseSeconds,
    extensionSeconds,
    paymentHours: hours,
    publish,
  });
  const errors: Errors = checked.success
    ? problems
    : { ...fieldErrors(checked.error.issues, FIELDS), ...problems };
  if (Object.keys(errors).length || !checked.success) return { errors };
  return { body: checked.data };
}

/** The increment table: from what price (inclusive) each bid rises by at least the step. */
function IncrementsEditor({
  rows,
  currency,
  error,
  onChange,
  onReset,
}: {
  rows: TierRow[];
  currency: string;
  error?: string;
  onChange: (rows: TierRow[]) => void;
  onReset: () => void;
}) {
  const update = (key: number, patch: Partial<TierRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const unit = currency ? ` (${currency})` : '';
  return (
    <Fieldset.Root invalid={Boolean(error)}>
      <Fieldset.Legend>Bid increments{unit}</Fieldset.Legend>
      <Fieldset.HelperText>
        From each price upwards, the next bid is at least the current price plus the step. The first row
        starts at 0.
      </Fieldset.HelperText>
      <Fieldset.Content>
        <TableScroll label="Bid increments">
          <Table.Root size="sm" aria-label="Bid increments">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>From{unit}</Table.ColumnHeader>
                <Table.ColumnHeader>Step{unit}</Table.ColumnHeader>
                <Table.ColumnHeader width="12">
                  <Text srOnly>Remove</Text>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((row, index) => (
                <Table.Row key={row.key}>
                  <Table.Cell>
                    <Input
                      size="sm"
                      inputMode="decimal"
                      aria-label={`Increment ${index + 1}: from`}
                      value={row.from}
                      onChange={(event) => update(row.key, { from: event.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <Input
                      size="sm"
                      inputMode="decimal"
                      aria-label={`Increment ${index + 1}: step`}
                      value={row.step}
                      onChange={(event) => update(row.key, { step: event.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Remove increment ${index + 1}`}
                      disabled={rows.length === 1}
                      onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
                    >
                      <Trash2 />
                    </IconButton>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </TableScroll>
        <HStack gap="2" wrap="wrap">
          <Button
            size="sm"
            variant="outline"
            disabled={rows.length >= 30}
            onClick={() => onChange([...rows, { key: rowKey(), from: '', step: '' }])}
          >
            <Plus /> Add increment
          </Button>
          <Button size="sm" variant="ghost" onClick={onReset} disabled={!currency}>
            <RotateCcw /> Use the default table
          </Button>
        </HStack>
      </Fieldset.Content>
      <Fieldset.ErrorText>{error}</Fieldset.ErrorText>
    </Fieldset.Root>
  );
}

/** The form inside the open dialog: mounted on opening, so every opening starts from the auction. */
function AuctionForm({
  auction,
  onClose,
  onSaved,
}: {
  auction?: AuctionDetail;
  onClose: () => void;
  onSaved: (detail: AuctionDetail) => void;
}) {
  const user = useCurrentUser();
  const chooseSeller = !(user.data?.isSeller ?? true);
  const settings = useClientSettings().data;
  const save = useSaveAuction(auction?.id);
  const [form, setForm] = useState<Form>(() => initialForm(auction));
  const [productLabel, setProductLabel] = useState<string | null>(auction?.productName ?? null);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const publishing = useRef(false);
  /** What the pending save does: its button spins. */
  const [sending, setSending] = useState<'draft' | 'publish'>('draft');
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));

  const currency = form.currency || settings?.defaultCurrency || '';
  const currencies = settings?.currencies ?? [];
  const currencyOptions = currency && !currencies.includes(currency) ? [...currencies, currency] : currencies;
  const rows = form.increments ?? (currency ? rowsOf(defaultIncrementTable(currency), currency) : []);
  // A scheduled auction stays published when edited; only a draft (or a new one) is kept back.
  const canKeepDraft = (auction?.status ?? 'draft') === 'draft';

  const close = () => {
    if (!save.isPending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const publish = publishing.current || !canKeepDraft;
    publishing.current = false;
    setMessage(null);
    const checked = auctionBodyOf(form, currency, chooseSeller, publish);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSending(publish ? 'publish' : 'draft');
    save.mutate(checked.body, {
      onSuccess: (detail) => {
        notify({
          type: 'success',
          title:
            detail.status === 'draft'
              ? `Auction #${detail.number} saved as a draft.`
              : `Auction #${detail.number} published.`,
        });
        onSaved(detail);
        onClose();
      },
      onError: (error) => {
        const fields =
          error instanceof ApiError
            ? (error.data as { fields?: Record<string, string> } | undefined)?.fields
            : undefined;
        const shown = Object.fromEntries(
          Object.entries(fields ?? {}).filter(
            ([field]) => FIELDS.includes(field as FieldName) && (field !== 'sellerId' || chooseSeller),
          ),
        ) as Errors;
        setErrors(shown);
        setMessage(Object.keys(shown).length ? null : getErrorMessage(error));
      },
    });
  };

  const field = (name: FieldName) => ({ invalid: Boolean(errors[name]) });
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const endInstant = instantOf(form.endsAt);
  const defaultHardEnd = endInstant ? formatDateTime(new Date(Date.parse(endInstant) + HOUR_MS)) : null;

  return (
    <Dialog.Content asChild>
      <form
        onSubmit={submit}
        noValidate
        aria-label={auction ? `Edit auction #${auction.number}` : 'New auction'}
      >
        <Dialog.Header>
          <Dialog.Title>{auction ? `Edit auction #${auction.number}` : 'New auction'}</Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>
          <Stack gap="5">
            <FormMessage status="error">{message}</FormMessage>
            <Fieldset.Root>
              <Fieldset.Legend>What is sold</Fieldset.Legend>
              <Fieldset.Content>
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                  {chooseSeller ? (
                    <Field.Root {...field('sellerId')} required>
                      <Field.Label htmlFor="auction-form-seller">
                        Seller <Field.RequiredIndicator />
                      </Field.Label>
                      <SellerChooser
                        id="auction-form-seller"
                        label="Seller"
                        blank="Choose a seller"
                        value={form.sellerId}
                        valueLabel={auction?.sellerName}
                        onChange={(sellerId) => {
                          set({ sellerId, productId: '' });
                          setProductLabel(null);
                        }}
                      />
                      <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
                    </Field.Root>
                  ) : null}
                  <Field.Root {...field('productId')} required>
                    <Field.Label htmlFor="auction-form-product">
                      Product <Field.RequiredIndicator />
                    </Field.Label>
                    {chooseSeller && !form.sellerId ? (
                      <Text fontSize="sm" color="fg.muted">
                        Choose the seller first: an auction sells one of their products.
                      </Text>
                    ) : (
                      <ProductChoice
                        id="auction-form-product"
                        key={form.sellerId}
                        sellerId={chooseSeller ? form.sellerId : null}
                        value={form.productId}
                        valueLabel={productLabel}
                        onChange={(productId, label) => {
                          set({ productId });
                          setProductLabel(label || null);
                        }}
                      />
                    )}
                    <Field.ErrorText>{errors.productId}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...field('quantity')} required>
                    <Field.Label>
                      Quantity <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      inputMode="numeric"
                      value={form.quantity}
                      onChange={(event) => set({ quantity: event.target.value })}
                    />
                    <Field.HelperText>How many of the product the winner gets, as one lot.</Field.HelperText>
                    <Field.ErrorText>{errors.quantity}</Field.ErrorText>
                  </Field.Root>
                </SimpleGrid>
                <Field.Root {...field('title')} required>
                  <Field.Label>
                    Title <Field.RequiredIndicator />
                  </Field.Label>
                  <Input
                    maxLength={200}
                    value={form.title}
                    onChange={(event) => set({ title: event.target.value })}
                  />
                  <Field.ErrorText>{errors.title}</Field.ErrorText>
                </Field.Root>
                <Field.Root {...field('description')}>
                  <Field.Label>Description</Field.Label>
                  <Textarea
                    rows={4}
                    maxLength={5000}
                    value={form.description}
                    onChange={(event) => set({ description: event.target.value })}
                  />
                  <Field.HelperText>Bidders read it on the auction's public page.</Field.HelperText>
                  <Field.ErrorText>{errors.description}</Field.ErrorText>
                </Field.Root>
              </Fieldset.Content>
            </Fieldset.Root>

            <Fieldset.Root>
              <Fieldset.Legend>Prices</Fieldset.Legend>
              <Fieldset.Content>
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                  <Field.Root {...field('currency')} required>
                    <Field.Label htmlFor="auction-form-currency">
                      Currency <Field.RequiredIndicator />
                    </Field.Label>
                    <OptionSelect
                      id="auction-form-currency"
                      blank={currency ? undefined : 'Choose a currency'}
                      value={currency}
                      options={currencyOptions.map((code) => ({ value: code, label: code }))}
                      onChange={(code) => set({ currency: code })}
                    />
                    <Field.HelperText>Bids are taken in it; every amount below is in it.</Field.HelperText>
                    <Field.ErrorText>{errors.currency}</Field.ErrorText>
                  </Field.Root>
                  <AmountField
                    label="Starting price"
                    required
                    currency={currency}
                    value={form.startingPrice}
                    error={errors.startingPriceMinor}
                    onChange={(startingPrice) => set({ startingPrice })}
                  />
                  <AmountField
                    label="Reserve (optional)"
                    helper="Hidden from bidders: they only see whether it is met. Below it, nothing is sold."
                    currency={currency}
                    value={form.reserve}
                    error={errors.reserveMinor}
                    onChange={(reserve) => set({ reserve })}
                  />
                  <AmountField
                    label="Buy Now (optional)"
                    helper="Offered until the first bid; above the starting price and the reserve."
                    currency={currency}
                    value={form.buyNow}
                    error={errors.buyNowMinor}
                    onChange={(buyNow) => set({ buyNow })}
                  />
                </SimpleGrid>
              </Fieldset.Content>
            </Fieldset.Root>

            <IncrementsEditor
              rows={rows}
              currency={currency}
              error={errors.increments}
              onChange={(increments) => set({ increments })}
              onReset={() => set({ increments: null })}
            />

            <Fieldset.Root>
              <Fieldset.Legend>Times</Fieldset.Legend>
              <Fieldset.HelperText>In your time zone ({timeZone}).</Fieldset.HelperText>
              <Fieldset.Content>
                <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                  <Field.Root {...field('startsAt')} required>
                    <Field.Label>
                      Starts <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      type="datetime-local"
                      value={form.startsAt}
                      onChange={(event) => set({ startsAt: event.target.value })}
                    />
                    <Field.HelperText>A published auction starts in the future.</Field.HelperText>
                    <Field.ErrorText>{errors.startsAt}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...field('endsAt')} required>
                    <Field.Label>
                      Scheduled end <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      type="datetime-local"
                      value={form.endsAt}
                      onChange={(event) => set({ endsAt: event.target.value })}
                    />
                    <Field.HelperText>A late bid may extend it (soft close).</Field.HelperText>
                    <Field.ErrorText>{errors.endsAt}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...field('hardEndAt')}>
                    <Field.Label>Hard end (optional)</Field.Label>
                    <Input
                      type="datetime-local"
                      value={form.hardEndAt}
                      onChange={(event) => set({ hardEndAt: event.target.value })}
                    />
                    <Field.HelperText>
                      No extension passes it. Empty: the scheduled end plus one hour
                      {defaultHardEnd ? ` (${defaultHardEnd})` : ''}.
                    </Field.HelperText>
                    <Field.ErrorText>{errors.hardEndAt}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...field('softCloseSeconds')} required>
                    <Field.Label>
                      Soft-close window (minutes) <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      inputMode="decimal"
                      value={form.softCloseMinutes}
                      onChange={(event) => set({ softCloseMinutes: event.target.value })}
                    />
                    <Field.HelperText>
                      A bid this close to the end extends it. 0: no soft close.
                    </Field.HelperText>
                    <Field.ErrorText>{errors.softCloseSeconds}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...field('extensionSeconds')} required>
                    <Field.Label>
                      Extension (minutes) <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      inputMode="decimal"
                      value={form.extensionMinutes}
                      onChange={(event) => set({ extensionMinutes: event.target.value })}
                    />
                    <Field.HelperText>The end moves to that late bid's time plus this.</Field.HelperText>
                    <Field.ErrorText>{errors.extensionSeconds}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...field('paymentHours')} required>
                    <Field.Label>
                      Winner's payment time (hours) <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      inputMode="numeric"
                      value={form.paymentHours}
                      onChange={(event) => set({ paymentHours: event.target.value })}
                    />
                    <Field.HelperText>How long the winner has to give a shipping address.</Field.HelperText>
                    <Field.ErrorText>{errors.paymentHours}</Field.ErrorText>
                  </Field.Root>
                </SimpleGrid>
              </Fieldset.Content>
            </Fieldset.Root>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button variant="outline" onClick={close} disabled={save.isPending}>
            Cancel
          </Button>
          {canKeepDraft ? (
            <>
              <Button
                type="submit"
                variant="outline"
                colorPalette="brand"
                loading={save.isPending && sending === 'draft'}
                disabled={save.isPending}
                onClick={() => {
                  publishing.current = false;
                }}
              >
                Save draft
              </Button>
              <Button
                type="submit"
                colorPalette="brand"
                loading={save.isPending && sending === 'publish'}
                disabled={save.isPending}
                onClick={() => {
                  publishing.current = true;
                }}
              >
                Publish
              </Button>
            </>
          ) : (
            <Button type="submit" colorPalette="brand" loading={save.isPending}>
              Save changes
            </Button>
          )}
        </Dialog.Footer>
      </form>
    </Dialog.Content>
  );
}

/**
 * New auction, or the terms of `auction` (a draft or a scheduled one). Saved, `onSaved` gets the auction
 * as the server answered it and the dialog closes (`onClose`).
 */
export function AuctionFormDialog({
  open,
  onClose,
  auction,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  auction?: AuctionDetail;
  onSaved: (detail: AuctionDetail) => void;
}) {
  return (
    <WideFormDialog open={open} onClose={onClose}>
      <AuctionForm auction={auction} onClose={onClose} onSaved={onSaved} />
    </WideFormDialog>
  );
}
