import { Badge, HStack, Link, Table, Text } from '@chakra-ui/react';
import { AlarmClock } from 'lucide-react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../contracts/domain/format';
import type { QueryListItem } from '../../../contracts/queries';
import { relativeTime } from '../../lib/relative-time';
import { TableScroll } from '../../ui/table-scroll';
import { channelLabels, priorityLabels, priorityPalette, queryNumber, slaText } from './labels';
import { QueryStatusBadge } from './QueryStatusBadge';

export const queryHref = (id: string) => `/queries/query?id=${encodeURIComponent(id)}`;

/** The follow-up cell: an overdue one stands out by colour, icon and words (not colour alone). */
function FollowUp({ row }: { row: QueryListItem }) {
  if (!row.nextFollowUpAt) return <>—</>;
  if (!row.overdue) return <>{formatDateTime(row.nextFollowUpAt)}</>;
  return (
    <HStack gap="1" color="fg.error" fontWeight="medium">
      <AlarmClock size={14} aria-hidden />
      <Text as="span">Overdue since {formatDateTime(row.nextFollowUpAt)}</Text>
    </HStack>
  );
}

/** The inbox's rows: the number and subject open the query's page. */
export function QueryTable({
  rows,
  showSeller,
  now,
}: {
  rows: QueryListItem[];
  showSeller: boolean;
  now: Date;
}) {
  return (
    <TableScroll label="Queries">
      <Table.Root size="sm" aria-label="Queries" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Number</Table.ColumnHeader>
            <Table.ColumnHeader>Subject</Table.ColumnHeader>
            <Table.ColumnHeader>Customer</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Channel</Table.ColumnHeader>
            <Table.ColumnHeader>Priority</Table.ColumnHeader>
            <Table.ColumnHeader>Assignee</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>SLA</Table.ColumnHeader>
            <Table.ColumnHeader>Next follow-up</Table.ColumnHeader>
            <Table.ColumnHeader>Last activity</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id} data-overdue={row.overdue || undefined}>
              {/* An overdue row stands out by a red edge as well as by the words of its follow-up cell. */}
              <Table.Cell
                whiteSpace="nowrap"
                borderStartWidth={row.overdue ? '4px' : undefined}
                borderStartColor={row.overdue ? 'border.error' : undefined}
              >
                <Link asChild fontWeight="medium">
                  <RouterLink href={queryHref(row.id)}>{queryNumber(row.number)}</RouterLink>
                </Link>
              </Table.Cell>
              <Table.Cell>
                <Link asChild>
                  <RouterLink href={queryHref(row.id)}>
                    <Text as="span" truncate maxW="64" title={row.subject}>
                      {row.subject}
                    </Text>
                  </RouterLink>
                </Link>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="44" title={`${row.customerName} <${row.email}>`}>
                  {row.customerName}
                </Text>
              </Table.Cell>
              {showSeller ? (
                <Table.Cell>
                  <Text truncate maxW="36" title={row.sellerName ?? undefined}>
                    {row.sellerName ?? 'Marketplace'}
                  </Text>
                </Table.Cell>
              ) : null}
              <Table.Cell whiteSpace="nowrap">{channelLabels[row.channel]}</Table.Cell>
              <Table.Cell>
                <Badge colorPalette={priorityPalette[row.priority]} variant="outline">
                  {priorityLabels[row.priority]}
                </Badge>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="36" title={row.assigneeName ?? undefined}>
                  {row.assigneeName ?? 'Unassigned'}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <QueryStatusBadge status={row.status} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap" color={row.slaBreached ? 'fg.error' : undefined}>
                {slaText(row, now)}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                <FollowUp row={row} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                <time dateTime={row.lastActivityAt} title={formatDateTime(row.lastActivityAt)}>
                  {relativeTime(row.lastActivityAt, now)}
                </time>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
