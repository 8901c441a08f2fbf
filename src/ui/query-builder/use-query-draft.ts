import { useEffect, useState } from 'react';
import { encodeQuery, type QueryField, type QueryTree } from '../../../contracts/query-tree';
import { completeConditionsOnly } from './complete-conditions';

const sameQuery = (a: QueryTree, b: QueryTree) => encodeQuery(a) === encodeQuery(b);

/**
 * The query builder edits a draft (incomplete conditions included); the page's query (in the URL)
 * holds only its complete part. `setQuery` hears of the complete part when it changes; a new `query`
 * from elsewhere (a loaded view, Back) replaces the draft unless the draft already means it.
 */
export function useQueryDraft(
  query: QueryTree,
  fields: readonly QueryField[] | undefined,
  setQuery: (complete: QueryTree) => void,
): [QueryTree, (tree: QueryTree) => void] {
  const [draft, setDraft] = useState<QueryTree>(query);
  useEffect(() => {
    setDraft((current) => (sameQuery(completeConditionsOnly(current), query) ? current : query));
  }, [query]);
  const onChange = (tree: QueryTree) => {
    setDraft(tree);
    const complete = completeConditionsOnly(tree, fields);
    if (!sameQuery(complete, query)) setQuery(complete);
  };
  return [draft, onChange];
}
