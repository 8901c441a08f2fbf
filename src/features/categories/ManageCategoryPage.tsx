import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { useRouteActions } from '../../services/route-permissions';
import { PageHeader } from '../../ui/page-states';
import { useCategories } from './api';
import { CategoryFormDialog } from './CategoryFormDialog';
import { CategoryListCard, useCategoryListSearch } from './CategoryListCard';

const PAGE = '/sellers/manage-category';
const SUBCATEGORY_PAGE = '/sellers/manage-subcategory';
const level = { kind: 'category' } as const;

/** The catalogue's top-level categories; each opens its subcategories. */
export default function ManageCategoryPage() {
  const { can } = useRouteActions(PAGE);
  const subcategories = useRouteActions(SUBCATEGORY_PAGE);
  const listSearch = useCategoryListSearch();
  const [creating, setCreating] = useState(false);
  const categories = useCategories(listSearch.params);

  return (
    <>
      <PageHeader
        title="Manage Category"
        description="The categories sellers file their products under, in the order the storefront shows them."
        actions={
          can('create') ? (
            <Button colorPalette="brand" onClick={() => setCreating(true)} data-tour="new-category">
              New category
            </Button>
          ) : null
        }
      />
      <CategoryListCard
        level={level}
        listSearch={listSearch}
        list={categories}
        empty={{
          title: 'No categories yet',
          description: can('create') ? 'Create the first one with New category.' : undefined,
        }}
        can={{ edit: can('edit'), delete: can('delete') }}
        canOpenSubcategories={subcategories.can('view')}
      />
      {creating ? (
        <CategoryFormDialog level={level} category={null} open onClose={() => setCreating(false)} />
      ) : null}
    </>
  );
}
