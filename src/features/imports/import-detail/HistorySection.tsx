import { Heading, Stack, Table } from '@chakra-ui/react';
import { useState } from 'react';
import { formatDateTime } from '../../../../contracts/domain/format';
import { type Import, moveKindLabels } from '../../../../contracts/imports';
import { relativeTime } from '../../../lib/relative-time';
import { HistoryTimeline } from '../../../ui/history-timeline';
import { Pager } from '../../../ui/pager';
import { TableScroll } from '../../../ui/table-scroll';
import { useBatches, useImportHistory } from '../shared/api';
import { BatchStatusBadge, OutcomeCountsLine } from '../shared/Badges';
import { importHistoryWords } from '../shared/history-format';

const RUNS_PAGE_SIZE = 10;

/** Each validation run of the import (the upload, then every reprocess), newest first. */
function BatchRuns({ item }: { item: Import }) {
  const [skip, setSkip] = useState(0);
  const batches = useBatches(item.id, skip, RUNS_PAGE_SIZE);
  if (!batches.data || batches.data.count <= 1) return null;
  return (
    <Stack gap="2">
      <Heading size="sm">Validation runs</Heading>
      <TableScroll label="Batches" borderWidth="1px" rounded="md">
        <Table.Root size="sm" aria-label="Batches">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Batch</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              <Table.ColumnHeader>Rows</Table.ColumnHeader>
              <Table.ColumnHeader>Last move</Table.ColumnHeader>
              <Table.ColumnHeader>By</Table.ColumnHeader>
              <Table.ColumnHeader>When</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {batches.data.result.map((batch) => (
              <Table.Row key={batch.id} fontWeight={batch.id === item.batch.id ? 'semibold' : undefined}>
                <Table.Cell>
                  {batch.number}
                  {batch.id === item.batch.id ? ' (current)' : ''}
                </Table.Cell>
                <Table.Cell>
                  <BatchStatusBadge status={batch.status} />
                </Table.Cell>
                <Table.Cell>
                  <OutcomeCountsLine counts={batch.counts} />
                </Table.Cell>
                <Table.Cell>{batch.moveKind ? moveKindLabels[batch.moveKind] : '—'}</Table.Cell>
                <Table.Cell>{batch.createdBy.name}</Table.Cell>
                <Table.Cell whiteSpace="nowrap" title={formatDateTime(batch.createdAt)}>
                  {relativeTime(batch.createdAt)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScroll>
      <Pager
        compact
        skip={skip}
        limit={RUNS_PAGE_SIZE}
        count={batches.data.count}
        onSkipChange={setSkip}
        label="Batch pages"
      />
    </Stack>
  );
}

/** The import's runs and its update history: who uploaded, revalidated, moved, stopped… and when. */
export function HistorySection({ item }: { item: Import }) {
  const history = useImportHistory(item.id);
  return (
    <Stack gap="6">
      <BatchRuns item={item} />
      <Stack gap="2">
        <Heading size="sm">Update history</Heading>
        <HistoryTimeline
          history={history}
          words={importHistoryWords}
          emptyDescription="The upload, every revalidation, move, stop and resume is listed here with who did it."
        />
      </Stack>
    </Stack>
  );
}
