import { Field, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useDebouncedValue } from '../../../ui/use-debounced-value';
import { useSellerOptions } from './api';

/**
 * Admins and staff act for a seller: type part of the name or code, then choose. The options are
 * searched on the server (there may be thousands of sellers), as the staging pages pick a seller.
 */
export function SellerPicker({
  value,
  onChange,
  error,
  id = 'import-seller',
}: {
  value: string;
  onChange: (sellerId: string) => void;
  error?: string;
  id?: string;
}) {
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const options = useSellerOptions(searched, true);
  // The chosen seller stays choosable while another search shows other sellers.
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const found = options.data ?? [];
  const list =
    chosen && chosen.value === value && !found.some((option) => option.value === value)
      ? [chosen, ...found]
      : found;
  return (
    <Field.Root required invalid={Boolean(error)}>
      <Field.Label htmlFor={id}>
        Seller <Field.RequiredIndicator />
      </Field.Label>
      <Stack gap="2" w="full">
        <Input
          size="sm"
          placeholder="Find a seller by name or code"
          aria-label="Find a seller"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            id={id}
            value={value}
            onChange={(event) => {
              const picked = list.find((option) => option.value === event.target.value) ?? null;
              setChosen(picked);
              onChange(event.target.value);
            }}
          >
            <option value="">
              {options.isPending ? 'Loading…' : list.length ? 'Choose a seller' : 'No seller found'}
            </option>
            {list.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
