import { Link, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../contracts/domain/format';
import { type OrderListItem, orderPageLink } from '../../../contracts/orders';
import { money } from '../../lib/money';
import { CustomerCell } from '../../ui/customer-cell';
import { TableScroll } from '../../ui/table-scroll';
import { OrderStatusBadge, PaymentStateBadge } from './OrderBadges';

/** The list's rows: the reference opens the order's page. */
export function OrderTable({ rows, showSeller }: { rows: OrderListItem[]; showSeller: boolean }) {
  return (
    <TableScroll label="Orders">
      <Table.Root size="sm" aria-label="Orders" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Order</Table.ColumnHeader>
            <Table.ColumnHeader>Customer</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Payment</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            <Table.ColumnHeader>Placed</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell whiteSpace="nowrap">
                <Link asChild fontWeight="medium">
                  <RouterLink href={orderPageLink(row.id)}>{row.reference}</RouterLink>
                </Link>
              </Table.Cell>
              <CustomerCell name={row.customerName} email={row.email} />
              {showSeller ? (
                <Table.Cell>
                  <Text truncate maxW="40" title={row.sellerName ?? undefined}>
                    {row.sellerName ?? '—'}
                  </Text>
                </Table.Cell>
              ) : null}
              <Table.Cell>
                <OrderStatusBadge status={row.status} />
              </Table.Cell>
              <Table.Cell>
                <PaymentStateBadge state={row.paymentState} />
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {money(row.totalMinor, row.currency)}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                <time dateTime={row.createdAt}>{formatDateTime(row.createdAt)}</time>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
