/**
 * TanStack Query's key-factory shape for one resource (https://tkdodo.eu/blog/effective-react-query-keys):
 * `all` ⊃ `lists()` ⊃ `list(query)`, and `all` ⊃ `details()` ⊃ `detail(id)`. Every key starts with the
 * keys above it, so invalidating `lists()` refreshes every page and filter of the list while the open
 * details stay, and invalidating `all` refreshes everything the resource read.
 *
 * `root` is one or more segments: `queryKeys('customers')`, or a part of a larger resource,
 * `queryKeys('bulk-mails', 'templates')` (its `all` is then a prefix `['bulk-mails']` also invalidates).
 * A feature adds its own keys next to these: `{ ...keys, fields: () => [...keys.all, 'fields'] as const }`.
 */
export function queryKeys<Query = void, Id extends string | number = string>(...root: [string, ...string[]]) {
  const all = root as readonly string[];
  const lists = () => [...all, 'list'] as const;
  const details = () => [...all, 'detail'] as const;
  return {
    all,
    lists,
    list: (query: Query) => [...lists(), query] as const,
    details,
    detail: (id: Id) => [...details(), id] as const,
  };
}
