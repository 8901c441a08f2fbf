import { type SQL, sql } from 'drizzle-orm';

// Ids as SQL parameters. Both expect ids a contract already checked as UUIDs.

/** `$1::uuid, $2::uuid, …`: the inside of an `IN (…)`, one parameter per id. */
export const uuidList = (ids: readonly string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** One `uuid[]` parameter, whatever the number of ids: for `unnest(…)` and `= ANY(…)`. */
export const uuidArray = (ids: readonly string[]): SQL => sql`${`{${ids.join(',')}}`}::uuid[]`;
