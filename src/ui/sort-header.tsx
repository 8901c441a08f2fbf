import { Box, Icon, Table } from '@chakra-ui/react';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';

/**
 * A sortable column's header: a button that sorts by `field` (the list decides the order a new column
 * starts in), with the direction shown and told to screen readers through aria-sort.
 */
export function SortHeader<F extends string>({
  field,
  label,
  sort,
  order,
  onSort,
  wrap = false,
}: {
  field: F;
  label: string;
  /** The list's current sort field and order. */
  sort: string;
  order: 'asc' | 'desc';
  onSort: (field: F) => void;
  /** A long label may take two lines, to keep a narrow column narrow. */
  wrap?: boolean;
}) {
  const active = sort === field;
  const SortIcon = !active ? ArrowUpDown : order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <Table.ColumnHeader
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      whiteSpace={wrap ? 'normal' : 'nowrap'}
    >
      <Box
        as="button"
        textAlign="start"
        display="inline-flex"
        alignItems="center"
        gap="1"
        fontWeight="inherit"
        cursor="pointer"
        _hover={{ color: 'fg' }}
        color={active ? 'fg' : undefined}
        onClick={() => onSort(field)}
      >
        {label}
        <Icon size="xs" color={active ? 'brand.solid' : 'fg.subtle'}>
          <SortIcon />
        </Icon>
      </Box>
    </Table.ColumnHeader>
  );
}
