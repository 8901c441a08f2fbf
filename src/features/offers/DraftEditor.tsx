import {
  Box,
  Button,
  Field,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Plus, Save, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { taxRatesFor } from '../../../contracts/domain/offer-pricing';
import type { OfferDetail } from '../../../contracts/offers';
import { ApiError, getErrorMessage } from '../../services/http';
import { FormMessage } from '../../ui/form-parts';
import { useSaveDraft } from './api';
import {
  type DiscountKind,
  type DraftForm,
  draftBodyOf,
  emptyLine,
  type FormErrors,
  initialForm,
  type LineForm,
  nextLineKey,
} from './draft-form';

function Select({
  label,
  value,
  options,
  onChange,
  id,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  id?: string;
}) {
  return (
    <NativeSelect.Root size="sm">
      <NativeSelect.Field
        id={id}
        aria-label={id ? undefined : label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

function Cell({
  label,
  error,
  children,
  width,
}: {
  label: string;
  error?: string;
  children: React.ReactNode;
  width?: string;
}) {
  return (
    <Field.Root invalid={Boolean(error)} width={width}>
      <Field.Label fontSize="xs">{label}</Field.Label>
      {children}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

const discountKinds: { value: DiscountKind; label: string }[] = [
  { value: 'none', label: 'No discount' },
  { value: 'percent', label: 'Percent off' },
  { value: 'amount', label: 'Amount off' },
];

function LineEditor({
  line,
  index,
  currency,
  taxChoices,
  errors,
  onChange,
  onRemove,
}: {
  line: LineForm;
  index: number;
  currency: string;
  taxChoices: { value: string; label: string }[];
  errors: FormErrors;
  onChange: (patch: Partial<LineForm>) => void;
  onRemove: (() => void) | null;
}) {
  const n = index + 1;
  const at = `lines.${index}`;
  return (
    <Box as="fieldset" borderWidth="1px" borderRadius="md" p="3" data-testid="draft-line">
      <Text as="legend" fontSize="sm" fontWeight="medium" px="1">
        Line {n}
      </Text>
      <SimpleGrid columns={{ base: 1, md: 6 }} gap="2" alignItems="start">
        <Box gridColumn={{ md: 'span 2' }}>
          <Cell label={`Line ${n} name`} error={errors[`${at}.name`]}>
            <Input size="sm" value={line.name} onChange={(e) => onChange({ name: e.target.value })} />
          </Cell>
        </Box>
        <Cell label={`Line ${n} quantity`} error={errors[`${at}.quantity`]}>
          <Input
            size="sm"
            inputMode="numeric"
            value={line.quantity}
            onChange={(e) => onChange({ quantity: e.target.value })}
          />
        </Cell>
        <Cell label={`Line ${n} unit price (${currency})`} error={errors[`${at}.price`]}>
          <Input
            size="sm"
            inputMode="decimal"
            value={line.price}
            onChange={(e) => onChange({ price: e.target.value })}
          />
        </Cell>
        <Cell label={`Line ${n} tax`}>
          <Select
            label={`Line ${n} tax`}
            value={line.taxOptionId}
            options={[{ value: '', label: 'No tax' }, ...taxChoices]}
            onChange={(taxOptionId) => onChange({ taxOptionId })}
          />
        </Cell>
        <HStack align="flex-end" gap="2">
          <Cell label={`Line ${n} discount`} error={errors[`${at}.discount`]}>
            <Select
              label={`Line ${n} discount`}
              value={line.discountKind}
              options={discountKinds}
              onChange={(kind) => onChange({ discountKind: kind as DiscountKind, discount: '' })}
            />
            {line.discountKind !== 'none' ? (
              <Input
                size="sm"
                mt="1"
                inputMode="decimal"
                aria-label={
                  line.discountKind === 'percent'
                    ? `Line ${n} percent off`
                    : `Line ${n} amount off (${currency})`
                }
                value={line.discount}
                onChange={(e) => onChange({ discount: e.target.value })}
              />
            ) : null}
          </Cell>
        </HStack>
      </SimpleGrid>
      <Stack gap="1" mt="2">
        {line.breaks.map((b, k) => (
          <HStack key={b.key} gap="2" align="flex-start" wrap="wrap">
            <Cell
              label={`Line ${n} break ${k + 1}: from quantity`}
              error={errors[`${at}.breaks.${k}.minQuantity`]}
              width="48"
            >
              <Input
                size="sm"
                inputMode="numeric"
                value={b.minQuantity}
                onChange={(e) =>
                  onChange({
                    breaks: line.breaks.map((other, j) =>
                      j === k ? { ...other, minQuantity: e.target.value } : other,
                    ),
                  })
                }
              />
            </Cell>
            <Cell
              label={`Line ${n} break ${k + 1}: unit price (${currency})`}
              error={errors[`${at}.breaks.${k}.price`]}
              width="56"
            >
              <Input
                size="sm"
                inputMode="decimal"
                value={b.price}
                onChange={(e) =>
                  onChange({
                    breaks: line.breaks.map((other, j) =>
                      j === k ? { ...other, price: e.target.value } : other,
                    ),
                  })
                }
              />
            </Cell>
            <IconButton
              size="xs"
              variant="ghost"
              mt="6"
              aria-label={`Remove break ${k + 1} of line ${n}`}
              onClick={() => onChange({ breaks: line.breaks.filter((_, j) => j !== k) })}
            >
              <Trash2 />
            </IconButton>
          </HStack>
        ))}
        <HStack gap="2">
          <Button
            size="xs"
            variant="ghost"
            onClick={() =>
              onChange({ breaks: [...line.breaks, { key: nextLineKey(), minQuantity: '', price: '' }] })
            }
          >
            <Plus /> Quantity break
          </Button>
          {onRemove ? (
            <Button size="xs" variant="ghost" colorPalette="red" onClick={onRemove}>
              <Trash2 /> Remove line {n}
            </Button>
          ) : null}
        </HStack>
      </Stack>
    </Box>
  );
}

/**
 * The next version's draft: lines with list prices (decimals), quantity breaks, a discount and a tax
 * each; the currency (one the settings offer), the shipping country, the validity day and the notes.
 * Saving sends it to the server, which prices it (taxes, shipping, totals); the page shows that.
 */
export function DraftEditor({
  offer,
  canEdit,
  onDirty,
}: {
  offer: OfferDetail;
  canEdit: boolean;
  /** Told whether the form holds changes the server has not priced (sending would ignore them). */
  onDirty: (dirty: boolean) => void;
}) {
  const [form, setFormState] = useState<DraftForm>(() => initialForm(offer));
  const [errors, setErrors] = useState<FormErrors>({});
  const save = useSaveDraft(offer.id);
  const setForm = (update: (current: DraftForm) => DraftForm) => {
    setFormState(update);
    onDirty(true);
  };
  const set = (patch: Partial<DraftForm>) => setForm((current) => ({ ...current, ...patch }));
  const setLine = (key: number, patch: Partial<LineForm>) =>
    setForm((current) => ({
      ...current,
      lines: current.lines.map((line) => (line.key === key ? { ...line, ...patch } : line)),
    }));
  const { choices } = offer;
  const country = form.shippingCountry.trim().toUpperCase();
  const taxChoices = taxRatesFor(country || null, choices.taxOptions).map((o) => ({
    value: o.id,
    label: o.label,
  }));
  const currencies = choices.currencies.includes(form.currency)
    ? choices.currencies
    : [...choices.currencies, form.currency];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = draftBodyOf(form);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    save.mutate(result.body, {
      onSuccess: () => onDirty(false),
      onError: (error) => {
        const fields = error instanceof ApiError ? (error.data as { fields?: FormErrors })?.fields : null;
        if (fields) setErrors(fields);
      },
    });
  };

  return (
    <Stack as="form" gap="3" onSubmit={submit} aria-label="Offer draft" data-tour="offer-draft">
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
        <Cell label="Currency">
          <Select
            label="Currency"
            value={form.currency}
            options={currencies.map((code) => ({ value: code, label: code }))}
            onChange={(currency) => set({ currency })}
          />
        </Cell>
        <Cell label="Shipping country" error={errors.shippingCountry}>
          <Input
            size="sm"
            maxLength={2}
            placeholder="DE"
            value={form.shippingCountry}
            onChange={(e) => set({ shippingCountry: e.target.value.toUpperCase() })}
          />
        </Cell>
        <Cell label={`Valid until (end of the day, ${choices.timeZone})`} error={errors.validUntil}>
          <Input
            size="sm"
            type="date"
            value={form.validUntil}
            onChange={(e) => set({ validUntil: e.target.value })}
          />
        </Cell>
      </SimpleGrid>
      {!country && choices.taxOptions.length ? (
        <Text fontSize="sm" color="fg.muted">
          Enter the shipping country to choose its taxes and quote shipping.
        </Text>
      ) : null}
      {form.lines.map((line, index) => (
        <LineEditor
          key={line.key}
          line={line}
          index={index}
          currency={form.currency}
          taxChoices={taxChoices}
          errors={errors}
          onChange={(patch) => setLine(line.key, patch)}
          onRemove={
            form.lines.length > 1
              ? () => set({ lines: form.lines.filter((other) => other.key !== line.key) })
              : null
          }
        />
      ))}
      <Box>
        <Button size="sm" variant="outline" onClick={() => set({ lines: [...form.lines, emptyLine()] })}>
          <Plus /> Add line
        </Button>
      </Box>
      <Field.Root>
        <Field.Label>Notes for the customer</Field.Label>
        <Textarea
          rows={3}
          maxLength={5000}
          value={form.notes}
          onChange={(e) => set({ notes: e.target.value })}
        />
      </Field.Root>
      {Object.keys(errors).length ? (
        <FormMessage status="error">Correct the marked fields, then save again.</FormMessage>
      ) : null}
      <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
      {canEdit ? (
        <HStack>
          <Button type="submit" colorPalette="brand" loading={save.isPending} data-tour="offer-save">
            <Save /> Save draft
          </Button>
          {save.isSuccess ? (
            <Text fontSize="sm" color="fg.muted" role="status">
              Saved and priced by the server.
            </Text>
          ) : null}
        </HStack>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          Changing the draft needs the Edit permission on Offer requests.
        </Text>
      )}
    </Stack>
  );
}
