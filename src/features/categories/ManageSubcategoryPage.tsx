import { Badge, Button, HStack } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink, useSearch } from 'wouter';
import { isUuid } from '../../../contracts/domain/ids';
import { useRouteActions } from '../../services/route-permissions';
import { PageHeader, recordState } from '../../ui/page-states';
import { useSubcategories } from './api';
import { CategoryFormDialog } from './CategoryFormDialog';
import { CategoryListCard, useCategoryListSearch } from './CategoryListCard';

const PAGE = '/sellers/manage-subcategory';
const CATEGORY_PAGE = '/sellers/manage-category';

/** The subcategories of one category (?categoryId=). */
export default function ManageSubcategoryPage() {
  const categoryId = new URLSearchParams(useSearch()).get('categoryId');
  const valid = isUuid(categoryId);
  const { can } = useRouteActions(PAGE);
  const listSearch = useCategoryListSearch();
  const [creating, setCreating] = useState(false);
  const list = useSubcategories(valid ? categoryId : null, listSearch.params);
  const back = (
    <Button asChild variant="outline">
      <RouterLink href={CATEGORY_PAGE}>All categories</RouterLink>
    </Button>
  );

  const { data, view } = recordState(list, {
    valid,
    back,
    noneChosen: {
      title: 'No category chosen',
      description: 'Open a category from the category list to manage its subcategories.',
    },
    notFound: {
      title: 'Category not found',
      description: 'It may have been deleted. Pick another one from the category list.',
    },
    loading: { rows: 6, label: 'Loading subcategories' },
  });
  if (!data) return view;

  const { parent } = data;
  const level = { kind: 'subcategory', parentId: parent.id } as const;
  return (
    <>
      <PageHeader
        title={`${parent.name}: subcategories`}
        description={parent.description || undefined}
        actions={
          <HStack gap="2">
            {parent.isActive ? null : <Badge colorPalette="gray">Category inactive</Badge>}
            {back}
            {can('create') ? (
              <Button colorPalette="brand" onClick={() => setCreating(true)} data-tour="new-subcategory">
                New subcategory
              </Button>
            ) : null}
          </HStack>
        }
      />
      <CategoryListCard
        level={level}
        listSearch={listSearch}
        list={list}
        empty={{
          title: `${parent.name} has no subcategories yet`,
          description: can('create') ? 'Add one with New subcategory.' : undefined,
        }}
        can={{ edit: can('edit'), delete: can('delete') }}
        canOpenSubcategories={false}
      />
      {creating ? (
        <CategoryFormDialog level={level} category={null} open onClose={() => setCreating(false)} />
      ) : null}
    </>
  );
}
