// Which recorded product changes are real: a field sent back as it was is no change, even when its
// stored form differs (jsonb keeps an object's keys in its own order, so {length, width, …} comes back
// as {unit, width, …}). Values compare as data: object keys in any order, numbers as numbers.
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FieldChange } from '../../db/schema';
import { auditEntries } from '../../db/schema';

export const isRealChange = (change: FieldChange) =>
  !isDeepStrictEqual(change.before ?? null, change.after ?? null);

/** The changes worth recording or showing. */
export const realChanges = (changes: FieldChange[]) => changes.filter(isRealChange);

/**
 * History rows still worth listing: those that recorded no fields (created, a note) or at least one
 * real change. Rows written before the writer skipped non-changes may hold only those (jsonb equality
 * ignores key order and compares numbers by value, as isRealChange does).
 */
export const listedHistoryRow = sql`(${auditEntries.note} IS NOT NULL
  OR jsonb_array_length(${auditEntries.changes}) = 0
  OR EXISTS (SELECT 1 FROM jsonb_array_elements(${auditEntries.changes}) AS c
             WHERE c -> 'before' IS DISTINCT FROM c -> 'after'))`;
