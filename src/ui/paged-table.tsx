import { Stack, Table } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Pager } from './pager';

/**
 * A server-paged list's table: a small scrolling table (`columns` are its header cells, `children` its
 * rows) with the pager under it. `stale` dims the rows while the next page loads in their place
 * (placeholder data), `busy` tells screen readers a fetch is running. `compact` is for tabs and side
 * lists: the compact pager, spaced from the table here.
 */
export function PagedTable({
  label,
  pagerLabel,
  columns,
  skip,
  limit,
  count,
  onSkipChange,
  compact = false,
  stale = false,
  busy,
  children,
}: {
  label: string;
  pagerLabel: string;
  columns: ReactNode;
  skip: number;
  limit: number;
  count: number;
  onSkipChange: (skip: number) => void;
  compact?: boolean;
  stale?: boolean;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack gap={compact ? '3' : '0'} opacity={stale ? 0.6 : 1} aria-busy={busy}>
      <Table.ScrollArea>
        <Table.Root size="sm" aria-label={label}>
          <Table.Header>
            <Table.Row>{columns}</Table.Row>
          </Table.Header>
          <Table.Body>{children}</Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Pager
        compact={compact}
        label={pagerLabel}
        skip={skip}
        limit={limit}
        count={count}
        onSkipChange={onSkipChange}
      />
    </Stack>
  );
}
