import { Card, Input } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { CATEGORY_PAGE_SIZE, type Category } from '../../../contracts/categories';
import { getErrorMessage } from '../../services/http';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import type { Level } from './api';
import { CategoryTable } from './CategoryTable';

/**
 * The search text, the debounced query the server gets and the page, for one category list;
 * `params` is what the list query takes.
 */
export function useCategoryListSearch() {
  const [search, setSearchText] = useState('');
  const [skip, setSkip] = useState(0);
  const query = useDebouncedValue(search.trim());
  return {
    search,
    // A new search starts from the first page.
    setSearch: (value: string) => {
      setSearchText(value);
      setSkip(0);
    },
    query,
    skip,
    setSkip,
    params: { query, skip, limit: CATEGORY_PAGE_SIZE },
  };
}

/**
 * Search box, one page of categories or subcategories and the pager: the body both category pages
 * share. `empty` is what to say when the level has no entries at all (not just no matches).
 */
export function CategoryListCard({
  level,
  listSearch,
  list,
  empty,
  can,
  canOpenSubcategories,
}: {
  level: Level;
  listSearch: ReturnType<typeof useCategoryListSearch>;
  list: UseQueryResult<{ rows: Category[]; count: number }>;
  empty: { title: string; description?: string };
  can: { edit: boolean; delete: boolean };
  canOpenSubcategories: boolean;
}) {
  const { search, setSearch, query, skip, setSkip } = listSearch;
  const plural = level.kind === 'category' ? 'categories' : 'subcategories';
  return (
    <Card.Root data-tour="category-list">
      <Card.Body>
        <Input
          mb="4"
          placeholder="Search by name or slug"
          aria-label={`Search ${plural}`}
          maxLength={100}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {list.isPending ? (
          <LoadingState rows={6} label={`Loading ${plural}`} />
        ) : list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : list.data.rows.length === 0 ? (
          query ? (
            <EmptyMessage title={`No ${plural} match`} description={`No name or slug contains “${query}”.`} />
          ) : (
            <EmptyMessage title={empty.title} description={empty.description} />
          )
        ) : (
          <>
            <CategoryTable
              level={level}
              rows={list.data.rows}
              dimmed={list.isPlaceholderData}
              can={can}
              canOpenSubcategories={canOpenSubcategories}
            />
            <Pager
              label={level.kind === 'category' ? 'Category pages' : 'Subcategory pages'}
              skip={skip}
              limit={CATEGORY_PAGE_SIZE}
              count={list.data.count}
              onSkipChange={setSkip}
            />
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}
