// The mapping editor's logic: one row per sheet column (every header, mapped or not), the targets a
// column may take grouped as the select shows them, what is wrong with a mapping before it is sent,
// and the reprocessBatch body it becomes.
import type {
  BlankPolicy,
  ColumnMapping,
  Import,
  MappingTargetOption,
  ReprocessBatchBody,
} from '../../../../contracts/imports';

/** The spreadsheet letter of a 0-based column: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

export interface MappingRow {
  index: number;
  header: string;
  /** A product field, `attr:<code>`, or null: not imported. */
  target: string | null;
}

/** Every column of the sheet, with the target the batch gave it (none when the batch did not map it). */
export function mappingRows(item: Pick<Import, 'headers'>, mapping: readonly ColumnMapping[]): MappingRow[] {
  const byIndex = new Map(mapping.map((column) => [column.index, column.target]));
  return item.headers.map((header, index) => ({ index, header, target: byIndex.get(index) ?? null }));
}

/** The targets as the select groups them: product fields first, then attributes. */
export function groupTargets(options: readonly MappingTargetOption[]): {
  fields: MappingTargetOption[];
  attributes: MappingTargetOption[];
} {
  return {
    fields: options.filter((option) => option.kind === 'field'),
    attributes: options.filter((option) => option.kind === 'attribute'),
  };
}

export interface MappingProblems {
  /** Targets given to more than one column: a cell would not know which wins. Blocks applying. */
  duplicates: { target: string; label: string; columns: string[] }[];
  /** Targets needed to create a product that no column fills: new rows will be errors. A warning. */
  missingRequired: { target: string; label: string }[];
  /** Targets the server no longer offers (an attribute removed since): blocks applying. */
  unknown: { column: string; target: string }[];
}

const columnName = (row: MappingRow) => `${columnLetter(row.index)} “${row.header}”`;

export function mappingProblems(
  rows: readonly MappingRow[],
  options: readonly MappingTargetOption[],
): MappingProblems {
  const labels = new Map(options.map((option) => [option.target, option.label]));
  const columnsOf = new Map<string, string[]>();
  const unknown: MappingProblems['unknown'] = [];
  for (const row of rows) {
    if (!row.target) continue;
    columnsOf.set(row.target, [...(columnsOf.get(row.target) ?? []), columnName(row)]);
    if (!labels.has(row.target)) unknown.push({ column: columnName(row), target: row.target });
  }
  const duplicates = [...columnsOf.entries()]
    .filter(([, columns]) => columns.length > 1)
    .map(([target, columns]) => ({ target, label: labels.get(target) ?? target, columns }));
  const missingRequired = options
    .filter((option) => option.requiredToCreate && !columnsOf.has(option.target))
    .map((option) => ({ target: option.target, label: option.label }));
  return { duplicates, missingRequired, unknown };
}

export const blocksApplying = (problems: MappingProblems) =>
  problems.duplicates.length > 0 || problems.unknown.length > 0;

/** The reprocessBatch body: the whole mapping (every column, unmapped ones as null), the rule, the choice to remember. */
export function reprocessBody(
  batch: string,
  rows: readonly MappingRow[],
  blankPolicy: BlankPolicy,
  saveMapping: boolean,
): ReprocessBatchBody {
  return {
    batch,
    mapping: rows.map((row) => ({ index: row.index, header: row.header, target: row.target })),
    blankPolicy,
    saveMapping,
  };
}

/** Whether the editor differs from what the batch ran with (applying the same thing only revalidates). */
export function mappingChanged(
  rows: readonly MappingRow[],
  original: readonly MappingRow[],
  blankPolicy: BlankPolicy,
  originalPolicy: BlankPolicy,
): boolean {
  return (
    blankPolicy !== originalPolicy ||
    rows.length !== original.length ||
    rows.some((row, at) => row.target !== (original[at]?.target ?? null))
  );
}
