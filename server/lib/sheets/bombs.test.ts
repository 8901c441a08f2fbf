// FAULT test (issue 26): the real server (a child process on a temporary DATA_DIR) receives each XLSX
// bomb of the family two and three at a time, as catalog and lead uploads; every upload is refused with
// a 4xx and a sentence, /api/health answers throughout, and the server's RSS stays under RSS_LIMIT_MB.
// Before the fix, two uploads of the huge shared string ended the process (heap out of memory).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, run, type Server, signIn, startServer, stop } from '../../test-process';
import { bombFiles } from './bomb-files';

/** The server idles at ~250–320 MB; each sheet worker may take ~150 MB at most (in-worker.ts). */
const RSS_LIMIT_MB = 700;

const rssMb = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1]) / 1024;

describe('sheet bombs', () => {
  let dataDir: string;
  let server: Server;
  let bombs: Record<string, Buffer>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-sheet-bombs-'));
    bombs = await bombFiles();
    await run(['server/seed/cli.ts', '--sellers', '1'], childEnv(dataDir));
    server = await startServer(dataDir);
  }, 180_000);

  afterAll(async () => {
    if (server) await stop(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses every bomb, 2 and 3 at a time, while the server answers and stays under its RSS bound', async () => {
    const seller = await signIn(server.base, 'seller@demo.local');
    const staff = await signIn(server.base, 'staff@demo.local');
    const pid = server.child.pid as number;

    // Health and memory, watched the whole time.
    let watching = true;
    let peakRss = rssMb(pid);
    const healthFailures: string[] = [];
    let healthChecks = 0;
    const watcher = (async () => {
      while (watching) {
        peakRss = Math.max(peakRss, rssMb(pid));
        const answer = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(5_000) }).catch(
          (error: Error) => error,
        );
        healthChecks++;
        if (answer instanceof Error || !answer.ok) healthFailures.push(String(answer));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    // A catalog upload by the seller, a lead upload by staff: each user stays within their 2 reads.
    const upload = async (who: 'seller' | 'staff', name: string, bytes: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), `${name}.xlsx`);
      const url = who === 'seller' ? '/api/v1/imports/uploadCatalogSheet' : '/api/v1/contacts/leadImports';
      const response = await fetch(`${server.base}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${(who === 'seller' ? seller : staff).token}` },
        body: form,
      });
      return { name, status: response.status, body: (await response.json()) as { message?: string } };
    };

    const answers: Awaited<ReturnType<typeof upload>>[] = [];
    try {
      for (const [name, bytes] of Object.entries(bombs)) {
        answers.push(...(await Promise.all([upload('seller', name, bytes), upload('staff', name, bytes)])));
        answers.push(
          ...(await Promise.all([
            upload('seller', name, bytes),
            upload('seller', name, bytes),
            upload('staff', name, bytes),
          ])),
        );
      }
    } finally {
      watching = false;
      await watcher;
    }

    console.info(
      `bombs: ${answers.length} uploads, peak RSS ${peakRss.toFixed(0)} MB, ${healthChecks} health checks`,
    );
    for (const answer of answers) {
      expect(answer.status, `${answer.name}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.name).toBeLessThan(500);
      // A sentence for the user, never a stack trace.
      expect(answer.body.message, answer.name).toMatch(/^The (XLSX file|sheet) /);
      expect(answer.body.message).not.toMatch(/\n\s+at /);
    }
    expect(answers).toHaveLength(Object.keys(bombs).length * 5);
    expect(healthFailures).toEqual([]);
    expect(healthChecks).toBeGreaterThan(0);
    expect(peakRss).toBeLessThan(RSS_LIMIT_MB);
    expect(server.child.exitCode).toBeNull();
    // And the server still reads a real sheet.
    const good = await upload('staff', 'good', Buffer.from('Email,Name\nann@example.com,Ann\n'));
    expect(good.status, JSON.stringify(good.body)).toBeLessThan(300);
  }, 120_000);
});
