import { HStack, Link, Skeleton, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDate } from '../../../contracts/domain/format';
import type { Seller } from '../../../contracts/sellers';
import { SortHeader } from '../../ui/sort-header';
import { TableScroll } from '../../ui/table-scroll';
import { SellerLogo } from './SellerLogo';
import { SellerStatusBadges } from './SellerStatusBadges';
import type { SellerSortField, SellerView } from './url-state';

/** One page of sellers; the name opens the seller's detail (a link, so it can be opened in a new tab). */
export function SellerTable({
  rows,
  loading,
  stale,
  skeletonRows,
  view,
  hrefOf,
  onSort,
}: {
  rows: Seller[];
  /** No rows yet: skeleton rows. */
  loading: boolean;
  /** The rows shown are the previous view's while the new one loads. */
  stale: boolean;
  skeletonRows: number;
  view: SellerView;
  hrefOf: (seller: Seller) => string;
  onSort: (field: SellerSortField) => void;
}) {
  return (
    <TableScroll label="Sellers" borderWidth="1px" rounded="md">
      <Table.Root size="sm" interactive aria-label="Sellers" aria-busy={loading || stale}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <SortHeader
              field="sellerName"
              label="Seller"
              sort={view.sort}
              order={view.order}
              onSort={onSort}
            />
            <SortHeader field="sellerCode" label="Code" sort={view.sort} order={view.order} onSort={onSort} />
            <Table.ColumnHeader>Contact</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <SortHeader
              field="createdAt"
              label="Created"
              sort={view.sort}
              order={view.order}
              onSort={onSort}
            />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {loading
            ? Array.from({ length: skeletonRows }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                <Table.Row key={index} aria-hidden="true">
                  {[40, 16, 36, 20, 16].map((width, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                    <Table.Cell key={cell}>
                      <Skeleton height="5" width={`${width * 4}px`} maxW="full" />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))
            : rows.map((seller) => (
                <Table.Row key={seller.id} data-seller-id={seller.id}>
                  <Table.Cell>
                    <HStack gap="3">
                      <SellerLogo name={seller.sellerName} logo={seller.logo} />
                      <Link asChild fontWeight="medium" colorPalette="brand">
                        <RouterLink href={hrefOf(seller)}>{seller.sellerName}</RouterLink>
                      </Link>
                    </HStack>
                  </Table.Cell>
                  <Table.Cell fontFamily="mono" fontSize="xs">
                    {seller.sellerCode}
                  </Table.Cell>
                  <Table.Cell>
                    <Text truncate maxW="64">
                      {seller.email}
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      {seller.phone || '—'}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <SellerStatusBadges seller={seller} />
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatDate(seller.createdAt)}</Table.Cell>
                </Table.Row>
              ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
