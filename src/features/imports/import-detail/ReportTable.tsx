import { Box, Stack, Table, Text } from '@chakra-ui/react';
import type { Import, ReportRow } from '../../../../contracts/imports';
import { PagedQueryTable } from '../../../ui/paged-table';
import type { useBatchReport } from '../shared/api';
import { OutcomeBadge, ResultBadge } from '../shared/Badges';
import { cellErrorText, changeText, duplicateText } from '../shared/format';
import type { ImportsView, SetImportsView } from '../shared/url-state';

export const REPORT_PAGE_SIZE = 50;

/** What the report and the preview, the two sections over a batch's rows, are drawn from. */
export interface RowsSectionProps {
  item: Import;
  view: ImportsView;
  setView: SetImportsView;
}

/** Why a row is what it is: its errors with their cells, what it duplicates, or what it changes. */
function RowDetails({ row, showChanges }: { row: ReportRow; showChanges: boolean }) {
  if (row.errors.length > 0) {
    return (
      <Box as="ul" listStyleType="none" fontSize="sm" color="fg.error">
        {row.errors.map((error, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a row's errors have no identity of their own
          <li key={index} data-testid="cell-error">
            {cellErrorText(error)}
          </li>
        ))}
      </Box>
    );
  }
  if (row.duplicateOf) {
    return (
      <Text fontSize="sm" color="orange.fg">
        {duplicateText(row.duplicateOf)}
      </Text>
    );
  }
  if (showChanges && row.changes.length > 0) {
    return (
      <Box as="ul" listStyleType="none" fontSize="sm" data-testid="row-changes">
        {row.changes.map((change) => (
          <li key={change.field}>{changeText(change, row.outcome)}</li>
        ))}
      </Box>
    );
  }
  return <Text color="fg.muted">—</Text>;
}

/** A batch row: line, outcome, SKU, title and why; once a move ran, its result too. */
function ReportRowView({
  row,
  showResult,
  showChanges,
}: {
  row: ReportRow;
  showResult: boolean;
  showChanges: boolean;
}) {
  return (
    <Table.Row
      data-testid="report-row"
      data-outcome={row.outcome}
      data-result={row.result ?? undefined}
      bg={row.result === 'conflict' ? 'red.subtle' : undefined}
    >
      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
        {row.line}
      </Table.Cell>
      <Table.Cell>
        <OutcomeBadge outcome={row.outcome} />
      </Table.Cell>
      <Table.Cell fontFamily="mono" fontSize="xs">
        {row.sku || '—'}
      </Table.Cell>
      {/* Title and details wrap (the box keeps other cells on one line): every column fits
          1440 px (issue 26). */}
      <Table.Cell whiteSpace="normal">
        <Text lineClamp={2} minW="32" maxW="64" title={row.title || undefined}>
          {row.title || '—'}
        </Text>
      </Table.Cell>
      <Table.Cell whiteSpace="normal" minW="64">
        <RowDetails row={row} showChanges={showChanges} />
      </Table.Cell>
      {showResult ? (
        <Table.Cell>
          {row.result ? (
            <Stack gap="1" align="start">
              <ResultBadge result={row.result} />
              {row.resultMessage ? (
                <Text
                  fontSize="xs"
                  whiteSpace="normal"
                  maxW="56"
                  color={row.result === 'conflict' ? 'fg.error' : 'fg.muted'}
                >
                  {row.resultMessage}
                </Text>
              ) : null}
            </Stack>
          ) : (
            <Text color="fg.muted">Not moved</Text>
          )}
        </Table.Cell>
      ) : null}
    </Table.Row>
  );
}

/**
 * A page of a batch's rows (the report's or the preview's), with its pager, or why there is none. Once
 * a move ran, each row's result too, and a conflict (the product changed since the preview) stands out
 * with its message.
 */
export function ReportTable({
  report,
  page,
  onPageChange,
  label,
  pagerLabel,
  empty,
  showResult,
  showChanges = false,
}: {
  report: ReturnType<typeof useBatchReport>;
  /** 1-based, as the URL keeps it. */
  page: number;
  onPageChange: (page: number) => void;
  label: string;
  pagerLabel: string;
  empty: { title: string; description: string };
  showResult: boolean;
  /** The preview shows each field before → after; the report shows problems. */
  showChanges?: boolean;
}) {
  return (
    <PagedQueryTable
      query={report}
      loadingLabel="Loading the rows"
      loadingRows={6}
      empty={empty}
      label={label}
      pagerLabel={pagerLabel}
      columns={
        <>
          <Table.ColumnHeader w="16" textAlign="end">
            Line
          </Table.ColumnHeader>
          <Table.ColumnHeader>Outcome</Table.ColumnHeader>
          <Table.ColumnHeader>SKU</Table.ColumnHeader>
          <Table.ColumnHeader>Title</Table.ColumnHeader>
          <Table.ColumnHeader>{showChanges ? 'Changes' : 'Details'}</Table.ColumnHeader>
          {showResult ? <Table.ColumnHeader>Result</Table.ColumnHeader> : null}
        </>
      }
      skip={(page - 1) * REPORT_PAGE_SIZE}
      limit={REPORT_PAGE_SIZE}
      onSkipChange={(skip) => onPageChange(Math.floor(skip / REPORT_PAGE_SIZE) + 1)}
      busy={report.isFetching}
      framed
    >
      {(rows) =>
        rows.map((row) => (
          <ReportRowView key={row.line} row={row} showResult={showResult} showChanges={showChanges} />
        ))
      }
    </PagedQueryTable>
  );
}
