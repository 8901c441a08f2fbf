import { Badge, Box, Checkbox, HStack, Image, Link, Progress, Skeleton, Table, Text } from '@chakra-ui/react';
import { ImageOff } from 'lucide-react';
import { Link as RouterLink } from 'wouter';
import { type ProductRow, type ProductSortField, productStatusLabels } from '../../../contracts/catalog';
import { productColumns } from '../../../contracts/catalog-actions';
import { formatMoney } from '../../../contracts/domain/currency';
import { formatDateTime, formatNumber } from '../../../contracts/domain/format';
import type { QueryField } from '../../../contracts/query-tree';
import { relativeTime } from '../../lib/relative-time';
import { statusColor } from '../../lib/status-color';
import { SortHeader } from '../../ui/sort-header';
import { TableScroll } from '../../ui/table-scroll';
import type { StagingView } from './url-state';

export const PRODUCT_DETAILS = '/product/staging-products';
export const productHref = (id: string) => `${PRODUCT_DETAILS}?id=${encodeURIComponent(id)}`;

const builtin = new Map<string, (typeof productColumns)[number]>(
  productColumns.map((column) => [column.key, column]),
);

/** A column's header text: a built-in's label, or an attribute's label once the fields are known. */
export function columnLabel(key: string, fields: ReadonlyMap<string, QueryField>): string {
  return builtin.get(key)?.label ?? fields.get(key)?.label ?? key.replace(/^attr\./, '');
}

/** An attribute value as a cell shows it: lists joined, objects summarised, yes/no in words. */
function attributeText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(attributeText).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  // Rich text: the cell shows its words, never its markup.
  return text.includes('<')
    ? (new DOMParser().parseFromString(text, 'text/html').body.textContent ?? '')
    : text;
}

function Cell({ column, row, now }: { column: string; row: ProductRow; now: Date }) {
  switch (column) {
    case 'image':
      return row.thumbUrl ? (
        <Image src={row.thumbUrl} alt="" boxSize="10" objectFit="cover" rounded="sm" loading="lazy" />
      ) : (
        <Box boxSize="10" rounded="sm" bg="bg.muted" display="grid" placeItems="center" title="No image">
          <ImageOff size={16} aria-label="No image" />
        </Box>
      );
    // Long texts wrap or are cut with an ellipsis (the whole text on hover), so the grid's columns fit
    // a 1440 px screen (issue 26).
    case 'title':
      return (
        <Text lineClamp={2} whiteSpace="normal" minW="40" maxW="64" title={row.title}>
          <Link asChild fontWeight="medium" colorPalette="brand">
            <RouterLink href={productHref(row.id)}>{row.title}</RouterLink>
          </Link>
        </Text>
      );
    case 'sku':
      return (
        <Text fontFamily="mono" fontSize="xs">
          {row.sku}
        </Text>
      );
    case 'seller':
      return (
        <Text truncate maxW="40" title={row.sellerName}>
          {row.sellerName}
        </Text>
      );
    case 'category':
      return (
        <Text
          truncate
          maxW="40"
          color={row.categoryName ? undefined : 'fg.muted'}
          title={row.categoryName ?? undefined}
        >
          {row.categoryName ?? 'None'}
        </Text>
      );
    case 'status':
      return (
        <Badge colorPalette={statusColor(productStatusLabels[row.status])} variant="subtle">
          {productStatusLabels[row.status]}
        </Badge>
      );
    case 'price':
      return <Text textAlign="end">{formatMoney(row.price, row.currency)}</Text>;
    case 'inventory':
      return (
        <Text textAlign="end" color={row.inventory === 0 ? 'fg.error' : undefined}>
          {formatNumber(row.inventory)}
        </Text>
      );
    case 'completeness':
      return (
        <HStack gap="2" minW="28">
          <Progress.Root
            value={row.completeness}
            size="sm"
            flex="1"
            colorPalette={row.completeness === 100 ? 'green' : row.completeness >= 60 ? 'yellow' : 'red'}
            aria-label={`${row.completeness}% complete`}
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" w="9" textAlign="end">
            {row.completeness}%
          </Text>
        </HStack>
      );
    case 'updatedAt':
      return (
        <Text whiteSpace="nowrap" title={formatDateTime(row.updatedAt)}>
          {relativeTime(row.updatedAt, now)}
        </Text>
      );
    case 'createdAt':
      return (
        <Text whiteSpace="nowrap" title={formatDateTime(row.createdAt)}>
          {relativeTime(row.createdAt, now)}
        </Text>
      );
    default: {
      const code = column.replace(/^attr\./, '');
      const text = attributeText(row.attributes?.[code]);
      return (
        <Text
          lineClamp={2}
          whiteSpace="normal"
          maxW="48"
          color={text ? undefined : 'fg.muted'}
          title={text || undefined}
        >
          {text || '—'}
        </Text>
      );
    }
  }
}

/** One page of products with the chosen columns; rows can be ticked for bulk actions. */
export function ProductTable({
  rows,
  loading,
  view,
  fields,
  selected,
  onToggle,
  onToggleAll,
  onSort,
}: {
  rows: ProductRow[];
  loading: boolean;
  view: StagingView;
  fields: ReadonlyMap<string, QueryField>;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (checked: boolean) => void;
  onSort: (field: ProductSortField) => void;
}) {
  const now = new Date();
  const columns = view.columns;
  const allChecked = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const someChecked = rows.some((row) => selected.has(row.id));
  return (
    <TableScroll label="Staging products" borderWidth="1px" rounded="md">
      <Table.Root size="sm" aria-label="Staging products" stickyHeader>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader w="8">
              <Checkbox.Root
                size="sm"
                checked={allChecked ? true : someChecked ? 'indeterminate' : false}
                onCheckedChange={(event) => onToggleAll(event.checked === true)}
                aria-label="Select every product on this page"
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
              </Checkbox.Root>
            </Table.ColumnHeader>
            {columns.map((column) => {
              const sort = builtin.get(column)?.sort;
              return sort ? (
                <SortHeader
                  key={column}
                  field={sort}
                  label={columnLabel(column, fields)}
                  sort={view.sort}
                  order={view.order}
                  onSort={onSort}
                />
              ) : (
                <Table.ColumnHeader key={column} whiteSpace="nowrap">
                  {column === 'image' ? <Box srOnly>Image</Box> : columnLabel(column, fields)}
                </Table.ColumnHeader>
              );
            })}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {loading
            ? Array.from({ length: 8 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: skeleton rows have no identity
                <Table.Row key={index}>
                  <Table.Cell colSpan={columns.length + 1}>
                    <Skeleton height="8" />
                  </Table.Cell>
                </Table.Row>
              ))
            : rows.map((row) => (
                <Table.Row
                  key={row.id}
                  data-selected={selected.has(row.id) ? '' : undefined}
                  data-testid="product-row"
                >
                  <Table.Cell>
                    <Checkbox.Root
                      size="sm"
                      checked={selected.has(row.id)}
                      onCheckedChange={() => onToggle(row.id)}
                      aria-label={`Select ${row.title}`}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.Cell>
                  {columns.map((column) => (
                    <Table.Cell key={column}>
                      <Cell column={column} row={row} now={now} />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
