// "Settings of: Marketplace | a shop": admins and staff open a seller's settings as that seller sees
// them. The shops are searched on the server by name or code (there may be thousands); the choice
// lives in the page's address (`?seller=`), so the view is linkable and survives a reload.
import { Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { OptionSelect } from '../../ui/option-select';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useSellerOption, useSellerSearch } from './seller-scope-api';

const SELECT_ID = 'settings-scope';

export function SettingsScopeSwitch({
  sellerId,
  onChange,
}: {
  sellerId: string | null;
  onChange: (sellerId: string | null) => void;
}) {
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text.trim(), 250);
  const found = useSellerSearch(searched, true);
  const chosen = useSellerOption(sellerId);
  // The chosen shop stays in the list while a search shows other shops.
  const matches = found.data ?? [];
  const options =
    chosen.data && !matches.some((option) => option.value === chosen.data?.value)
      ? [chosen.data, ...matches]
      : matches;
  return (
    <HStack gap="2" align="end" wrap="wrap">
      <Field.Root width={{ base: 'full', sm: '60' }}>
        <Field.Label htmlFor={SELECT_ID}>Settings of</Field.Label>
        <OptionSelect
          size="sm"
          id={SELECT_ID}
          blank="Marketplace"
          options={options}
          value={sellerId ?? ''}
          onChange={(picked) => onChange(picked || null)}
        />
      </Field.Root>
      <Stack gap="1" width={{ base: 'full', sm: '60' }}>
        <Input
          size="sm"
          type="search"
          placeholder="Find a seller by name or code"
          aria-label="Find a seller by name or code"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Text fontSize="xs" color="fg.muted" aria-live="polite">
          {found.isSuccess && searched && matches.length === 0 ? 'No seller matches.' : null}
        </Text>
      </Stack>
    </HStack>
  );
}
