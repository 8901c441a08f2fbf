// Fields the auction's form and the event's form share: the seller's product found on the server, an
// amount in the auction's currency, a datetime-local text read as an instant, and the wide dialog both
// forms open in.
import { Dialog, Field, Input, Portal, Stack } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { moneyDigits } from '../../../contracts/domain/currency';
import { type Choice, useProductChoices } from '../../services/choices';
import { OptionSelect } from '../../ui/option-select';
import { useDebouncedValue } from '../../ui/use-debounced-value';

/** The datetime-local text as an instant (ISO, UTC), or null when empty or unreadable. */
export function instantOf(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The seller's product: type part of a title or SKU (searched on the server), then choose. */
export function ProductChoice({
  id,
  searchLabel = 'Product: find by title or SKU',
  sellerId,
  value,
  valueLabel,
  onChange,
}: {
  /** The select's id, for its label. */
  id: string;
  /** The search box's name ("Product: find by title or SKU" by default). */
  searchLabel?: string;
  /** null: the user's own (a seller). */
  sellerId: string | null;
  value: string;
  valueLabel: string | null;
  onChange: (productId: string, label: string) => void;
}) {
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const found = useProductChoices(sellerId, searched, true).data ?? [];
  const current: Choice | null =
    value && !found.some((option) => option.value === value)
      ? { value, label: valueLabel ?? 'The chosen product' }
      : null;
  const options = current ? [current, ...found] : found;
  return (
    <Stack gap="1" w="full">
      <Input
        size="sm"
        aria-label={searchLabel}
        placeholder="Find a product by title or SKU"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <OptionSelect
        size="sm"
        id={id}
        blank="Choose a product"
        value={value}
        options={options}
        onChange={(productId) =>
          onChange(productId, options.find((option) => option.value === productId)?.label ?? '')
        }
      />
    </Stack>
  );
}

/** An amount in the currency: the currency's decimals (none for JPY), checked when sent. */
export function AmountField({
  label,
  helper,
  required,
  currency,
  value,
  error,
  onChange,
}: {
  label: string;
  helper?: string;
  required?: boolean;
  currency: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const digits = currency ? moneyDigits(currency) : 2;
  const decimals =
    digits === 0 ? `Whole amounts: ${currency} has no minor unit.` : `Up to ${digits} decimals.`;
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label>
        {label}
        {currency ? ` (${currency})` : ''} {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input
        inputMode={digits === 0 ? 'numeric' : 'decimal'}
        autoComplete="off"
        placeholder={digits === 0 ? '1000' : `10.${'0'.repeat(digits)}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <Field.HelperText>{helper ? `${helper} ${decimals}` : decimals}</Field.HelperText>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** A wide dialog whose body scrolls (a long form), drawn only while open. */
export function WideFormDialog({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => !event.open && onClose()}
      size="xl"
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>{children}</Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
