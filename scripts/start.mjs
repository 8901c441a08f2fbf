// `npm start`: builds the SPA when dist/ is missing or older than its sources, and the server bundle
// (scripts/build-server.mjs) when dist-server/ is, then runs the server as the child of a supervisor
// (scripts/supervise.mjs): SIGINT/SIGTERM are passed on to it, so it closes the database cleanly, and
// a crash of any cause restarts it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverEntry, serverIsStale } from './build-server.mjs';
import { buildSpa, root } from './build-spa.mjs';
import { supervise } from './supervise.mjs';

const builtIndex = path.join(root, 'dist', 'index.html');
const sources = ['src', 'contracts', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(full)) {
    if (child.endsWith('.test.ts') || child.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function spaIsStale() {
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return sources.some((entry) => newestMtime(entry) > builtAt);
}

if (process.env.SKIP_BUILD !== 'true' && spaIsStale()) {
  console.info('Building the web app (dist/ is missing or older than its sources)…');
  buildSpa();
}

if (serverIsStale()) {
  await buildServer();
  // esbuild's service process would otherwise live on beside the supervised server.
  (await import('esbuild')).stop();
}
supervise(serverEntry);
