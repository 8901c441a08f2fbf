import { Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../../contracts/domain/format';
import type { Import } from '../../../../contracts/imports';
import { formatBytes } from '../../../lib/file-limits';
import { relativeTime } from '../../../lib/relative-time';
import { TableScroll } from '../../../ui/table-scroll';
import { BatchStatusBadge, OutcomeCountsLine } from '../shared/Badges';

/** One page of imports; a row (or its file name, for the keyboard) opens the import. */
export function ImportTable({
  rows,
  loading,
  showSeller,
  hrefOf,
  onOpen,
}: {
  rows: Import[];
  loading: boolean;
  showSeller: boolean;
  hrefOf: (item: Import) => string;
  onOpen: (item: Import) => void;
}) {
  const now = new Date();
  const columns = showSeller ? 6 : 5;
  return (
    <TableScroll label="Imports" borderWidth="1px" rounded="md">
      <Table.Root size="sm" aria-label="Imports" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>File</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Rows</Table.ColumnHeader>
            <Table.ColumnHeader>Uploaded by</Table.ColumnHeader>
            <Table.ColumnHeader>When</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {loading
            ? Array.from({ length: 6 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: skeleton rows have no identity
                <Table.Row key={index}>
                  <Table.Cell colSpan={columns}>
                    <Skeleton height="8" />
                  </Table.Cell>
                </Table.Row>
              ))
            : rows.map((item) => (
                <Table.Row
                  key={item.id}
                  data-testid="import-row"
                  cursor="pointer"
                  onClick={(event) => {
                    // The link handles its own click (and a middle click opens a tab).
                    if (!(event.target as HTMLElement).closest('a')) onOpen(item);
                  }}
                >
                  <Table.Cell>
                    <Stack gap="0">
                      <Link asChild fontWeight="medium" colorPalette="brand">
                        <RouterLink href={hrefOf(item)}>{item.fileName}</RouterLink>
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
                </Table.Row>
              ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}
