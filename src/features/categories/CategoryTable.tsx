import { Badge, Box, Button, HStack, Link, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import type { Category } from '../../../contracts/categories';
import { formatNumber } from '../../../contracts/domain/format';
import { DeleteRowDialog } from '../../ui/delete-row-dialog';
import { TableScroll } from '../../ui/table-scroll';
import { type Level, useDeleteCategory } from './api';
import { CategoryFormDialog } from './CategoryFormDialog';

const SUBCATEGORY_PAGE = '/sellers/manage-subcategory';

function DeleteDialog({
  level,
  target,
  onClose,
}: {
  level: Level;
  target: Category | null;
  onClose: () => void;
}) {
  const remove = useDeleteCategory(level);
  return (
    <DeleteRowDialog
      target={target}
      remove={remove}
      title={(shown) => `Delete ${shown?.name ?? ''}?`}
      description={() =>
        level.kind === 'category'
          ? 'It disappears from the catalogue for good. A category with subcategories or products cannot be deleted.'
          : 'It disappears from the catalogue for good. A subcategory with products cannot be deleted.'
      }
      deleted={(row) => `Deleted ${row.name}`}
      onClose={onClose}
    />
  );
}

/**
 * One page of categories or subcategories with their actions. Top-level names link to their
 * subcategories when the user may open that page.
 */
export function CategoryTable({
  level,
  rows,
  dimmed,
  can,
  canOpenSubcategories,
}: {
  level: Level;
  rows: Category[];
  dimmed: boolean;
  can: { edit: boolean; delete: boolean };
  canOpenSubcategories: boolean;
}) {
  const [editing, setEditing] = useState<Category | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const topLevel = level.kind === 'category';
  const hasActions = can.edit || can.delete || (topLevel && canOpenSubcategories);

  return (
    <Box opacity={dimmed ? 0.6 : 1}>
      <TableScroll label={topLevel ? 'Categories' : 'Subcategories'}>
        <Table.Root size="sm" aria-label={topLevel ? 'Categories' : 'Subcategories'}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Slug</Table.ColumnHeader>
              {topLevel ? <Table.ColumnHeader textAlign="end">Subcategories</Table.ColumnHeader> : null}
              <Table.ColumnHeader textAlign="end">Products</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Sort order</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              {hasActions ? <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader> : null}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((category) => {
              const subcategoriesHref = `${SUBCATEGORY_PAGE}?categoryId=${category.id}`;
              return (
                <Table.Row key={category.id} data-category-id={category.id}>
                  <Table.Cell>
                    {topLevel && canOpenSubcategories ? (
                      <Link asChild fontWeight="medium" color="brand.fg">
                        <RouterLink href={subcategoriesHref}>{category.name}</RouterLink>
                      </Link>
                    ) : (
                      <Text fontWeight="medium">{category.name}</Text>
                    )}
                    {category.description ? (
                      <Text fontSize="xs" color="fg.muted" lineClamp={1} maxW="md">
                        {category.description}
                      </Text>
                    ) : null}
                  </Table.Cell>
                  <Table.Cell fontFamily="mono" fontSize="xs">
                    {category.slug}
                  </Table.Cell>
                  {topLevel ? (
                    <Table.Cell textAlign="end">{formatNumber(category.subcategoryCount)}</Table.Cell>
                  ) : null}
                  <Table.Cell textAlign="end">{formatNumber(category.productCount)}</Table.Cell>
                  <Table.Cell textAlign="end">{category.sortOrder}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={category.isActive ? 'green' : 'gray'}>
                      {category.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Cell>
                  {hasActions ? (
                    <Table.Cell>
                      <HStack gap="2" justify="flex-end">
                        {topLevel && canOpenSubcategories ? (
                          <Button asChild size="xs" variant="ghost">
                            <RouterLink
                              href={subcategoriesHref}
                              aria-label={`Subcategories of ${category.name}`}
                            >
                              Subcategories
                            </RouterLink>
                          </Button>
                        ) : null}
                        {can.edit ? (
                          <Button
                            size="xs"
                            variant="outline"
                            aria-label={`Edit ${category.name}`}
                            onClick={() => setEditing(category)}
                          >
                            Edit
                          </Button>
                        ) : null}
                        {can.delete ? (
                          <Button
                            size="xs"
                            variant="outline"
                            colorPalette="red"
                            aria-label={`Delete ${category.name}`}
                            onClick={() => setDeleting(category)}
                          >
                            Delete
                          </Button>
                        ) : null}
                      </HStack>
                    </Table.Cell>
                  ) : null}
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </TableScroll>
      {editing ? (
        <CategoryFormDialog
          key={editing.id}
          level={level}
          category={editing}
          open
          onClose={() => setEditing(null)}
        />
      ) : null}
      <DeleteDialog level={level} target={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}
