// Runs PGlite's initdb for a new data dir, in a process of its own (server/db/pglite-options.ts says
// why). Usage: node server/db/pglite-initdb.mjs <data dir>. Plain JavaScript: it runs without tsx.
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node pglite-initdb.mjs <data dir>');
  process.exit(2);
}
const database = await PGlite.create(dataDir);
await database.close();
