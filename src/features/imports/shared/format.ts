// How the Imports page words and colours things: statuses, outcomes and results as badges, a cell error
// with its cell, a duplicate with what it duplicates, a change before → after, a running batch's
// progress, and the questions the confirm dialogs ask. Pure, so the tests read it without React.

import { formatNumber, plural } from '../../../../contracts/domain/format';
import {
  type Batch,
  type BatchStatus,
  type CellError,
  type ImportFieldChange,
  MERGE_RULE,
  type MoveKind,
  type OutcomeCounts,
  type ReportRow,
  type RequestStatus,
  type RowOutcome,
  type RowResult,
  rowOutcomeLabels,
  rowOutcomes,
} from '../../../../contracts/imports';
import type { StatusPalette } from '../../../lib/status-color';

type Palette = StatusPalette | 'purple' | 'teal';

export const batchStatusPalette: Record<BatchStatus, Palette> = {
  queued: 'gray',
  validating: 'yellow',
  ready: 'blue',
  moving: 'yellow',
  moved: 'green',
  stopped: 'orange',
  failed: 'red',
};

export const outcomePalette: Record<RowOutcome, Palette> = {
  create: 'green',
  update: 'blue',
  unchanged: 'gray',
  duplicate: 'orange',
  error: 'red',
};

export const resultPalette: Record<RowResult, Palette> = {
  created: 'green',
  updated: 'blue',
  unchanged: 'gray',
  merged: 'teal',
  conflict: 'red',
  no_match: 'orange',
  skipped: 'gray',
};

export const requestStatusPalette: Record<RequestStatus, Palette> = {
  open: 'blue',
  in_progress: 'yellow',
  done: 'green',
  rejected: 'red',
};

/** "D17 · Price: Write a number like 1299.50." — the cell first, so the user can go straight to it. */
export function cellErrorText(error: CellError): string {
  const where = [error.cell, error.header].filter(Boolean).join(' · ');
  return where ? `${where}: ${error.message}` : error.message;
}

/** What a duplicate row duplicates: an earlier line of the sheet, or a product already in staging. */
export function duplicateText(duplicate: NonNullable<ReportRow['duplicateOf']>): string {
  const what =
    duplicate.line !== null
      ? `line ${duplicate.line} (SKU ${duplicate.sku})`
      : `the staging product ${duplicate.sku}${duplicate.title ? ` “${duplicate.title}”` : ''}`;
  return `Duplicate of ${what}: ${duplicate.reason}`;
}

const shown = (value: string | null) => (value === null || value === '' ? '—' : value);

/** "Price: 1200 → 1299.50"; a new product's values have no "before". */
export function changeText(change: ImportFieldChange, outcome: RowOutcome): string {
  if (outcome === 'create') return `${change.label}: ${shown(change.after)}`;
  return `${change.label}: ${shown(change.before)} → ${shown(change.after)}`;
}

export interface OutcomeChip {
  /** null: every row. */
  outcome: RowOutcome | null;
  label: string;
  count: number;
}

/** The report's counts as filter chips: every row, then each outcome (they add up to the total). */
export function outcomeChips(counts: OutcomeCounts): OutcomeChip[] {
  return [
    { outcome: null, label: 'All rows', count: counts.total },
    ...rowOutcomes.map((outcome) => ({ outcome, label: rowOutcomeLabels[outcome], count: counts[outcome] })),
  ];
}

/** The short words of the list's counts column, singular and plural ("1 duplicate", "3 duplicates"). */
export const outcomeShortLabels: Record<RowOutcome, readonly [one: string, many: string]> = {
  create: ['new', 'new'],
  update: ['update', 'updates'],
  unchanged: ['unchanged', 'unchanged'],
  duplicate: ['duplicate', 'duplicates'],
  error: ['error', 'errors'],
};

/** Rows per second as the progress line says it (nothing before the job has measured it). */
export function formatRate(rowsPerSecond: number | null): string | null {
  if (rowsPerSecond === null || !Number.isFinite(rowsPerSecond) || rowsPerSecond < 0) return null;
  const rounded = rowsPerSecond >= 10 ? Math.round(rowsPerSecond) : Math.round(rowsPerSecond * 10) / 10;
  return `${formatNumber(rounded)} rows/s`;
}

export interface ProgressFigures {
  /** What the progress bar names. */
  label: string;
  /** 0–100, or null while the share is not known yet. */
  percent: number | null;
  /** "1,200 rows read · 45%" / "300 of 1,000 rows moved". */
  text: string;
  rate: string | null;
  /** "about 12 s left", while the step runs and its speed is known. */
  eta: string | null;
}

