import { Alert, Button, HStack, Stack, Text, Wrap } from '@chakra-ui/react';
import { formatNumber } from '../../../../contracts/domain/format';
import {
  blankPolicyLabels,
  type Import,
  rowOutcomeLabels,
  rowResultLabels,
} from '../../../../contracts/imports';
import { useBatchReport } from '../shared/api';
import { ResultBadge } from '../shared/Badges';
import { defaultPreviewOutcome, isValidated, outcomePalette, resultSummary } from '../shared/format';
import { previewOutcomes } from '../shared/url-state';
import { CountChip } from './CountChip';
import { MoveActions } from './MoveActions';
import { NotValidated } from './NotValidated';
import { REPORT_PAGE_SIZE, ReportTable, type RowsSectionProps } from './ReportTable';

/** What the moves did so far: each result with its count; conflicts are called out. */
function MoveResults({ item }: { item: Import }) {
  const results = resultSummary(item.batch.results);
  if (item.batch.moveKind === null || results.length === 0) return null;
  return (
    <Stack gap="2" data-testid="move-results">
      <Wrap gap="3" align="center">
        <Text fontWeight="medium">Moved so far:</Text>
        {results.map(({ result, count }) => (
          <HStack key={result} gap="1">
            <ResultBadge result={result} />
            <Text fontVariantNumeric="tabular-nums">{formatNumber(count)}</Text>
          </HStack>
        ))}
      </Wrap>
      {item.batch.results.conflict > 0 ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            {formatNumber(item.batch.results.conflict)}{' '}
            {item.batch.results.conflict === 1 ? 'product' : 'products'} changed in staging since this preview
            and {item.batch.results.conflict === 1 ? 'was' : 'were'} not overwritten (
            {rowResultLabels.conflict.toLowerCase()} rows are highlighted below).
          </Alert.Title>
        </Alert.Root>
      ) : null}
    </Stack>
  );
}

/**
 * The dry run: what moving would do, row by row — new products with their values, updates with each
 * field before → after, unchanged rows — and the moves themselves. After a move each row shows its result.
 */
export function PreviewSection({ item, view, setView, canMove }: RowsSectionProps & { canMove: boolean }) {
  const { batch } = item;
  const ready = isValidated(batch);
  const outcome = view.change ?? defaultPreviewOutcome(batch.counts);
  const report = useBatchReport(
    {
      batch: batch.id,
      outcome,
      skip: (view.previewPage - 1) * REPORT_PAGE_SIZE,
      limit: REPORT_PAGE_SIZE,
    },
    ready,
  );
  if (!ready) return <NotValidated batch={batch} />;

  return (
    <Stack gap="5">
      {canMove ? <MoveActions batch={batch} /> : null}
      <MoveResults item={item} />
      <Text fontSize="sm" color="fg.muted" data-testid="blank-policy">
        Updates: {blankPolicyLabels[batch.blankPolicy].charAt(0).toLowerCase()}
        {blankPolicyLabels[batch.blankPolicy].slice(1)}.{' '}
        <Button
          variant="plain"
          size="sm"
          colorPalette="brand"
          px="0"
          h="auto"
          onClick={() => setView({ section: 'mapping' })}
        >
          Change this in Mapping
        </Button>
      </Text>
      <Wrap gap="2" role="group" aria-label="Preview rows">
        {previewOutcomes.map((kind) => (
          <CountChip
            key={kind}
            pressed={kind === outcome}
            palette={outcomePalette[kind]}
            count={batch.counts[kind]}
            testId={`preview-chip-${kind}`}
            onPress={() => setView({ change: kind, previewPage: 1 })}
          >
            {rowOutcomeLabels[kind]}
          </CountChip>
        ))}
      </Wrap>
      <ReportTable
        report={report}
        page={view.previewPage}
        onPageChange={(previewPage) => setView({ previewPage })}
        label="Move preview"
        pagerLabel="Preview pages"
        empty={{
          title: `No ${rowOutcomeLabels[outcome].toLowerCase()} rows`,
          description: 'Choose another kind of row above.',
        }}
        showResult={batch.moveKind !== null}
        showChanges
      />
    </Stack>
  );
}
