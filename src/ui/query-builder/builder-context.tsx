// What every group and row of one builder shares. The value is kept stable across edits (the tree
// and the callbacks live in refs) so that memoised rows re-render only when their own node changes.
import { type ComponentType, createContext, type RefObject, useContext, useEffect } from 'react';
import type { ConditionValue, QueryField, QueryTree } from '../../../contracts/query-tree';
import type { LimitCheck, QueryPath } from './tree-edit';

/** One choice of a searched option source, as the feature's loader answers it. */
export interface LoadedOption {
  value: string;
  label: string;
}

/** Searches a feature's option source (`QueryField.optionSource`): sellers, categories, … */
export type LoadOptions = (source: string, search: string) => Promise<LoadedOption[]>;

/** Names chosen ids of an option source that no search has shown yet (a query from a URL). */
export type ResolveOptionLabels = (source: string, values: string[]) => Promise<LoadedOption[]>;

/** What a value editor gets: the condition's field and value, and a way to change the value. */
export interface ValueEditorProps {
  field: QueryField;
  value: ConditionValue | undefined;
  /** Replaces the value from its newest state; `undefined` means "no value yet". */
  setValue: (update: (current: ConditionValue | undefined) => ConditionValue | undefined) => void;
  disabled?: boolean;
}

/**
 * A feature's own editors for list values, by the fields' `optionSource`: where a searched list is not
 * enough (tags are chosen in a tree, each shown with its path). Keep the object stable.
 */
export type ValueEditors = Readonly<Record<string, ComponentType<ValueEditorProps>>>;

/**
 * Labels of searched options seen so far, per source, so a chosen seller keeps its name after the
 * search that showed it has moved on (and in every other row that picks from the same source).
 */
export class OptionLabels {
  private readonly labels = new Map<string, string>();
  private keyOf(source: string, value: string | number) {
    return `${source}\u0000${String(value)}`;
  }
  remember(source: string, options: readonly LoadedOption[]) {
    for (const option of options) this.labels.set(this.keyOf(source, option.value), option.label);
  }
  get(source: string, value: string | number): string | undefined {
    return this.labels.get(this.keyOf(source, value));
  }
}

export interface BuilderContextValue {
  fields: readonly QueryField[];
  fieldsByKey: ReadonlyMap<string, QueryField>;
  /** Applies an edit to the newest tree (not the one of the last render) and reports it. */
  edit: (change: (tree: QueryTree) => QueryTree) => void;
  load?: LoadOptions;
  resolveLabels?: ResolveOptionLabels;
  valueEditors?: ValueEditors;
  labels: OptionLabels;
  disabled: boolean;
  /** Whether one more condition fits in the query (the same answer for every group). */
  conditionRoom: LimitCheck;
  /** Asks the control registered under `key` to take the focus when it next renders. */
  requestFocus: (key: string) => void;
  focusRequest: RefObject<string | null>;
}

export const BuilderContext = createContext<BuilderContextValue | null>(null);

export function useBuilder(): BuilderContextValue {
  const context = useContext(BuilderContext);
  if (!context) throw new Error('Query builder parts must be rendered inside <QueryBuilder>.');
  return context;
}

/** Focuses `ref` when the builder asked for `key` (a new row's field, a group's add button). */
export function useFocusRequest(key: string, ref: RefObject<HTMLElement | null>) {
  const { focusRequest } = useBuilder();
  // No dependency list on purpose: the request is checked after every render of the owner, the
  // moment a new row mounts or a group re-renders after losing a child.
  useEffect(() => {
    if (focusRequest.current !== key || !ref.current) return;
    focusRequest.current = null;
    ref.current.focus();
  });
}

/** "2.1": the path numbered from 1, as the user reads it. */
export const pathNumber = (path: QueryPath) => path.map((index) => index + 1).join('.');
export const conditionName = (path: QueryPath) => `Condition ${pathNumber(path)}`;
export const groupName = (path: QueryPath) => (path.length ? `Group ${pathNumber(path)}` : 'Query');

/** Focus keys, shared by who asks and who answers. */
export const focusKeys = {
  field: (path: QueryPath) => `field:${pathNumber(path)}`,
  addCondition: (path: QueryPath) => `add:${pathNumber(path)}`,
};

/** Paths compared by value, for memo comparisons (a parent builds new path arrays every render). */
export const samePath = (a: QueryPath, b: QueryPath) =>
  a === b || (a.length === b.length && a.every((index, at) => index === b[at]));
