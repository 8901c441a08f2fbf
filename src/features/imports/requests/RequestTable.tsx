import { Badge, Link, Skeleton, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../../contracts/domain/format';
import type { ImportRequest } from '../../../../contracts/imports';
import { relativeTime } from '../../../lib/relative-time';
import { TableScroll } from '../../../ui/table-scroll';
import { RequestStatusBadge } from '../shared/Badges';

/** What the seller sent, as text: the file's name, or the feed's address (never a live link here). */
export const requestSubject = (request: ImportRequest) =>
  request.kind === 'file' ? (request.fileName ?? 'A file') : (request.feedUrl ?? 'A feed');

/** One page of import requests; a row opens the request. */
export function RequestTable({
  rows,
  loading,
  showSeller,
  hrefOf,
  onOpen,
}: {
  rows: ImportRequest[];
  loading: boolean;
  showSeller: boolean;
  hrefOf: (request: ImportRequest) => string;
  onOpen: (request: ImportRequest) => void;
}) {
  const now = new Date();
  const columns = showSeller ? 7 : 6;
  return (
    <TableScroll label="Import requests" borderWidth="1px" rounded="md">
      <Table.Root size="sm" aria-label="Import requests" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Request</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Kind</Table.ColumnHeader>
            <Table.ColumnHeader>Note</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Handled by</Table.ColumnHeader>
            <Table.ColumnHeader>Asked</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {loading
            ? Array.from({ length: 5 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: skeleton rows have no identity
                <Table.Row key={index}>
                  <Table.Cell colSpan={columns}>
                    <Skeleton height="8" />
                  </Table.Cell>
                </Table.Row>
              ))
            : rows.map((request) => (
                <Table.Row
                  key={request.id}
                  data-testid="request-row"
                  cursor="pointer"
                  onClick={(event) => {
                    if (!(event.target as HTMLElement).closest('a')) onOpen(request);
                  }}
                >
                  <Table.Cell maxW="64">
                    {/* The link opens the request here; a feed's address is plain text, never followed from the list. */}
                    <Link asChild colorPalette="brand" fontWeight="medium" wordBreak="break-all">
                      <RouterLink href={hrefOf(request)}>
                        {request.kind === 'file' ? requestSubject(request) : 'Feed request'}
                      </RouterLink>
                    </Link>
                    {request.kind === 'feed' ? (
                      <Text fontSize="xs" color="fg.muted" wordBreak="break-all" lineClamp={2}>
                        {requestSubject(request)}
                      </Text>
                    ) : null}
                  </Table.Cell>
                  {showSeller ? <Table.Cell>{request.sellerName}</Table.Cell> : null}
                  <Table.Cell>
                    <Badge variant="outline">{request.kind === 'file' ? 'File' : 'Feed'}</Badge>
                  </Table.Cell>
                  <Table.Cell maxW="72">
                    <Text lineClamp={2} color={request.note ? undefined : 'fg.muted'}>
                      {request.note || '—'}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <RequestStatusBadge status={request.status} />
                  </Table.Cell>
                  <Table.Cell>{request.assignee?.name ?? '—'}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap" title={formatDateTime(request.createdAt)}>
                    {relativeTime(request.createdAt, now)}
                  </Table.Cell>
                </Table.Row>
              ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
