// What an export writes, whatever the file format: a header row, then rows of cells (the types live in
// server/lib/export-definition.ts, which the import error sheet shares).
export type { Cell, Column, TableWriter } from '../../lib/export-definition';
