// How the Manage Tags page words and colours things: statuses, versions, diffs, counts.

import { formatNumber } from '../../../contracts/domain/format';
import type { TagDiff, TagStatus, TagTreeSource, TagVersion } from '../../../contracts/tags';

export const statusPalette: Record<TagStatus, string> = {
  published: 'green',
  new: 'blue',
  changed: 'yellow',
  removed: 'red',
};

/** "Version 3", "the draft", "the published tree". */
export function sourceName(source: TagTreeSource): string {
  if (source === 'draft') return 'the draft';
  if (source === 'latest') return 'the published tree';
  return `version ${source}`;
}

/** "2 added, 1 moved" — or "no changes". */
export function diffSummary(counts: TagDiff['counts']): string {
  const parts = (
    [
      ['added', 'added'],
      ['removed', 'removed'],
      ['renamed', 'renamed'],
      ['moved', 'moved'],
      ['recoded', 'with a new code'],
    ] as const
  )
    .filter(([key]) => counts[key] > 0)
    .map(([key, words]) => `${formatNumber(counts[key])} ${words}`);
  return parts.length ? parts.join(', ') : 'no changes';
}

export const diffTotal = (counts: TagDiff['counts']) =>
  counts.added + counts.removed + counts.renamed + counts.moved + counts.recoded;

export function versionSummary(version: TagVersion): string {
  return diffSummary({ ...version.summary, recoded: 0 });
}
