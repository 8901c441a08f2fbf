import { Link, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../contracts/domain/format';
import { OFFER_PAGE, type OfferListItem } from '../../../contracts/offers';
import { money } from '../../lib/money';
import { CustomerCell } from '../../ui/customer-cell';
import { TableScroll } from '../../ui/table-scroll';
import { OfferStatusBadge } from './OfferStatusBadge';

export const offerHref = (id: string) => `${OFFER_PAGE}?id=${encodeURIComponent(id)}`;
export const offerReference = (number: number) => `OFR-${number}`;

/** The list's rows: the reference opens the offer's page. */
export function OfferTable({ rows, showSeller }: { rows: OfferListItem[]; showSeller: boolean }) {
  return (
    <TableScroll label="Offer requests">
      <Table.Root size="sm" aria-label="Offer requests" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Offer</Table.ColumnHeader>
            <Table.ColumnHeader>Customer</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Version</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            <Table.ColumnHeader>Ends</Table.ColumnHeader>
            <Table.ColumnHeader>Requested</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell whiteSpace="nowrap">
                <Link asChild fontWeight="medium">
                  <RouterLink href={offerHref(row.id)}>{offerReference(row.number)}</RouterLink>
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
                <OfferStatusBadge status={row.status} />
                {row.toConvert ? (
                  <Text fontSize="xs" color="fg.muted">
                    To convert into an order
                  </Text>
                ) : null}
              </Table.Cell>
              <Table.Cell textAlign="end">{row.currentVersion || '—'}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {row.totalMinor !== null && row.currency ? money(row.totalMinor, row.currency) : '—'}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                {row.expiresAt ? <time dateTime={row.expiresAt}>{formatDateTime(row.expiresAt)}</time> : '—'}
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
