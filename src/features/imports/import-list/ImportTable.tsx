import { Link, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../../contracts/domain/format';
import type { Import } from '../../../../contracts/imports';
import { formatBytes } from '../../../lib/file-limits';
import { relativeTime } from '../../../lib/relative-time';
import { BatchStatusBadge, OutcomeCountsLine } from '../shared/Badges';
import { OpenableRow } from '../shared/OpenableRow';

/** The imports table's header cells; sellers see no seller column. */
export function ImportColumns({ showSeller }: { showSeller: boolean }) {
  return (
    <>
      <Table.ColumnHeader>File</Table.ColumnHeader>
      {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
      <Table.ColumnHeader>Status</Table.ColumnHeader>
      <Table.ColumnHeader>Rows</Table.ColumnHeader>
      <Table.ColumnHeader>Uploaded by</Table.ColumnHeader>
      <Table.ColumnHeader>When</Table.ColumnHeader>
    </>
  );
}

/** One import; the row (or its file name, for the keyboard) opens the import. */
export function ImportRow({
  item,
  showSeller,
  href,
  onOpen,
  now,
}: {
  item: Import;
  showSeller: boolean;
  href: string;
  onOpen: () => void;
  now: Date;
}) {
  return (
    <OpenableRow data-testid="import-row" onOpen={onOpen}>
      <Table.Cell>
        <Stack gap="0">
          <Link asChild fontWeight="medium" colorPalette="brand">
            <RouterLink href={href}>{item.fileName}</RouterLink>
          </Link>
          <Text fontSize="xs" color="fg.muted">
            {item.format.toUpperCase()} · {formatBytes(item.fileSize)} · batch {item.batch.number}
          </Text>
        </Stack>
      </Table.Cell>
      {showSeller ? <Table.Cell>{item.sellerName}</Table.Cell> : null}
      <Table.Cell>
        <BatchStatusBadge status={item.batch.status} />
      </Table.Cell>
      <Table.Cell>
        <OutcomeCountsLine counts={item.batch.counts} />
      </Table.Cell>
      <Table.Cell>{item.createdBy.name}</Table.Cell>
      <Table.Cell whiteSpace="nowrap" title={formatDateTime(item.createdAt)}>
        {relativeTime(item.createdAt, now)}
      </Table.Cell>
    </OpenableRow>
  );
}
