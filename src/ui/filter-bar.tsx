import { Button, Field, Flex } from '@chakra-ui/react';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useClientSettings } from '../services/client-settings';
import { SellerChooser } from './choosers';
import { OptionSelect } from './option-select';

/**
 * A list's filters in one row, a search landmark named for the list; "Clear filters" shows while any is
 * set. Each change goes to the URL and back to page 1 (the caller's part).
 */
export function FilterBar({
  label,
  tour,
  active,
  onClear,
  children,
}: {
  /** e.g. "Filter queries". */
  label: string;
  tour?: string;
  active: boolean;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <Flex
      as="form"
      role="search"
      aria-label={label}
      data-tour={tour}
      gap="3"
      mb="4"
      wrap="wrap"
      align="flex-end"
      onSubmit={(event) => event.preventDefault()}
    >
      {children}
      {active ? (
        <Button variant="ghost" onClick={onClear}>
          <X /> Clear filters
        </Button>
      ) : null}
    </Flex>
  );
}

/** The seller filter admins and staff get: searched by name or code, "All sellers" when none. */
export function SellerFilter({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string | null;
  onChange: (sellerId: string | null) => void;
}) {
  return (
    <Field.Root width={{ base: 'full', md: '56' }}>
      <Field.Label htmlFor={id}>Seller</Field.Label>
      <SellerChooser
        id={id}
        label="Seller"
        blank="All sellers"
        value={value ?? ''}
        onChange={(sellerId) => onChange(sellerId || null)}
      />
    </Field.Root>
  );
}

/** The currency filter: one the settings offer (or the one in the URL), "All currencies" when none. */
export function CurrencyFilter({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string | null;
  onChange: (currency: string | null) => void;
}) {
  const currencies = useClientSettings().data?.currencies ?? [];
  const options = value && !currencies.includes(value) ? [...currencies, value] : currencies;
  return (
    <Field.Root width={{ base: 'full', md: '40' }}>
      <Field.Label htmlFor={id}>Currency</Field.Label>
      <OptionSelect
        id={id}
        blank="All currencies"
        value={value ?? ''}
        options={options.map((code) => ({ value: code, label: code }))}
        onChange={(code) => onChange(code || null)}
      />
    </Field.Root>
  );
}
