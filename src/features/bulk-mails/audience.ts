// The audience's quick pickers (SPEC §2: country, company type, template received, template language)
// are shortcuts into the one query tree the builder edits: each reads and writes an "is any of"
// condition at the top of the tree. Nothing else is kept beside the tree, so the builder, a saved view
// and the pickers always say the same thing.
import type { Audience } from '../../../contracts/campaigns';
import { CONTACT_VIEW_COLUMNS } from '../../../contracts/contacts';
import type { ContactFieldKey } from '../../../contracts/marketing';
import { isGroup, type QueryCondition, type QueryNode, type QueryTree } from '../../../contracts/query-tree';
import type { ViewState } from '../../../contracts/saved-views';

/** The pickers above the builder, in the SPEC's order. */
export const quickFields = [
  'country',
  'companyType',
  'receivedTemplate',
  'language',
] as const satisfies readonly ContactFieldKey[];
export type QuickField = (typeof quickFields)[number];

const isQuick = (node: QueryNode, field: string): node is QueryCondition =>
  !isGroup(node) && node.field === field && node.op === 'anyOf';

/** The values a picker shows: those of the top-level "is any of" condition on its field (AND root). */
export function quickValues(tree: QueryTree, field: QuickField): string[] {
  if (tree.combinator !== 'and') return [];
  const condition = tree.children.find((node) => isQuick(node, field));
  if (!condition) return [];
  const value = condition.value;
  return Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
}

/**
 * The tree with a picker's values: its condition replaced (or added at the end, or removed when no value
 * is left). A tree whose root is OR is kept whole inside a new AND root, so picking narrows it.
 */
export function setQuickValues(tree: QueryTree, field: QuickField, values: readonly string[]): QueryTree {
  const root: QueryTree =
    tree.combinator === 'and' || tree.children.length === 0
      ? { ...tree, combinator: 'and' }
      : { combinator: 'and', children: [tree] };
  const at = root.children.findIndex((node) => isQuick(node, field));
  const condition: QueryCondition = { field, op: 'anyOf', value: [...values] };
  if (at === -1) {
    return values.length ? { ...root, children: [...root.children, condition] } : root;
  }
  const children = values.length
    ? root.children.map((node, index) => (index === at ? condition : node))
    : root.children.filter((_, index) => index !== at);
  return { ...root, children };
}

/** The contacts list's own columns, sort and page size for an audience saved from this page. */
export const AUDIENCE_VIEW_DEFAULTS: Omit<ViewState, 'query' | 'search'> = {
  columns: CONTACT_VIEW_COLUMNS,
  sort: 'createdAt',
  order: 'desc',
  pageSize: 25,
};

/** A saved contacts view for this audience, keeping the loaded view's columns and sort when there is one. */
export function audienceViewState(audience: Audience, loaded: ViewState | null): ViewState {
  const base = loaded ? { ...loaded } : { ...AUDIENCE_VIEW_DEFAULTS, query: audience.query, search: '' };
  return { ...base, query: audience.query, search: audience.search };
}
