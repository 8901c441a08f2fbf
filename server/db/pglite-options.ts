// How the embedded PGlite database is opened, sized for what it is: one server process, a handful of
// connections' worth of work, a demo-to-small-shop data set. Its memory lives in the WASM heap, which
// only grows, so every buffer Postgres sizes for a shared server stays resident for good.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * Postgres settings for an embedded, single-process database (measured in bench/results.json,
 * `server`): the defaults (128 MB shared_buffers, 64 MB maintenance_work_mem) size a server shared by
 * many backends. 32 MB of buffers holds the demo data and the hot pages of 100k sellers; the files
 * stay in the OS page cache below it, so a miss costs a read from memory, not from disk. Index builds
 * and VACUUM work in 16 MB.
 */
export const PGLITE_SETTINGS: Record<string, string> = {
  shared_buffers: '32MB',
  maintenance_work_mem: '16MB',
};

export function pgliteStartParams(settings: Record<string, string> = PGLITE_SETTINGS): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}

const initdbScript = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));

/**
 * A new data dir is initialised (initdb) in a child process. In this one, initdb's own PGlite instance
 * would grow the process by ~400 MB of WASM memory that V8 hands back late or never, for a step that
 * runs once per data dir.
 */
export async function initialiseDataDir(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [initdbScript, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`initialising the database in ${dir} failed (${code}): ${errors.trim()}`)),
    );
  });
}
