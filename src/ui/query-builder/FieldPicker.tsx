import { Combobox, createListCollection, Portal } from '@chakra-ui/react';
import { memo, type RefObject, useMemo, useState } from 'react';
import { normalizeText, type QueryField } from '../../../contracts/query-tree';

/** Heading of fields that name no group of their own. */
const UNGROUPED = 'Fields';

interface FieldItem {
  value: string;
  label: string;
  group: string;
  /** What the search matches: the label and the group heading, accents and case aside. */
  searchText: string;
}

const itemsOf = (fields: readonly QueryField[]): FieldItem[] =>
  fields.map((field) => ({
    value: field.key,
    label: field.label,
    group: field.group ?? UNGROUPED,
    searchText: normalizeText(`${field.label} ${field.group ?? ''}`),
  }));

/**
 * Picks the field of a condition: a combobox grouped under the fields' headings, filtered as the user
 * types (a product catalogue easily has forty attributes). The list mounts only while open, so fifty
 * rows do not carry fifty lists.
 */
export const FieldPicker = memo(function FieldPicker({
  fields,
  value,
  onChange,
  disabled,
  invalid,
  inputRef,
}: {
  fields: readonly QueryField[];
  /** The chosen field key; one the catalogue does not know shows as no choice. */
  value: string;
  onChange: (key: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const allItems = useMemo(() => itemsOf(fields), [fields]);
  const [search, setSearch] = useState('');
  // The list (and its portal) exists only while open: fifty rows would otherwise carry fifty of them.
  const [open, setOpen] = useState(false);
  const collection = useMemo(() => {
    const wanted = normalizeText(search);
    return createListCollection({
      items: wanted ? allItems.filter((item) => item.searchText.includes(wanted)) : allItems,
      groupBy: (item) => item.group,
    });
  }, [allItems, search]);

  return (
    <Combobox.Root
      collection={collection}
      value={value ? [value] : []}
      onValueChange={(details) => {
        const [key] = details.value;
        if (key) onChange(key);
      }}
      onInputValueChange={(details) => {
        // Only typing filters; the label written back after a choice must not.
        if (details.reason === 'input-change') setSearch(details.inputValue);
      }}
      // Every opening starts from the whole list, unless typing is what opened it.
      onOpenChange={(details) => {
        setOpen(details.open);
        if (details.reason !== 'input-change') setSearch('');
      }}
      openOnClick
      inputBehavior="autohighlight"
      lazyMount
      unmountOnExit
      disabled={disabled}
      invalid={invalid}
      size="sm"
      width={{ base: 'full', md: '56' }}
      flexShrink={0}
    >
      <Combobox.Label srOnly>Field</Combobox.Label>
      <Combobox.Control>
        <Combobox.Input
          ref={inputRef}
          placeholder="Choose a field"
          // The chosen field's name is selected, so typing searches instead of appending to it.
          onFocus={(event) => event.currentTarget.select()}
        />
        <Combobox.IndicatorGroup>
          <Combobox.Trigger />
        </Combobox.IndicatorGroup>
      </Combobox.Control>
      {open ? (
        <Portal>
          <Combobox.Positioner>
            <Combobox.Content maxH="80" overflowY="auto">
              <Combobox.Empty>No field matches.</Combobox.Empty>
              {collection.group().map(([group, items]) => (
                <Combobox.ItemGroup key={group}>
                  <Combobox.ItemGroupLabel>{group}</Combobox.ItemGroupLabel>
                  {items.map((item) => (
                    <Combobox.Item key={item.value} item={item}>
                      {item.label}
                      <Combobox.ItemIndicator />
                    </Combobox.Item>
                  ))}
                </Combobox.ItemGroup>
              ))}
            </Combobox.Content>
          </Combobox.Positioner>
        </Portal>
      ) : null}
    </Combobox.Root>
  );
});
