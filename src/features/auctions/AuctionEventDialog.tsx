// A new auction event (issue 32): several lots of one seller that start together and end one after the
// other, `gap` minutes apart, so bidders can follow each close in turn (fishauctions#33). Each lot is an
// auction of its own (its product, title and starting price; the soft close, its hard end an hour after
// its scheduled end and the default increment table of the currency), so one lot's extension never
// delays the next. Reserve and Buy Now, when wanted, are set afterwards on the lot's own page.
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
  Text,
} from '@chakra-ui/react';
import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import {
  type AuctionEvent,
  type AuctionEventBody,
  auctionEventBodySchema,
} from '../../../contracts/auctions';
import { formatDateTime } from '../../../contracts/domain/format';
import { minorOf } from '../../lib/money';
import { useClientSettings } from '../../services/client-settings';
import { ApiError, getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { SellerChooser } from '../../ui/choosers';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { OptionSelect } from '../../ui/option-select';
import { useCreateAuctionEvent } from './api';
import { AmountField, instantOf, ProductChoice, WideFormDialog } from './auction-fields';

interface LotRow {
  key: number;
  productId: string;
  productLabel: string | null;
  title: string;
  startingPrice: string;
}

interface Form {
  sellerId: string;
  title: string;
  currency: string;
  startsAt: string;
  firstEndsAt: string;
  gapMinutes: string;
  lots: LotRow[];
}

let lastKey = 0;
const newLot = (): LotRow => {
  lastKey += 1;
  return { key: lastKey, productId: '', productLabel: null, title: '', startingPrice: '' };
};

/** Errors by the server's field names (`lots.1.productId`) or the form's own. */
type Errors = Record<string, string>;

/** What the form sends, checked: the body, or the messages beside the fields. */
function eventBodyOf(
  form: Form,
  currency: string,
  chooseSeller: boolean,
  publish: boolean,
): { body: AuctionEventBody } | { errors: Errors } {
  const errors: Errors = {};
  if (chooseSeller && !form.sellerId) errors.sellerId = 'Choose a seller from the list.';
  if (!form.title.trim()) errors.title = 'Give the event a title.';
  if (!currency) errors.currency = 'Choose a currency from the list.';
  const startsAt = instantOf(form.startsAt);
  const firstEndsAt = instantOf(form.firstEndsAt);
  if (!startsAt) errors.startsAt = 'Choose when the lots start.';
  if (!firstEndsAt) errors.firstEndsAt = 'Choose when the first lot ends.';
  else if (startsAt && firstEndsAt <= startsAt) errors.firstEndsAt = 'The end comes after the start.';
  const minutes = Number(form.gapMinutes.trim());
  const gapSeconds = Math.round(minutes * 60);
  if (form.gapMinutes.trim() === '' || !Number.isFinite(minutes) || gapSeconds < 10 || gapSeconds > 3600)
    errors.gapSeconds = 'From 0.25 to 60 minutes.';
  const lots = form.lots.map((lot, index) => {
    if (!lot.productId) errors[`lots.${index}.productId`] = 'Choose a product from the list.';
    if (!lot.title.trim()) errors[`lots.${index}.title`] = 'Give the lot a title.';
    const price = currency ? minorOf(lot.startingPrice, currency) : 'Choose the currency first.';
    if (typeof price === 'string') errors[`lots.${index}.startingPriceMinor`] = price;
    return {
      productId: lot.productId,
      quantity: 1,
      title: lot.title,
      startingPriceMinor: typeof price === 'number' ? price : 0,
    };
  });
  if (Object.keys(errors).length > 0) return { errors };
  const checked = auctionEventBodySchema.safeParse({
    sellerId: chooseSeller ? form.sellerId : undefined,
    title: form.title,
    currency,
    startsAt,
    firstEndsAt,
    gapSeconds,
    publish,
    lots,
  });
  if (!checked.success) return { errors: { form: checked.error.issues[0]?.message ?? 'Check the form.' } };
  return { body: checked.data };
}

function EventForm({ onClose, onSaved }: { onClose: () => void; onSaved: (event: AuctionEvent) => void }) {
  const user = useCurrentUser();
  const chooseSeller = !(user.data?.isSeller ?? true);
  const settings = useClientSettings().data;
  const create = useCreateAuctionEvent();
  const [form, setForm] = useState<Form>(() => ({
    sellerId: '',
    title: '',
    currency: '',
    startsAt: '',
    firstEndsAt: '',
    gapMinutes: '1',
    lots: [newLot(), newLot()],
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const publishing = useRef(false);
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));
  const setLot = (key: number, patch: Partial<LotRow>) =>
    setForm((current) => ({
      ...current,
      lots: current.lots.map((lot) => (lot.key === key ? { ...lot, ...patch } : lot)),
    }));
  const currency = form.currency || settings?.defaultCurrency || '';
  const currencies = settings?.currencies ?? [];

  // "Lot 3 ends 14 Dec, 18:02": the staggered ends as they will be.
  const firstEnd = instantOf(form.firstEndsAt);
  const gapMs = Number(form.gapMinutes) * 60_000;
  const endOf = (index: number) =>
    firstEnd && Number.isFinite(gapMs) ? formatDateTime(Date.parse(firstEnd) + index * gapMs) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const publish = publishing.current;
    publishing.current = false;
    setMessage(null);
    const checked = eventBodyOf(form, currency, chooseSeller, publish);
    if ('errors' in checked) {
      const { form: formError, ...fields } = checked.errors;
      setErrors(fields);
      setMessage(formError ?? null);
      return;
    }
    setErrors({});
    create.mutate(checked.body, {
      onSuccess: (made) => {
        notify({
          type: 'success',
          title: `Event “${made.title}” ${publish ? 'published' : 'saved as drafts'}: ${made.lots.length} lots.`,
        });
        onSaved(made);
        onClose();
      },
      onError: (error) => {
        const fields =
          error instanceof ApiError
            ? (error.data as { fields?: Record<string, string> } | undefined)?.fields
            : undefined;
        setErrors(fields ?? {});
        setMessage(getErrorMessage(error));
      },
    });
  };

  const invalid = (name: string) => ({ invalid: Boolean(errors[name]) });
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Dialog.Content asChild>
      <form onSubmit={submit} noValidate>
        <Dialog.Header>
          <Dialog.Title>New auction event</Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>
          <Stack gap="5">
            <Text fontSize="sm" color="fg.muted">
              The lots start together and end one after the other, so bidders can follow each close. A late
              bid extends its own lot only.
            </Text>
            <FormMessage status="error">{message}</FormMessage>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {chooseSeller ? (
                <Field.Root {...invalid('sellerId')} required>
                  <Field.Label htmlFor="auction-event-seller">
                    Seller <Field.RequiredIndicator />
                  </Field.Label>
                  <SellerChooser
                    id="auction-event-seller"
                    label="Seller"
                    blank="Choose a seller"
                    value={form.sellerId}
                    onChange={(sellerId) =>
                      set({
                        sellerId,
                        lots: form.lots.map((lot) => ({ ...lot, productId: '', productLabel: null })),
                      })
                    }
                  />
                  <Field.ErrorText>{errors.sellerId}</Field.ErrorText>
                </Field.Root>
              ) : null}
              <Field.Root {...invalid('title')} required>
                <Field.Label>
                  Event title <Field.RequiredIndicator />
                </Field.Label>
                <Input maxLength={200} value={form.title} onChange={(e) => set({ title: e.target.value })} />
                <Field.ErrorText>{errors.title}</Field.ErrorText>
              </Field.Root>
              <Field.Root {...invalid('currency')} required>
                <Field.Label htmlFor="auction-event-currency">
                  Currency <Field.RequiredIndicator />
                </Field.Label>
                <OptionSelect
                  id="auction-event-currency"
                  blank={currency ? undefined : 'Choose a currency'}
                  value={currency}
                  options={currencies.map((code) => ({ value: code, label: code }))}
                  onChange={(code) => set({ currency: code })}
                />
                <Field.ErrorText>{errors.currency}</Field.ErrorText>
              </Field.Root>
            </SimpleGrid>
            <Fieldset.Root>
              <Fieldset.Legend>Times</Fieldset.Legend>
              <Fieldset.HelperText>In your time zone ({timeZone}).</Fieldset.HelperText>
              <Fieldset.Content>
                <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                  <Field.Root {...invalid('startsAt')} required>
                    <Field.Label>
                      Lots start <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      type="datetime-local"
                      value={form.startsAt}
                      onChange={(e) => set({ startsAt: e.target.value })}
                    />
                    <Field.ErrorText>{errors.startsAt}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...invalid('firstEndsAt')} required>
                    <Field.Label>
                      First lot ends <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      type="datetime-local"
                      value={form.firstEndsAt}
                      onChange={(e) => set({ firstEndsAt: e.target.value })}
                    />
                    <Field.ErrorText>{errors.firstEndsAt}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root {...invalid('gapSeconds')} required>
                    <Field.Label>
                      Minutes between lots' ends <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      inputMode="decimal"
                      value={form.gapMinutes}
                      onChange={(e) => set({ gapMinutes: e.target.value })}
                    />
                    <Field.ErrorText>{errors.gapSeconds}</Field.ErrorText>
                  </Field.Root>
                </SimpleGrid>
              </Fieldset.Content>
            </Fieldset.Root>
            <Fieldset.Root>
              <Fieldset.Legend>Lots, in the order they end</Fieldset.Legend>
              <Fieldset.Content>
                <Stack gap="4" as="ol" listStyleType="none">
                  {form.lots.map((lot, index) => (
                    <Stack as="li" key={lot.key} gap="3" borderWidth="1px" rounded="md" p="3">
                      <HStack justify="space-between">
                        <Text fontWeight="medium">
                          Lot {index + 1}
                          {endOf(index) ? (
                            <Text as="span" color="fg.muted" fontWeight="normal">
                              {` · ends ${endOf(index)}`}
                            </Text>
                          ) : null}
                        </Text>
                        <IconButton
                          size="xs"
                          variant="ghost"
                          aria-label={`Remove lot ${index + 1}`}
                          disabled={form.lots.length === 1}
                          onClick={() => set({ lots: form.lots.filter((other) => other.key !== lot.key) })}
                        >
                          <Trash2 />
                        </IconButton>
                      </HStack>
                      <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
                        <Field.Root {...invalid(`lots.${index}.productId`)} required>
                          <Field.Label htmlFor={`auction-event-lot-${lot.key}`}>
                            Product of lot {index + 1} <Field.RequiredIndicator />
                          </Field.Label>
                          {chooseSeller && !form.sellerId ? (
                            <Text fontSize="sm" color="fg.muted">
                              Choose the seller first.
                            </Text>
                          ) : (
                            <ProductChoice
                              id={`auction-event-lot-${lot.key}`}
                              searchLabel={`Lot ${index + 1}: find a product by title or SKU`}
                              key={form.sellerId}
                              sellerId={chooseSeller ? form.sellerId : null}
                              value={lot.productId}
                              valueLabel={lot.productLabel}
                              onChange={(productId, label) =>
                                setLot(lot.key, {
                                  productId,
                                  productLabel: label || null,
                                  title: lot.title || label.replace(/\s*\([^)]*\)$/, ''),
                                })
                              }
                            />
                          )}
                          <Field.ErrorText>{errors[`lots.${index}.productId`]}</Field.ErrorText>
                        </Field.Root>
                        <Field.Root {...invalid(`lots.${index}.title`)} required>
                          <Field.Label>
                            Title of lot {index + 1} <Field.RequiredIndicator />
                          </Field.Label>
                          <Input
                            maxLength={200}
                            value={lot.title}
                            onChange={(e) => setLot(lot.key, { title: e.target.value })}
                          />
                          <Field.ErrorText>{errors[`lots.${index}.title`]}</Field.ErrorText>
                        </Field.Root>
                        <AmountField
                          label={`Starting price of lot ${index + 1}`}
                          required
                          currency={currency}
                          value={lot.startingPrice}
                          error={errors[`lots.${index}.startingPriceMinor`]}
                          onChange={(startingPrice) => setLot(lot.key, { startingPrice })}
                        />
                      </SimpleGrid>
                    </Stack>
                  ))}
                </Stack>
                <Button
                  alignSelf="start"
                  size="sm"
                  variant="outline"
                  disabled={form.lots.length >= 100}
                  onClick={() => set({ lots: [...form.lots, newLot()] })}
                >
                  <Plus /> Add lot
                </Button>
              </Fieldset.Content>
            </Fieldset.Root>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button
            variant="outline"
            onClick={() => !create.isPending && onClose()}
            disabled={create.isPending}
          >
            Cancel
          </Button>
          <Button
            type="submit"
            variant="outline"
            colorPalette="brand"
            disabled={create.isPending}
            onClick={() => {
              publishing.current = false;
            }}
          >
            Save drafts
          </Button>
          <Button
            type="submit"
            colorPalette="brand"
            loading={create.isPending}
            onClick={() => {
              publishing.current = true;
            }}
          >
            Publish
          </Button>
        </Dialog.Footer>
      </form>
    </Dialog.Content>
  );
}

/** New auction event; created, `onSaved` gets it as the server answered and the dialog closes. */
export function AuctionEventDialog({
  open,
  onClose,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: (event: AuctionEvent) => void;
}) {
  return (
    <WideFormDialog open={open} onClose={onClose}>
      <EventForm onClose={onClose} onSaved={onSaved} />
    </WideFormDialog>
  );
}
