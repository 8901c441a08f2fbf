// Loaded with `--import` into a bench's server (only when BENCH_SQL_LOG names a file): while that file
// exists, appends every statement the pg driver sends, with its parameters as the driver serialises
// them, one JSON line each. The throughput bench (scripts/bench-throughput.mjs) creates the file around
// one request and deletes it before the load, so capturing costs nothing while it measures; it then
// replays the request's very statements in pgbench. Never loaded by `npm start`.
import { appendFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const file = process.env.BENCH_SQL_LOG;
/** How often the hook looks whether the file exists (the bench waits longer than this). */
export const CAPTURE_POLL_MS = 50;

if (file) {
  // The server's own copy of pg (its packages stay in node_modules; the bundle imports them).
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const pg = require('pg');
  const { prepareValue } = require('pg/lib/utils');
  let capturing = existsSync(file);
  setInterval(() => {
    capturing = existsSync(file);
  }, CAPTURE_POLL_MS).unref();
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function capturedQuery(config, values, callback) {
    const text = typeof config === 'string' ? config : config?.text;
    if (capturing && typeof text === 'string') {
      const params = Array.isArray(values) ? values : config?.values;
      const line = { at: Date.now(), text, values: (params ?? []).map((value) => prepareValue(value)) };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
    return query.call(this, config, values, callback);
  };
}
