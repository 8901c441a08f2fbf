// Auth timing (`auth` in bench/results.json): "Forgot password?" must answer in the same time whether
// or not the e-mail has an account (else the timing tells who has one). The real server is started on
// a fresh data dir; requests for a demo account and for unknown e-mails alternate over HTTP on
// 127.0.0.1, one at a time, and each kind's p50/p95 is recorded with the difference of the medians.
// Each request comes from an address of its own (the server trusts X-Forwarded-For from 127.0.0.1 for
// this run only), so the per-address limit on the route does not answer instead of the route.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './bench-children.mjs';

const REQUESTS_PER_KIND = 300;
const WARM_UP = 40;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 100) / 100;
  return { requests: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
}

export async function benchAuth(root, port) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-bench-auth-'));
  const server = await startServer(root, { DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.1' }, port);
  let address = 0;
  const ask = async (email) => {
    address += 1;
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/forgot-password`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      },
      body: JSON.stringify({ email }),
    });
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`forgot-password answered ${response.status}`);
    return ms;
  };
  try {
    for (let i = 0; i < WARM_UP; i++) await ask(i % 2 ? 'staff@demo.local' : `warm-up-${i}@example.com`);
    const known = [];
    const unknown = [];
    for (let i = 0; i < REQUESTS_PER_KIND; i++) {
      // Alternating, so both kinds see the same moments of the machine.
      known.push(await ask(['admin@demo.local', 'staff@demo.local', 'seller@demo.local'][i % 3]));
      unknown.push(await ask(`nobody-${i}@example.com`));
    }
    const existing = summary(known);
    const missing = summary(unknown);
    return {
      forgotPassword: {
        existingEmail: existing,
        unknownEmail: missing,
        medianDifferenceMs: Math.round(Math.abs(existing.p50 - missing.p50) * 100) / 100,
      },
    };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
