import { Button, Card, Input } from '@chakra-ui/react';
import { useState } from 'react';
import { CATEGORY_PAGE_SIZE } from '../../../contracts/categories';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { EmptyMessage, ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useCategories } from './api';
import { CategoryFormDialog } from './CategoryFormDialog';
import { CategoryTable } from './CategoryTable';

const PAGE = '/sellers/manage-category';
const SUBCATEGORY_PAGE = '/sellers/manage-subcategory';
const level = { kind: 'category' } as const;

/** The catalogue's top-level categories; each opens its subcategories. */
export default function ManageCategoryPage() {
  const { can } = useRouteActions(PAGE);
  const subcategories = useRouteActions(SUBCATEGORY_PAGE);
  const [search, setSearch] = useState('');
  const [skip, setSkip] = useState(0);
  const [creating, setCreating] = useState(false);
  const query = useDebouncedValue(search.trim());
  const categories = useCategories({ query, skip, limit: CATEGORY_PAGE_SIZE });

  return (
    <>
      <PageHeader
        title="Manage Category"
        description="The categories sellers file their products under, in the order the storefront shows them."
        actions={
          can('create') ? (
            <Button colorPalette="brand" onClick={() => setCreating(true)}>
              New category
            </Button>
          ) : null
        }
      />
      <Card.Root>
        <Card.Body>
          <Input
            mb="4"
            placeholder="Search by name or slug"
            aria-label="Search categories"
            maxLength={100}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setSkip(0);
            }}
          />
          {categories.isPending ? (
            <LoadingState rows={6} label="Loading categories" />
          ) : categories.isError ? (
            <ErrorState message={getErrorMessage(categories.error)} onRetry={() => categories.refetch()} />
          ) : categories.data.rows.length === 0 ? (
            query ? (
              <EmptyMessage
                title="No categories match"
                description={`No name or slug contains “${query}”.`}
              />
            ) : (
              <EmptyMessage
                title="No categories yet"
                description={can('create') ? 'Create the first one with New category.' : undefined}
              />
            )
          ) : (
            <>
              <CategoryTable
                level={level}
                rows={categories.data.rows}
                dimmed={categories.isPlaceholderData}
                can={{ edit: can('edit'), delete: can('delete') }}
                canOpenSubcategories={subcategories.can('view')}
              />
              <Pager
                label="Category pages"
                skip={skip}
                limit={CATEGORY_PAGE_SIZE}
                count={categories.data.count}
                onSkipChange={setSkip}
              />
            </>
          )}
        </Card.Body>
      </Card.Root>
      {creating ? (
        <CategoryFormDialog level={level} category={null} open onClose={() => setCreating(false)} />
      ) : null}
    </>
  );
}
