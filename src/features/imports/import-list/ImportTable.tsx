import { Link, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../../contracts/domain/format';
import type { Import } from '../../../../contracts/imports';
import { formatBytes } from '../../../lib/file-limits';
import { relativeTime } from '../../../lib/relative-time';
import { BatchStatusBadge, OutcomeCountsLine } from '../shared/Badges';
import { ColumnHeaders, OpenableRow, type OpenableRowProps } from '../shared/OpenableRow';

/** The imports table's header cells; sellers see no seller column. */
export const importColumns = (showSeller: boolean) => (
  <ColumnHeaders names={['File', showSeller ? 'Seller' : null, 'Status', 'Rows', 'Uploaded by', 'When']} />
);

/** One import; the row (or its file name, for the keyboard) opens the import. */
export function ImportRow({ item, showSeller, href, onOpen, now }: OpenableRowProps<Import>) {
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
