// Whether what a list shows still matches the view it was loaded from: the "modified" mark, and when
// Save has something to save. Pure, so the rule is tested on its own.
import type { QueryNode } from '../../../contracts/query-tree';
import type { ViewState } from '../../../contracts/saved-views';

/**
 * A state in the one form two equal states share: the defaults the server fills in (an empty search,
 * search without surrounding spaces) applied, absent condition values dropped, and the combinator of
 * an empty group ignored (it filters nothing either way). Column order and condition order matter:
 * they change what the user sees.
 */
export function normalizeViewState(state: ViewState): ViewState {
  return {
    query: normalizeNode(state.query) as ViewState['query'],
    search: (state.search ?? '').trim(),
    columns: [...state.columns],
    sort: state.sort,
    order: state.order,
    pageSize: state.pageSize,
  };
}

function normalizeNode(node: QueryNode): QueryNode {
  if ('combinator' in node) {
    return {
      combinator: node.children.length ? node.combinator : 'and',
      children: node.children.map(normalizeNode),
    };
  }
  return node.value === undefined
    ? { field: node.field, op: node.op }
    : { field: node.field, op: node.op, value: node.value };
}

/** JSON with object keys sorted: equal for equal data, whatever order its keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** True when `current` differs from the saved state in anything a view stores. */
export function isViewModified(saved: ViewState, current: ViewState): boolean {
  return canonical(normalizeViewState(saved)) !== canonical(normalizeViewState(current));
}