/** "about 40 s left" / "about 3 min left"; null when nothing is known or left. */
export function formatEta(rowsLeft: number, rowsPerSecond: number | null): string | null {
  if (!rowsPerSecond || !Number.isFinite(rowsPerSecond) || rowsPerSecond <= 0) return null;
  if (!Number.isFinite(rowsLeft) || rowsLeft <= 0) return null;
  const seconds = Math.ceil(rowsLeft / rowsPerSecond);
  if (seconds < 60) return `about ${Math.max(seconds, 1)} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${Math.round(seconds / 360) / 10} h left`;
}

/** A running, stopped or failed batch's progress, for the step it is in. */
export function progressFigures(batch: Batch): ProgressFigures {
  const rate = formatRate(batch.rowsPerSecond);
  const running = batch.status === 'validating' || batch.status === 'moving';
  if (batch.step === 'move') {
    const percent =
      batch.rowsToMove > 0 ? Math.min(100, Math.floor((100 * batch.rowsMoved) / batch.rowsToMove)) : null;
    return {
      label: 'Move progress',
      percent,
      text: `${formatNumber(batch.rowsMoved)} of ${plural(batch.rowsToMove, 'row')} moved`,
      rate,
      eta: running ? formatEta(batch.rowsToMove - batch.rowsMoved, batch.rowsPerSecond) : null,
    };
  }
  // The rows still to read, estimated from the share of the file read so far.
  const rowsLeft =
    batch.progress > 0 ? (batch.rowsRead * (100 - batch.progress)) / batch.progress : Number.NaN;
  return {
    label: 'Validation progress',
    percent: batch.status === 'queued' && batch.rowsRead === 0 ? null : batch.progress,
    text: `${plural(batch.rowsRead, 'row')} read · ${batch.progress}% of the file`,
    rate,
    eta: running ? formatEta(rowsLeft, batch.rowsPerSecond) : null,
  };
}

export interface Question {
  title: string;
  description: string;
  confirmLabel: string;
}

/** What each move asks before it runs, with the counts it will act on. */
export function moveQuestion(kind: MoveKind, counts: OutcomeCounts): Question {
  if (kind === 'full') {
    return {
      title: `Create ${plural(counts.create, 'product')} and update ${formatNumber(counts.update)}?`,
      description:
        'Unchanged rows, duplicates and rows with errors are left out. A product changed in staging since this preview is reported as a conflict, never overwritten.',
      confirmLabel: 'Move products',
    };
  }
  if (kind === 'pricing') {
    return {
      title: `Update the price and inventory of ${plural(counts.update, 'product')}?`,
      description:
        'Only price, currency and inventory change. No product is created; a row whose SKU matches no product is reported as such.',
      confirmLabel: 'Update prices and inventory',
    };
  }
  return {
    title: `Merge ${plural(counts.duplicate, 'duplicate row')} into staging?`,
    description: MERGE_RULE,
    confirmLabel: 'Merge duplicates',
  };
}

/** Whether a move has anything to do: what the server says is left, else what validation found. */
export function moveHasRows(kind: MoveKind, counts: OutcomeCounts, left?: Batch['leftToMove']): boolean {
  if (left) return (kind === 'full' ? left.full : kind === 'pricing' ? left.pricing : left.duplicates) > 0;
  if (kind === 'full') return counts.create + counts.update > 0;
  if (kind === 'pricing') return counts.update + counts.unchanged > 0;
  return counts.duplicate > 0;
}

/** The mark-inactive question: how many live products go inactive, and how many missing ones stay. */
export function markInactiveQuestion(
  preview: { missing: number; willChange: number },
  sellerName: string,
): Question {
  const staying = Math.max(0, preview.missing - preview.willChange);
  const rest =
    staying > 0
      ? ` ${plural(staying, 'other missing product is', 'other missing products are')} not live and ${staying === 1 ? 'stays' : 'stay'} as ${staying === 1 ? 'it is' : 'they are'}.`
      : '';
  return {
    title: `Mark ${plural(preview.willChange, 'live product')} of ${sellerName} inactive?`,
    description: `They are not in this sheet.${rest}`,
    confirmLabel: 'Mark them inactive',
  };
}

/** Whether validation has finished, so the report, preview and counts are complete. */
export const isValidated = (batch: Pick<Batch, 'status' | 'step'>) =>
  batch.step === 'move' || batch.status === 'ready' || batch.status === 'moved';

/** The preview opens on the rows that matter most: updates (their before → after), else new products. */
export function defaultPreviewOutcome(counts: OutcomeCounts): 'create' | 'update' | 'unchanged' {
  if (counts.update > 0) return 'update';
  if (counts.create > 0) return 'create';
  return 'unchanged';
}

/** A move's results that happened, for the summary line (zeros left out). */
export function resultSummary(results: Record<RowResult, number>): { result: RowResult; count: number }[] {
  return (Object.keys(results) as RowResult[])
    .filter((result) => results[result] > 0)
    .map((result) => ({ result, count: results[result] }));
}
