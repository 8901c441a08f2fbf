import { Box, Center, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { plural } from '../../../../contracts/domain/format';
import { batchStatuses, batchStatusLabels, IMPORT_PAGE_SIZES } from '../../../../contracts/imports';
import { FilterSelect } from '../../../ui/filter-select';
import { PageSizeSelect, RefreshButton } from '../../../ui/list-controls';
import { PagedQueryTable } from '../../../ui/paged-table';
import { SearchBox } from '../../../ui/search-box';
import { useImportList } from '../shared/api';
import { SampleSheetLink } from '../shared/SampleSheetLink';
import { type ImportsView, importsHref, type SetImportsView, withImport } from '../shared/url-state';
import { ImportRow, importColumns } from './ImportTable';

/** The imports tab: search, status filter, refresh, the server-paged table, or why it is empty. */
export function ImportList({
  view,
  setView,
  showSeller,
}: {
  view: ImportsView;
  setView: SetImportsView;
  showSeller: boolean;
}) {
  const list = useImportList({
    query: view.q,
    status: view.status,
    skip: (view.page - 1) * view.size,
    limit: view.size,
  });
  const filtered = Boolean(view.q || view.status);
  // With nothing uploaded yet, a sample sheet is the way to start.
  const firstImport = !filtered && list.data?.result.length === 0 && !list.isError;

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
        <FilterSelect
          label="Status"
          values={batchStatuses}
          labels={batchStatusLabels}
          value={view.status}
          onChange={(status) => setView({ status, page: 1 })}
          width="48"
        />
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
        <PagedQueryTable
          query={list}
          loadingLabel="Loading imports"
          loadingRows={6}
          empty={{
            title: filtered ? 'No import matches' : 'No imports yet',
            description: filtered
              ? 'Try another file or seller name, or another status.'
              : 'Upload a CSV or XLSX sheet: every row is checked and you see what it would change before anything moves to staging.',
          }}
          label="Imports"
          pagerLabel="Import pages"
          columns={importColumns(showSeller)}
          skip={(view.page - 1) * view.size}
          limit={view.size}
          onSkipChange={(skip) => setView({ page: Math.floor(skip / view.size) + 1 })}
          busy={list.isFetching}
          framed
          interactive
          summary={
            <Text fontSize="sm" color="fg.muted" data-testid="import-total">
              {plural(list.data?.count ?? 0, 'import')}
            </Text>
          }
        >
          {(rows) => {
            const now = new Date();
            return rows.map((item) => (
              <ImportRow
                key={item.id}
                item={item}
                showSeller={showSeller}
                href={importsHref(withImport(view, item.id))}
                onOpen={() => setView(withImport(view, item.id))}
                now={now}
              />
            ));
          }}
        </PagedQueryTable>
        {firstImport ? (
          <Center>
            <SampleSheetLink />
          </Center>
        ) : null}
      </Box>
    </Stack>
  );
}
