import { Badge, Link, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../../contracts/domain/format';
import type { ImportRequest } from '../../../../contracts/imports';
import { relativeTime } from '../../../lib/relative-time';
import { RequestStatusBadge } from '../shared/Badges';
import { ColumnHeaders, OpenableRow, type OpenableRowProps } from '../shared/OpenableRow';

/** What the seller sent, as text: the file's name, or the feed's address (never a live link here). */
export const requestSubject = (request: ImportRequest) =>
  request.kind === 'file' ? (request.fileName ?? 'A file') : (request.feedUrl ?? 'A feed');

/** The import requests table's header cells; a seller sees no seller column. */
export const requestColumns = (showSeller: boolean) => (
  <ColumnHeaders
    names={['Request', showSeller ? 'Seller' : null, 'Kind', 'Note', 'Status', 'Handled by', 'Asked']}
  />
);

/** One import request; the row opens the request. */
export function RequestRow({
  item: request,
  showSeller,
  href,
  onOpen,
  now,
}: OpenableRowProps<ImportRequest>) {
  return (
    <OpenableRow data-testid="request-row" onOpen={onOpen}>
      <Table.Cell maxW="64">
        {/* The link opens the request here; a feed's address is plain text, never followed from the list. */}
        <Link asChild colorPalette="brand" fontWeight="medium" wordBreak="break-all">
          <RouterLink href={href}>
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
    </OpenableRow>
  );
}
