import { Box, Flex, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { plural } from '../../../../contracts/domain/format';
import {
  type BatchStatus,
  batchStatuses,
  batchStatusLabels,
  IMPORT_PAGE_SIZES,
} from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { PageSizeSelect, RefreshButton } from '../../../ui/list-controls';
import { EmptyListState, ErrorState } from '../../../ui/page-states';
import { Pager } from '../../../ui/pager';
import { SearchBox } from '../../../ui/search-box';
import { useImportList } from '../shared/api';
import { SampleSheetLink } from '../shared/SampleSheetLink';
import { type ImportsView, importsHref, withImport } from '../shared/url-state';
import { ImportTable } from './ImportTable';

/** The imports tab: search, status filter, refresh, the server-paged table, or why it is empty. */
export function ImportList({
  view,
  setView,
  showSeller,
}: {
  view: ImportsView;
  setView: (patch: Partial<ImportsView>, options?: { replace?: boolean }) => void;
  showSeller: boolean;
}) {
  const list = useImportList({
    query: view.q,
    status: view.status,
    skip: (view.page - 1) * view.size,
    limit: view.size,
  });
  const rows = list.data?.result ?? [];
  const filtered = Boolean(view.q || view.status);

  return (
    <Stack gap="4">
      <Flex gap="3" wrap="wrap" align="center">
        <SearchBox
          value={view.q}
          onSearch={(q) => setView({ q, page: 1 }, { replace: true })}
          label="Search imports"
          placeholder={showSeller ? 'Search by file or seller' : 'Search by file name'}
          data-tour="import-search"
          maxW="80"
        />
        <NativeSelect.Root size="md" width="48">
          <NativeSelect.Field
            aria-label="Status"
            value={view.status ?? ''}
            onChange={(event) =>
              setView({ status: (event.target.value || null) as BatchStatus | null, page: 1 })
            }
          >
            <option value="">All statuses</option>
            {batchStatuses.map((status) => (
              <option key={status} value={status}>
                {batchStatusLabels[status]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching && !list.isPending} />
        <HStack gap="2" ms="auto">
          <PageSizeSelect
            sizes={IMPORT_PAGE_SIZES}
            value={view.size}
            onChange={(size) => setView({ size, page: 1 })}
          />
        </HStack>
      </Flex>
      <Box data-tour="import-table">
        {list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : !list.isPending && rows.length === 0 ? (
          <Stack align="center" gap="0">
            <EmptyListState
              title={filtered ? 'No import matches' : 'No imports yet'}
              description={
                filtered
                  ? 'Try another file or seller name, or another status.'
                  : 'Upload a CSV or XLSX sheet: every row is checked and you see what it would change before anything moves to staging.'
              }
              pastTheEnd={view.page > 1}
              onFirstPage={() => setView({ page: 1 })}
            />
            {filtered ? null : <SampleSheetLink />}
          </Stack>
        ) : (
          <Stack
            gap="0"
            opacity={list.isPlaceholderData ? 0.6 : 1}
            transition="opacity 0.15s"
            aria-busy={list.isFetching}
          >
            <ImportTable
              rows={rows}
              loading={list.isPending}
              showSeller={showSeller}
              hrefOf={(item) => importsHref(withImport(view, item.id))}
              onOpen={(item) => setView(withImport(view, item.id))}
            />
            {list.data ? (
              <HStack justify="space-between" wrap="wrap">
                <Text fontSize="sm" color="fg.muted" data-testid="import-total">
                  {plural(list.data.count, 'import')}
                </Text>
                <Pager
                  skip={(view.page - 1) * view.size}
                  limit={view.size}
                  count={list.data.count}
                  onSkipChange={(skip) => setView({ page: Math.floor(skip / view.size) + 1 })}
                  label="Import pages"
                />
              </HStack>
            ) : null}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}
