import { Field, Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useSellerChoices } from '../../../services/choices';
import { OptionSelect } from '../../../ui/option-select';
import { useDebouncedValue } from '../../../ui/use-debounced-value';

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
  const options = useSellerChoices(searched, true);
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
        <OptionSelect
          size="sm"
          id={id}
          value={value}
          blank={options.isPending ? 'Loading…' : list.length ? 'Choose a seller' : 'No seller found'}
          options={list}
          onChange={(picked) => {
            setChosen(list.find((option) => option.value === picked) ?? null);
            onChange(picked);
          }}
        />
      </Stack>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
