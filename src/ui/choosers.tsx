// Searched choosers of a seller or a person: type part of a name, then choose. The options are searched
// on the server (there may be thousands); the chosen one stays choosable while another search shows
// other names. `fixed` options (Anyone, Me, Unassigned) come first.
import { Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { type Choice as Option, usePeopleChoices, useSellerChoices } from '../services/choices';
import { OptionSelect } from './option-select';
import { useDebouncedValue } from './use-debounced-value';

function SearchedSelect({
  label,
  searchLabel,
  placeholder,
  value,
  valueLabel,
  fixed,
  blank,
  useOptions,
  onChange,
  id,
}: {
  label: string;
  searchLabel: string;
  placeholder: string;
  value: string;
  /** The current value's name when the page knows it (a loaded query's assignee). */
  valueLabel?: string | null;
  fixed: readonly Option[];
  blank?: string;
  useOptions: (text: string, enabled: boolean) => { data?: Option[]; isPending: boolean };
  onChange: (value: string) => void;
  id?: string;
}) {
  const [text, setText] = useState('');
  const [searching, setSearching] = useState(false);
  const searched = useDebouncedValue(text.trim(), 250);
  const options = useOptions(searched, searching);
  const [chosen, setChosen] = useState<Option | null>(null);
  const found = options.data ?? [];
  const known = [...fixed, ...found];
  const current =
    value && !known.some((option) => option.value === value)
      ? chosen?.value === value
        ? chosen
        : { value, label: valueLabel ?? 'The chosen one' }
      : null;
  const list = [...fixed, ...(current ? [current] : []), ...found];
  return (
    <Stack gap="1" w="full">
      <Input
        size="sm"
        placeholder={placeholder}
        aria-label={searchLabel}
        value={text}
        onFocus={() => setSearching(true)}
        onChange={(event) => {
          setSearching(true);
          setText(event.target.value);
        }}
      />
      <OptionSelect
        size="sm"
        id={id}
        ariaLabel={id ? undefined : label}
        value={value}
        blank={blank}
        options={list}
        onChange={(picked) => {
          setChosen(list.find((option) => option.value === picked) ?? null);
          onChange(picked);
        }}
      />
    </Stack>
  );
}

export function SellerChooser(props: {
  label: string;
  value: string;
  valueLabel?: string | null;
  blank: string;
  onChange: (sellerId: string) => void;
  id?: string;
}) {
  return (
    <SearchedSelect
      {...props}
      searchLabel={`${props.label}: find by name or code`}
      placeholder="Find a seller by name or code"
      fixed={[]}
      useOptions={useSellerChoices}
    />
  );
}

export function PersonChooser(props: {
  label: string;
  value: string;
  valueLabel?: string | null;
  fixed: readonly Option[];
  blank?: string;
  onChange: (personId: string) => void;
  id?: string;
}) {
  return (
    <SearchedSelect
      {...props}
      searchLabel={`${props.label}: find by name or e-mail`}
      placeholder="Find a person by name or e-mail"
      useOptions={usePeopleChoices}
    />
  );
}
