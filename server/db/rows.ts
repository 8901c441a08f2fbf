/** The rows of a raw `db.execute(sql…)`: PGlite and node-postgres both answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
