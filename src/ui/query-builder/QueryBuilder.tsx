import { Stack, Text } from '@chakra-ui/react';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { QueryField, QueryTree } from '../../../contracts/query-tree';
import {
  BuilderContext,
  type BuilderContextValue,
  type LoadOptions,
  OptionLabels,
  type ResolveOptionLabels,
  type ValueEditors,
} from './builder-context';
import { countAwaitingValue } from './complete-conditions';
import { GroupEditor } from './GroupEditor';
import { conditionRoom } from './tree-edit';

export interface QueryBuilderProps {
  /** What may be filtered on; the builder knows nothing else about the feature. Keep it memoised. */
  fields: QueryField[];
  value: QueryTree;
  /** Every edit, with the whole new tree. Incomplete conditions included: query with `completeConditionsOnly`. */
  onChange: (tree: QueryTree) => void;
  /** Searches a field's `optionSource` (sellers, categories) for its "is any of" picker. */
  loadOptions?: LoadOptions;
  /** Names chosen ids of an `optionSource` that no search has shown yet (a query opened from a link). */
  resolveOptionLabels?: ResolveOptionLabels;
  /** The feature's own list editors, by `optionSource` (tags: a tree picker). Keep it memoised. */
  valueEditors?: ValueEditors;
  disabled?: boolean;
}

/**
 * The query builder: a nested AND/OR tree of conditions over a feature's field catalogue
 * (`QueryField[]`), controlled through `value` and `onChange`. Shared by every feature that filters
 * with a query tree (staging products, marketing audiences, saved views).
 */
export function QueryBuilder({
  fields,
  value,
  onChange,
  loadOptions,
  resolveOptionLabels,
  valueEditors,
  disabled = false,
}: QueryBuilderProps) {
  // The newest tree and callbacks, read when an edit happens rather than captured when a row rendered:
  // the context (and so every memoised row) stays the same while the tree changes. An edit also
  // moves `latest` on at once, so two edits in one event (a blur commit, then a click) both count.
  const latest = useRef(value);
  const rendered = useRef(value);
  if (rendered.current !== value) {
    rendered.current = value;
    latest.current = value;
  }
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const loadRef = useRef(loadOptions);
  loadRef.current = loadOptions;
  const resolveRef = useRef(resolveOptionLabels);
  resolveRef.current = resolveOptionLabels;

  const edit = useCallback((change: (tree: QueryTree) => QueryTree) => {
    const next = change(latest.current);
    if (next === latest.current) return;
    latest.current = next;
    onChangeRef.current(next);
  }, []);
  const load = useCallback<LoadOptions>((source, search) => loadRef.current!(source, search), []);
  const resolveLabels = useCallback<ResolveOptionLabels>(
    (source, values) => resolveRef.current!(source, values),
    [],
  );
  const [labels] = useState(() => new OptionLabels());
  const focusRequest = useRef<string | null>(null);
  const requestFocus = useCallback((key: string) => {
    focusRequest.current = key;
  }, []);

  const fieldsByKey = useMemo(() => new Map(fields.map((field) => [field.key, field])), [fields]);
  const room = conditionRoom(value);
  const hasLoader = loadOptions !== undefined;
  const hasResolver = resolveOptionLabels !== undefined;
  const context = useMemo<BuilderContextValue>(
    () => ({
      fields,
      fieldsByKey,
      edit,
      load: hasLoader ? load : undefined,
      resolveLabels: hasResolver ? resolveLabels : undefined,
      valueEditors,
      labels,
      disabled,
      conditionRoom: room,
      requestFocus,
      focusRequest,
    }),
    [
      fields,
      fieldsByKey,
      edit,
      hasLoader,
      load,
      hasResolver,
      resolveLabels,
      valueEditors,
      labels,
      disabled,
      room,
      requestFocus,
    ],
  );

  const awaiting = countAwaitingValue(value);
  return (
    <BuilderContext.Provider value={context}>
      <Stack gap="3">
        <GroupEditor group={value} path={ROOT} />
        {/* Always rendered, so screen readers announce the count when it appears. */}
        <Text fontSize="sm" color="fg.muted" aria-live="polite" _empty={{ display: 'none' }}>
          {awaiting === 0
            ? ''
            : awaiting === 1
              ? '1 condition has no value yet and is left out of the results.'
              : `${awaiting} conditions have no value yet and are left out of the results.`}
        </Text>
      </Stack>
    </BuilderContext.Provider>
  );
}

const ROOT: readonly number[] = [];
