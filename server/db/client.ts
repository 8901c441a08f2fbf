// Opens the database: PGlite or PostgreSQL, by configuration. The shared types live in database.ts.
import type { Database, DatabaseOptions } from './database';

export type { Database, DatabaseOptions, Db, Schema, Tx } from './database';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  // Each driver is loaded only when chosen: a server holds PGlite or pg, never both.
  if (options.databaseUrl)
    return (await import('./postgres')).openPostgres(options.databaseUrl, {
      preparedStatements: options.preparedStatements ?? true,
    });
  return (await import('./pglite')).openPglite(options);
}
