import { HStack, Stack, Table } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getErrorMessage } from '../services/api-error';
import { EmptyListState, ErrorState, LoadingState } from './page-states';
import { Pager } from './pager';
import { TableScroll } from './table-scroll';

/**
 * A server-paged list's table: a small table (`columns` are its header cells, `children` its rows),
 * scrolling sideways with a hint when wide, with the pager under it. `stale` dims the rows while the
 * next page loads in their place (placeholder data), `busy` tells screen readers a fetch is running.
 * `compact` is for tabs and side lists: the compact pager, spaced from the table here. `framed` draws a
 * border round the table, `interactive` highlights the row under the pointer (rows that open something),
 * and `summary` ("34 imports") stands at the start of the pager's line.
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
  framed = false,
  interactive = false,
  summary,
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
  framed?: boolean;
  interactive?: boolean;
  summary?: ReactNode;
  children: ReactNode;
}) {
  const pager = (
    <Pager
      compact={compact}
      label={pagerLabel}
      skip={skip}
      limit={limit}
      count={count}
      onSkipChange={onSkipChange}
    />
  );
  return (
    <Stack gap={compact ? '3' : '0'} opacity={stale ? 0.6 : 1} aria-busy={busy}>
      <TableScroll label={label} {...(framed ? { borderWidth: '1px', rounded: 'md' } : {})}>
        <Table.Root size="sm" aria-label={label} interactive={interactive}>
          <Table.Header>
            <Table.Row>{columns}</Table.Row>
          </Table.Header>
          <Table.Body>{children}</Table.Body>
        </Table.Root>
      </TableScroll>
      {summary ? (
        <HStack justify="space-between" wrap="wrap">
          {summary}
          {pager}
        </HStack>
      ) : (
        pager
      )}
    </Stack>
  );
}

/** What a page query answers: one page of rows and the total. */
export interface PageResult<Row> {
  result: Row[];
  count: number;
}

/**
 * A PagedTable over one page query, with the states around it: a skeleton while the first page loads,
 * the failure with "Try again", the empty state (or "past the end" when a page beyond the last is
 * asked), else the rows that `children` draws.
 */
export function PagedQueryTable<Row>({
  query,
  loadingLabel,
  loadingRows = 3,
  empty,
  skip,
  onSkipChange,
  children,
  ...table
}: {
  query: UseQueryResult<PageResult<Row>>;
  loadingLabel: string;
  loadingRows?: number;
  empty: { title: string; description: string };
  label: string;
  pagerLabel: string;
  columns: ReactNode;
  skip: number;
  limit: number;
  onSkipChange: (skip: number) => void;
  compact?: boolean;
  busy?: boolean;
  framed?: boolean;
  interactive?: boolean;
  summary?: ReactNode;
  children: (rows: Row[]) => ReactNode;
}) {
  if (query.isPending) return <LoadingState rows={loadingRows} label={loadingLabel} />;
  if (query.isError)
    return <ErrorState message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (query.data.result.length === 0)
    return (
      <EmptyListState
        {...empty}
        pastTheEnd={skip > 0 && query.data.count > 0}
        onFirstPage={() => onSkipChange(0)}
      />
    );
  return (
    <PagedTable
      {...table}
      skip={skip}
      count={query.data.count}
      onSkipChange={onSkipChange}
      stale={query.isPlaceholderData}
    >
      {children(query.data.result)}
    </PagedTable>
  );
}
