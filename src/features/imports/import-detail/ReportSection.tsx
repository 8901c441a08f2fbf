import { Alert, Box, Flex, Heading, HStack, Stack, Table, Text, Wrap } from '@chakra-ui/react';
import { plural } from '../../../../contracts/domain/format';
import { rowResultLabels, rowResults } from '../../../../contracts/imports';
import { FilterSelect } from '../../../ui/filter-select';
import { SearchBox } from '../../../ui/search-box';
import { useBatchReport } from '../shared/api';
import { isValidated, outcomeChips, outcomePalette } from '../shared/format';
import { CountChip } from './CountChip';
import { ErrorSheetMenu } from './ErrorSheetMenu';
import { columnLetter } from './mapping';
import { NotValidated } from './NotValidated';
import { REPORT_PAGE_SIZE, ReportTable, type RowsSectionProps } from './ReportTable';

/** The exact counts as filter chips: pressing one shows only its rows (they add up to the total). */
function OutcomeChips({ item, view, setView }: RowsSectionProps) {
  return (
    <Wrap gap="2" role="group" aria-label="Rows by outcome" data-tour="report-counts">
      {outcomeChips(item.batch.counts).map((chip) => (
        <CountChip
          key={chip.outcome ?? 'all'}
          pressed={view.outcome === chip.outcome}
          palette={chip.outcome ? outcomePalette[chip.outcome] : 'gray'}
          count={chip.count}
          testId={`outcome-chip-${chip.outcome ?? 'all'}`}
          onPress={() => setView({ outcome: chip.outcome, rowPage: 1 })}
        >
          {chip.label}
        </CountChip>
      ))}
    </Wrap>
  );
}

function TopErrors({
  errors,
}: {
  errors: { code: string; header: string | null; message: string; count: number }[];
}) {
  if (errors.length === 0) return null;
  return (
    <Stack gap="2">
      <Heading size="sm">Most frequent errors</Heading>
      <Table.Root size="sm" aria-label="Most frequent errors" variant="outline">
        <Table.Body>
          {errors.map((error) => (
            <Table.Row key={`${error.code}:${error.header ?? ''}:${error.message}`}>
              <Table.Cell>
                {error.header ? (
                  <Text as="span" fontWeight="medium">
                    {error.header}:{' '}
                  </Text>
                ) : null}
                {error.message}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {plural(error.count, 'row')}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}

/** Columns mapped to nothing are listed, never dropped silently. */
function UnmappedColumns({ columns }: { columns: { index: number; header: string }[] }) {
  if (columns.length === 0) return null;
  return (
    <Alert.Root status="warning" data-testid="unmapped-columns">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {columns.length === 1 ? 'One column is' : `${columns.length} columns are`} not imported
        </Alert.Title>
        <Alert.Description>
          <Box as="ul" listStyleType="none">
            {columns.map((column) => (
              <li key={column.index}>
                {columnLetter(column.index)} “{column.header}” — not imported
              </li>
            ))}
          </Box>
          Map them in Mapping if they hold product data.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** The report: exact counts, the most frequent errors, what is not imported, and the rows, filtered. */
export function ReportSection({
  item,
  view,
  setView,
  canDownloadErrors,
}: RowsSectionProps & { canDownloadErrors: boolean }) {
  const { batch } = item;
  const ready = isValidated(batch);
  const report = useBatchReport(
    {
      batch: batch.id,
      outcome: view.outcome ?? undefined,
      result: view.result ?? undefined,
      search: view.rowSearch,
      skip: (view.rowPage - 1) * REPORT_PAGE_SIZE,
      limit: REPORT_PAGE_SIZE,
    },
    ready,
  );
  if (!ready) return <NotValidated batch={batch} />;
  const data = report.data;
  const moved = batch.moveKind !== null;
  const filtered = Boolean(view.outcome || view.result || view.rowSearch);

  return (
    <Stack gap="5">
      <OutcomeChips item={item} view={view} setView={setView} />
      {data ? <UnmappedColumns columns={data.unmappedColumns} /> : null}
      {data ? <TopErrors errors={data.topErrors} /> : null}
      <Flex gap="3" wrap="wrap" align="center">
        <SearchBox
          value={view.rowSearch}
          onSearch={(rowSearch) => setView({ rowSearch, rowPage: 1 }, { replace: true })}
          label="Search rows"
          placeholder="Search by SKU or title"
          maxW="72"
        />
        {moved ? (
          <FilterSelect
            label="Result"
            allLabel="Every result"
            values={rowResults}
            labels={rowResultLabels}
            value={view.result}
            onChange={(result) => setView({ result, rowPage: 1 })}
            width="56"
          />
        ) : null}
        <HStack ms="auto">
          {canDownloadErrors && batch.counts.error > 0 ? <ErrorSheetMenu batch={batch.id} /> : null}
        </HStack>
      </Flex>
      <ReportTable
        report={report}
        page={view.rowPage}
        onPageChange={(rowPage) => setView({ rowPage })}
        label="Report rows"
        pagerLabel="Report pages"
        empty={{
          title: filtered ? 'No row matches' : 'The sheet has no data rows',
          description: filtered
            ? 'Choose another outcome or result, or clear the search.'
            : 'Add rows under the header row and upload it again.',
        }}
        showResult={moved}
      />
    </Stack>
  );
}
