import { Link, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDay } from '../../../contracts/domain/format';
import { type InvoiceListItem, invoicePageLink } from '../../../contracts/invoices';
import { money } from '../../lib/money';
import { CustomerCell } from '../../ui/customer-cell';
import { TableScroll } from '../../ui/table-scroll';
import { InvoiceStatusBadge } from './InvoiceBadges';

export const invoiceKindLabels = { invoice: 'Invoice', credit_note: 'Credit note' } as const;

/** The list's rows: the number ("Draft" before it is issued) opens the invoice's page. */
export function InvoiceTable({ rows, showSeller }: { rows: InvoiceListItem[]; showSeller: boolean }) {
  return (
    <TableScroll label="Invoices">
      <Table.Root size="sm" aria-label="Invoices" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Number</Table.ColumnHeader>
            <Table.ColumnHeader>Kind</Table.ColumnHeader>
            <Table.ColumnHeader>Buyer</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Issued</Table.ColumnHeader>
            <Table.ColumnHeader>Due</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell whiteSpace="nowrap">
                <Link asChild fontWeight="medium">
                  <RouterLink href={invoicePageLink(row.id)}>{row.number ?? 'Draft'}</RouterLink>
                </Link>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{invoiceKindLabels[row.kind]}</Table.Cell>
              <CustomerCell name={row.buyerName} email={row.buyerEmail} />
              {showSeller ? (
                <Table.Cell>
                  <Text truncate maxW="40" title={row.sellerName ?? undefined}>
                    {row.sellerName ?? '—'}
                  </Text>
                </Table.Cell>
              ) : null}
              <Table.Cell whiteSpace="nowrap">{formatDay(row.issueDate)}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDay(row.dueDate)}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {money(row.totalMinor, row.currency)}
              </Table.Cell>
              <Table.Cell>
                <InvoiceStatusBadge status={row.status} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
