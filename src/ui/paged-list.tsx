import { HStack, Stack } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getErrorMessage } from '../services/api-error';
import { EmptyListState, ErrorState, LoadingState } from './page-states';
import { Pager } from './pager';

/**
 * A list page's body over its page query, with the states around it: the failure with "Try again", a
 * skeleton while the first page loads, the empty state (or "past the end" on a page beyond the last),
 * else the page's table (`children`), dimmed while the next page loads in its place, with the summary
 * ("34 queries") and the pager under it. Pages are 1-based, as list URLs write them.
 */
export function PagedList({
  query,
  empty,
  loadingLabel,
  emptyState,
  page,
  size,
  total,
  onPage,
  pagerLabel,
  summary,
  children,
}: {
  query: Pick<
    UseQueryResult,
    'isError' | 'error' | 'isPending' | 'isPlaceholderData' | 'isFetching' | 'refetch'
  >;
  /** The page has no rows. */
  empty: boolean;
  loadingLabel: string;
  emptyState: { title: string; description: string };
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  pagerLabel: string;
  summary: ReactNode;
  children: ReactNode;
}) {
  if (query.isError)
    return <ErrorState message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <LoadingState label={loadingLabel} />;
  if (empty) return <EmptyListState {...emptyState} pastTheEnd={page > 1} onFirstPage={() => onPage(1)} />;
  return (
    <Stack gap="0" opacity={query.isPlaceholderData ? 0.6 : 1} aria-busy={query.isFetching}>
      {children}
      <HStack justify="space-between" wrap="wrap">
        {summary}
        <Pager
          skip={(page - 1) * size}
          limit={size}
          count={total}
          onSkipChange={(skip) => onPage(Math.floor(skip / size) + 1)}
          label={pagerLabel}
        />
      </HStack>
    </Stack>
  );
}
