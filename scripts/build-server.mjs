// The server as `npm start` runs it: bundled by esbuild into dist-server/ (one ESM entry and the chunks
// of its lazily loaded parts; npm packages stay in node_modules). Compiling TypeScript as it loads
// (tsx) held ~55 MB more at idle and slowed every start; `npm run dev` keeps tsx for its watch mode.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { root } from './build-spa.mjs';

export const serverOutdir = path.join(root, 'dist-server');
export const serverEntry = path.join(serverOutdir, 'main.mjs');
const sources = ['server', 'contracts', 'package-lock.json', 'scripts/build-server.mjs'];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its directory
  for (const child of readdirSync(full)) {
    if (/\.test\.tsx?$/.test(child)) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

export function serverIsStale() {
  if (!existsSync(serverEntry)) return true;
  const builtAt = statSync(serverEntry).mtimeMs;
  return sources.some((entry) => newestMtime(entry) > builtAt);
}

/**
 * A module that finds files beside itself (`new URL('./migrations', import.meta.url)`) must still find
 * them from the bundle: its `import.meta.url` becomes its source file's URL, relative to the bundle.
 */
const sourceModuleUrls = (outdir) => ({
  name: 'source-module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      // Relative to the bundle's folder, which has the same depth under the root as dist-server/.
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
});

/** Builds beside dist-server/, then swaps it in: a server starting meanwhile sees the old or the new. */
export async function buildServer() {
  const fresh = `${serverOutdir}-${process.pid}-${Date.now()}`;
  await build({
    // The sheet worker (server/lib/sheets/in-worker.ts) is a thread of its own, so an entry of its own.
    entryPoints: {
      main: path.join(root, 'server/main.ts'),
      'sheet-worker': path.join(root, 'server/lib/sheets/worker.ts'),
    },
    define: { __SHEET_WORKER_BUNDLED__: 'true' },
    outdir: fresh,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true, // dynamic imports (the pg driver, Redis, the MQTT client) stay lazy
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [sourceModuleUrls(fresh)],
  });
  const old = `${fresh}-old`;
  if (existsSync(serverOutdir)) renameSync(serverOutdir, old);
  renameSync(fresh, serverOutdir);
  rmSync(old, { recursive: true, force: true });
}
