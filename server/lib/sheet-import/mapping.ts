// Matching a sheet's headers to what its columns may fill (the sheet pipeline's column mapping, shared by
// catalog imports and lead imports). Headers and names are compared by key: accents, case, spaces and
// punctuation gone, so "Country of origin", "country_of_origin" and "COUNTRY-OF-ORIGIN" are one name.
import { normalizeText } from '../../../contracts/query-tree';

/** A header's matching key: accents, case, spaces and punctuation gone. */
export const headerKey = (header: string) => normalizeText(header).replace(/[^\p{L}\p{N}]+/gu, '');

/** A target a column may be mapped to, and the names a sheet may give it (its code, label, synonyms). */
export interface NamedTarget {
  target: string;
  names: readonly string[];
}

export interface GuessedColumn {
  /** The column's position in the sheet (0-based) and its header as written. */
  index: number;
  header: string;
  target: string | null;
}

/**
 * The mapping for a sheet's headers: the remembered choice for a header if there is one (when it still
 * names a known target), else the target one of whose names matches. When two targets share a name the
 * one listed first wins. Each target is used by one column at most (the first), so a duplicate header
 * never fills a field twice; a column that matches nothing keeps a null target.
 */
export function guessColumns(
  headers: readonly string[],
  targets: readonly NamedTarget[],
  remembered: Readonly<Record<string, string | null>> = {},
): GuessedColumn[] {
  const byKey = new Map<string, string>();
  for (const { target, names } of targets) {
    for (const name of names) {
      const key = headerKey(name);
      if (key && !byKey.has(key)) byKey.set(key, target);
    }
  }
  const known = new Set(targets.map((candidate) => candidate.target));
  const used = new Set<string>();
  return headers.map((header, index) => {
    const key = headerKey(header);
    let target: string | null;
    if (Object.hasOwn(remembered, key)) {
      const choice = remembered[key] ?? null;
      target = choice && known.has(choice) ? choice : null;
    } else target = byKey.get(key) ?? null;
    if (target && used.has(target)) target = null;
    if (target) used.add(target);
    return { index, header, target };
  });
}

/**
 * The structural problem of a mapping the user sent (null when none): it must name every column once,
 * in order, and no target twice. What else a mapping needs (a key column) each import checks itself.
 */
export function mappingShapeProblem(
  mapping: readonly { index: number; target: string | null }[],
  headers: readonly string[],
  labelOf: (target: string) => string,
): string | null {
  if (mapping.length !== headers.length || mapping.some((column, index) => column.index !== index)) {
    return 'The mapping must name every column of the sheet once, in order.';
  }
  const seen = new Set<string>();
  for (const column of mapping) {
    if (!column.target) continue;
    if (seen.has(column.target)) return `Two columns are mapped to ${labelOf(column.target)}.`;
    seen.add(column.target);
  }
  return null;
}
