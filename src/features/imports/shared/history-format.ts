// How an import's and a request's history read: what each action says, field names in words, statuses
// and outcomes by their labels, values as text (never markup).

import { formatNumber } from '../../../../contracts/domain/format';
import {
  type BatchStatus,
  batchStatuses,
  batchStatusLabels,
  blankPolicies,
  blankPolicyLabels,
  moveKindLabels,
  moveKinds,
  type RequestStatus,
  requestStatuses,
  requestStatusLabels,
} from '../../../../contracts/imports';
import type { HistoryWords } from '../../../ui/history-timeline';

const actionVerbs: Record<string, string> = {
  uploaded: 'uploaded the sheet',
  validated: 'finished validating',
  reprocessed: 'revalidated with a new mapping',
  stop: 'asked to stop the batch',
  stopped: 'stopped the batch',
  resumed: 'resumed the batch',
  failed: 'saw the batch fail',
  move: 'asked for a move to staging',
  moved: 'finished a move to staging',
  titles: 'applied suggested titles',
  inactive: 'marked missing products inactive',
  requested: 'asked for an import',
  taken: 'took the request',
  imported: 'imported from the request',
  updated: 'updated the request',
  done: 'marked the request done',
  rejected: 'rejected the request',
};

const fieldLabels: Record<string, string> = {
  status: 'Status',
  mapping: 'Mapping',
  blankPolicy: 'Blank cells',
  moveKind: 'Move',
  assignee: 'Handled by',
  response: 'Response',
  note: 'Note',
  feedUrl: 'Feed URL',
  fileName: 'File',
  batch: 'Batch',
  changed: 'Made inactive',
  skipped: 'Skipped',
  applied: 'Titles applied',
};

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (isOneOf<BatchStatus>(batchStatuses, value)) return batchStatusLabels[value];
  if (isOneOf<RequestStatus>(requestStatuses, value)) return requestStatusLabels[value];
  if (isOneOf(moveKinds, value)) return moveKindLabels[value];
  if (isOneOf(blankPolicies, value)) return blankPolicyLabels[value];
  // A mapping change names the column's target: an attribute by its code.
  if (typeof value === 'string' && value.startsWith('attr:'))
    return `attribute ${value.slice('attr:'.length)}`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return formatNumber(value);
  if (Array.isArray(value)) {
    // A mapping: how many columns it imports says enough in a timeline.
    const mapped = value.filter((item) => item && typeof item === 'object' && 'target' in item);
    if (mapped.length === value.length && mapped.length > 0) {
      const imported = mapped.filter((item) => (item as { target: unknown }).target).length;
      return `${imported} of ${value.length} columns imported`;
    }
    return value.map(formatValue).join(', ');
  }
  if (typeof value === 'object') {
    if ('name' in value && typeof value.name === 'string') return value.name;
    return JSON.stringify(value);
  }
  return String(value);
}

export const importHistoryWords: HistoryWords = {
  fieldLabel: (field) => fieldLabels[field] ?? field,
  actionText: (entry) => actionVerbs[entry.action] ?? entry.action,
  formatValue,
};
