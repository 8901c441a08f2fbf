import { Link, Skeleton, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import type { CallLog } from '../../../contracts/calls';
import { formatDateTime } from '../../../contracts/domain/format';
import { formatCallDuration } from '../../lib/call-duration';
import { TableScroll } from '../../ui/table-scroll';
import { CallDirection, CallStatusBadge, RatingStars } from './call-status';

/** When the call started; a call never answered has no start, so its log's creation stands in. */
export const callTimeOf = (call: CallLog): string => call.callDetails.callStartedAt ?? call.createdAt;

const SKELETON_WIDTHS = [24, 32, 20, 24, 12, 28, 16];

/**
 * One page of calls. The number opens the call's details (a link, so it can be opened in a new tab and
 * read by screen readers as what it does). `showOwner` adds whose log it is, for admins seeing everyone's.
 */
export function CallTable({
  rows,
  loading,
  stale,
  showOwner,
  hrefOf,
}: {
  rows: CallLog[];
  /** No rows yet: skeleton rows. */
  loading: boolean;
  /** The rows shown are the previous view's while the new one loads. */
  stale: boolean;
  showOwner: boolean;
  hrefOf: (call: CallLog) => string;
}) {
  const widths = SKELETON_WIDTHS.slice(0, showOwner ? 7 : 6);
  return (
    <TableScroll label="Call history" borderWidth="1px" rounded="md">
      <Table.Root size="sm" interactive aria-label="Call history" aria-busy={loading || stale}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>Direction</Table.ColumnHeader>
            <Table.ColumnHeader>Number</Table.ColumnHeader>
            {showOwner ? <Table.ColumnHeader>Owner</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Duration</Table.ColumnHeader>
            <Table.ColumnHeader>Started</Table.ColumnHeader>
            <Table.ColumnHeader>Feedback</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {loading
            ? Array.from({ length: 6 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                <Table.Row key={index} aria-hidden="true">
                  {widths.map((width, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                    <Table.Cell key={cell}>
                      <Skeleton height="5" width={`${width * 4}px`} maxW="full" />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))
            : rows.map((call) => (
                <Table.Row key={call.callId} data-call-id={call.callId}>
                  <Table.Cell>
                    <CallDirection direction={call.referenceType} media={call.media} />
                  </Table.Cell>
                  <Table.Cell>
                    <Link asChild fontWeight="medium" colorPalette="brand" fontFamily="mono">
                      <RouterLink href={hrefOf(call)}>{call.phoneNumber}</RouterLink>
                    </Link>
                    {call.peerName ? (
                      <Text fontSize="xs" color="fg.muted">
                        {call.peerName}
                      </Text>
                    ) : null}
                  </Table.Cell>
                  {showOwner ? <Table.Cell>{call.owner.name}</Table.Cell> : null}
                  <Table.Cell>
                    <CallStatusBadge status={call.callDetails.callStatus} />
                  </Table.Cell>
                  <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                    {formatCallDuration(call.callDetails.callDuration)}
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    <time dateTime={callTimeOf(call)}>{formatDateTime(callTimeOf(call))}</time>
                  </Table.Cell>
                  <Table.Cell>
                    {call.feedbackData ? (
                      <RatingStars rating={call.feedbackData.rating} />
                    ) : (
                      <Text as="span" color="fg.subtle">
                        —
                      </Text>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
