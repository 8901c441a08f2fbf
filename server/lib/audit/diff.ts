// The field changes an edit makes, as the audit trail records them.
import type { FieldChange } from '../../db/schema';

/** The fields whose value differs between `before` and `after` (compared as JSON), in `fields` order. */
export function diffFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ field, before: from, after: to });
  }
  return changes;
}
