import { Combobox, createListCollection, Portal, Stack, Text } from '@chakra-ui/react';
import { memo, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import {
  type ConditionValue,
  normalizeText,
  QUERY_LIMITS,
  type QueryField,
} from '../../../contracts/query-tree';
import { useDebouncedValue } from '../use-debounced-value';
import { type LoadedOption, useBuilder } from './builder-context';
import { ChosenValues } from './ChosenValues';
import type { SetValue } from './value-editors';

/** Searching an option source waits for a pause in the typing; the first, empty search does not. */
export const OPTION_SEARCH_DEBOUNCE_MS = 300;

type Choice = string | number;

interface OptionItem {
  /** The combobox speaks strings; `choice` is what goes into the tree (attribute options are numbers). */
  value: string;
  label: string;
  choice: Choice;
}

type LoadState = { options: LoadedOption[]; loading: boolean; failed: boolean };

/** The options of a searched source while the list is open: newest search wins, older answers are dropped. */
function useSearchedOptions(source: string | undefined, search: string, open: boolean): LoadState {
  const { load, labels } = useBuilder();
  const [state, setState] = useState<LoadState>({ options: [], loading: false, failed: false });
  const query = useDebouncedValue(search.trim(), search.trim() ? OPTION_SEARCH_DEBOUNCE_MS : 0);
  useEffect(() => {
    if (!source || !load || !open) return;
    let current = true;
    setState((before) => ({ ...before, loading: true, failed: false }));
    load(source, query).then(
      (options) => {
        if (!current) return;
        labels.remember(source, options);
        setState({ options, loading: false, failed: false });
      },
      () => {
        if (current) setState({ options: [], loading: false, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [source, load, labels, open, query]);
  return state;
}

/**
 * Names chosen ids that no search has shown yet (a query opened from a link or a saved view), once
 * per id, when the feature can resolve them; until then the chip shows the id itself.
 */
function useResolvedLabels(source: string | undefined, chosen: readonly Choice[]) {
  const { resolveLabels, labels } = useBuilder();
  const asked = useRef(new Set<string>());
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const unknown = source
    ? chosen
        .map(String)
        .filter((value) => labels.get(source, value) === undefined && !asked.current.has(value))
    : [];
  const unknownKey = unknown.join('\u0000');
  useEffect(() => {
    if (!source || !resolveLabels || !unknownKey) return;
    const values = unknownKey.split('\u0000');
    for (const value of values) asked.current.add(value);
    let current = true;
    resolveLabels(source, values).then(
      (options) => {
        labels.remember(source, options);
        if (current) rerender();
      },
      // A chip that stays an id is no reason to bother the user.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [source, resolveLabels, labels, unknownKey]);
}

/**
 * "is any of / is none of": a searchable multi-select whose choices show as removable chips. Options
 * come from the field itself, from the feature's `loadOptions` for big sources (sellers, categories),
 * or, for a field with neither, from what the user types.
 */
export const EnumValuesPicker = memo(function EnumValuesPicker({
  field,
  value,
  setValue,
  disabled,
}: {
  field: QueryField;
  value: ConditionValue | undefined;
  setValue: SetValue;
  disabled?: boolean;
}) {
  const { labels, load } = useBuilder();
  const source = field.optionSource && load ? field.optionSource : undefined;
  const chosen = useMemo<Choice[]>(
    () => (Array.isArray(value) ? value.filter((part) => part !== '') : []),
    [value],
  );
  const [search, setSearch] = useState('');
  // Options load, and the list (with its portal) exists, only while open.
  const [open, setOpen] = useState(false);
  const searched = useSearchedOptions(source, search, open);
  useResolvedLabels(source, chosen);

  const labelOf = (choice: Choice) =>
    field.options?.find((option) => String(option.value) === String(choice))?.label ??
    (source ? labels.get(source, choice) : undefined) ??
    String(choice);

  const items = useMemo<OptionItem[]>(() => {
    if (source) return searched.options.map((option) => ({ ...option, choice: option.value }));
    const wanted = normalizeText(search);
    if (field.options) {
      return field.options
        .filter((option) => !wanted || normalizeText(option.label).includes(wanted))
        .map((option) => ({ value: String(option.value), label: option.label, choice: option.value }));
    }
    // No list to choose from: what is typed is the value.
    const typed = search.trim().slice(0, QUERY_LIMITS.maxTextLength);
    return typed ? [{ value: typed, label: `Add "${typed}"`, choice: typed }] : [];
  }, [source, searched.options, field.options, search]);
  const collection = useMemo(() => createListCollection({ items }), [items]);

  const full = chosen.length >= QUERY_LIMITS.maxValues;
  const choose = (next: string[]) => {
    setValue((current) => {
      const before = Array.isArray(current) ? current.filter((part) => part !== '') : [];
      const picked = next
        .slice(0, QUERY_LIMITS.maxValues)
        .map(
          (text) =>
            before.find((part) => String(part) === text) ??
            items.find((item) => item.value === text)?.choice ??
            text,
        );
      return picked.length ? picked : undefined;
    });
  };
  const remove = (choice: Choice) =>
    choose(chosen.filter((part) => String(part) !== String(choice)).map(String));

  const emptyText = searched.loading
    ? 'Loading options…'
    : searched.failed
      ? 'The options could not be loaded.'
      : source || field.options
        ? 'No option matches.'
        : 'Type a value to add it.';

  return (
    <Stack gap="1.5" width="full">
      <Combobox.Root
        collection={collection}
        multiple
        closeOnSelect={false}
        value={chosen.map(String)}
        onValueChange={(details) => choose(details.value)}
        onInputValueChange={(details) => {
          if (details.reason === 'input-change') setSearch(details.inputValue);
          else if (details.reason === 'item-select' || details.reason === 'clear-trigger') setSearch('');
        }}
        onOpenChange={(details) => {
          setOpen(details.open);
          // Every opening starts from the whole list, unless typing is what opened it.
          if (details.reason !== 'input-change') setSearch('');
        }}
        openOnClick
        inputBehavior="autohighlight"
        lazyMount
        unmountOnExit
        disabled={disabled || full}
        size="sm"
      >
        <Combobox.Label srOnly>Values</Combobox.Label>
        <Combobox.Control>
          <Combobox.Input placeholder={chosen.length ? 'Add another…' : 'Choose…'} />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        {open ? (
          <Portal>
            <Combobox.Positioner>
              <Combobox.Content maxH="72" overflowY="auto">
                <Combobox.Empty>{emptyText}</Combobox.Empty>
                {collection.items.map((item) => (
                  <Combobox.Item key={item.value} item={item}>
                    {item.label}
                    <Combobox.ItemIndicator />
                  </Combobox.Item>
                ))}
              </Combobox.Content>
            </Combobox.Positioner>
          </Portal>
        ) : null}
      </Combobox.Root>
      <ChosenValues
        label="Chosen values"
        values={chosen}
        labelOf={labelOf}
        disabled={disabled}
        onRemove={remove}
      />
      {full ? (
        <Text fontSize="xs" color="fg.muted">
          A condition can list at most {QUERY_LIMITS.maxValues} values.
        </Text>
      ) : null}
    </Stack>
  );
});
