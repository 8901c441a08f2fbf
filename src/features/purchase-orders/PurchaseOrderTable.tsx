import { Link, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDay } from '../../../contracts/domain/format';
import { type PurchaseOrderListItem, purchaseOrderPageLink } from '../../../contracts/purchase-orders';
import { money } from '../../lib/money';
import { TableScroll } from '../../ui/table-scroll';
import { PurchaseOrderStatusBadge } from './PurchaseOrderBadges';

/** The list's rows: the reference opens the purchase order's page. */
export function PurchaseOrderTable({ rows }: { rows: PurchaseOrderListItem[] }) {
  return (
    <TableScroll label="Purchase orders">
      <Table.Root size="sm" aria-label="Purchase orders" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Purchase order</Table.ColumnHeader>
            <Table.ColumnHeader>Supplier</Table.ColumnHeader>
            <Table.ColumnHeader>Shop</Table.ColumnHeader>
            <Table.ColumnHeader>Expected</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell whiteSpace="nowrap">
                <Link asChild fontWeight="medium">
                  <RouterLink href={purchaseOrderPageLink(row.id)}>{row.reference}</RouterLink>
                </Link>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="48" title={row.supplierName}>
                  {row.supplierName}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="40" title={row.sellerName ?? undefined}>
                  {row.sellerName ?? '—'}
                </Text>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                {row.expectedOn ? <time dateTime={row.expectedOn}>{formatDay(row.expectedOn)}</time> : '—'}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {money(row.totalMinor, row.currency)}
              </Table.Cell>
              <Table.Cell>
                <PurchaseOrderStatusBadge status={row.status} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
