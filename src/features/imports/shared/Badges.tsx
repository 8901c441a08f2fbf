import { Badge, HStack, Text } from '@chakra-ui/react';
import { plural } from '../../../../contracts/domain/format';
import {
  type BatchStatus,
  batchStatusLabels,
  type OutcomeCounts,
  type RequestStatus,
  type RowOutcome,
  type RowResult,
  requestStatusLabels,
  rowOutcomeLabels,
  rowOutcomes,
  rowResultLabels,
} from '../../../../contracts/imports';
import {
  batchStatusPalette,
  outcomePalette,
  outcomeShortLabels,
  requestStatusPalette,
  resultPalette,
} from './format';

export function BatchStatusBadge({ status }: { status: BatchStatus }) {
  return (
    <Badge colorPalette={batchStatusPalette[status]} variant="subtle" data-testid="batch-status">
      {batchStatusLabels[status]}
    </Badge>
  );
}

export function OutcomeBadge({ outcome }: { outcome: RowOutcome }) {
  return (
    <Badge colorPalette={outcomePalette[outcome]} variant="subtle" whiteSpace="nowrap">
      {rowOutcomeLabels[outcome]}
    </Badge>
  );
}

export function ResultBadge({ result }: { result: RowResult }) {
  return (
    <Badge colorPalette={resultPalette[result]} variant="solid" whiteSpace="nowrap">
      {rowResultLabels[result]}
    </Badge>
  );
}

export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge colorPalette={requestStatusPalette[status]} variant="subtle" data-testid="request-status">
      {requestStatusLabels[status]}
    </Badge>
  );
}

/** "12 new · 3 update · …": each outcome that has rows, in its colour; the zeros are left out. */
export function OutcomeCountsLine({ counts }: { counts: OutcomeCounts }) {
  const shown = rowOutcomes.filter((outcome) => counts[outcome] > 0);
  if (shown.length === 0) return <Text color="fg.muted">—</Text>;
  return (
    <HStack gap="2" wrap="wrap" fontSize="xs" aria-label={plural(counts.total, 'row')}>
      {shown.map((outcome) => (
        <Text
          as="span"
          key={outcome}
          color={`${outcomePalette[outcome]}.fg`}
          whiteSpace="nowrap"
          fontVariantNumeric="tabular-nums"
        >
          {plural(counts[outcome], ...outcomeShortLabels[outcome])}
        </Text>
      ))}
    </HStack>
  );
}
