// `npm start` must run the server with the same node flags as the e2e tests and benchmarks measure.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from './server-node-args.mjs';

it('npm start passes the server node flags', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(pkg.scripts.start).toBe(`node ${SERVER_NODE_ARGS.join(' ')} scripts/start.mjs`);
});
