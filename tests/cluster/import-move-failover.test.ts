// Jobs across instances (issue 28, part 5): an import's move to staging runs on one of two instances
// behind the balancer; that instance is killed with SIGKILL half-way (the machine dies), and the other
// claims the job once its lease runs out (JOB_LEASE_SECONDS=3) and finishes it: every product exactly
// once, counted in the database.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchReport, Import, UploadAnswer } from '../../contracts/imports';
import { balancerReaches, type Cluster, clusterSkipReason, startCluster } from './cluster.mjs';

const ROWS = 20_000;
const LEASE_SECONDS = 3;
// The lease, then the survivor's next poll for due jobs (1 s), with room for a busy machine.
const RESUME_WITHIN_MS = (LEASE_SECONDS + 3) * 1000;

const skipReason = await clusterSkipReason();
if (skipReason) console.warn(skipReason);

function sheet(): string {
  const lines = ['SKU,Title,Category,Price,Stock'];
  for (let index = 0; index < ROWS; index++)
    lines.push(`FAIL-${index},Failover product ${index},Apparel > Men,${100 + (index % 50)}.50,${index % 9}`);
  return `${lines.join('\r\n')}\r\n`;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(skipReason)('a job whose instance dies is finished by the other instance', () => {
  let cluster: Cluster;
  let db: pg.Client;
  let token: string;

  const call = async <T>(url: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${cluster.balancer}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  beforeAll(async () => {
    // Instance b starts after the sheet is validated: until files are in shared storage (S3), the sheet
    // lies in the DATA_DIR of the instance that received it, and validation reads it. The move reads
    // only the database, which is what this test is about.
    cluster = await startCluster({ start: ['a'], env: { JOB_LEASE_SECONDS: String(LEASE_SECONDS) } });
    db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const signedIn = await fetch(`${cluster.balancer}/api/v1/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'seller@demo.local', password: 'Demo@12345' }),
    });
    expect(signedIn.status).toBe(200);
    token = ((await signedIn.json()) as { accessToken: string }).accessToken;
  });

  afterAll(async () => {
    await db?.end();
    await cluster?.stop();
  });

  it('resumes the move on the surviving instance and creates every product exactly once', async () => {
    const form = new FormData();
    form.append('file', new Blob([sheet()], { type: 'text/csv' }), 'failover.csv');
    const { import: created } = await call<UploadAnswer>('/api/v1/imports/uploadCatalogSheet', {
      method: 'POST',
      body: form,
    });
    const batchId = created.batch.id;
    const getImport = () => call<Import>(`/api/v1/imports/getImport/${created.id}`);
    await until(
      'the validation',
      async () => ((await getImport()).batch.status === 'ready' ? true : undefined),
      90_000,
    );

    await cluster.instances.b.start();
    await balancerReaches(cluster, ['a', 'b']);
    await call(`/api/v1/imports/moveToStaging?batch=${batchId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });

    const jobOf = async () => {
      const { rows } = await db.query<{ locked_by: string | null; status: string; attempts: number }>(
        `SELECT locked_by, status, attempts FROM jobs WHERE kind = 'imports.move' AND payload->>'batchId' = $1`,
        [batchId],
      );
      return rows[0];
    };
    const movedSoFar = async () => {
      const { rows } = await db.query<{ moved: number; status: string }>(
        'SELECT rows_moved AS moved, status FROM import_batches WHERE id = $1',
        [batchId],
      );
      return rows[0];
    };
    // The instance holding the job, once it has moved some rows (the worker id is host:pid:…).
    const first = await until(
      'the move to be under way',
      async () => {
        const [job, batch] = [await jobOf(), await movedSoFar()];
        if (batch?.status === 'moved') throw new Error('the move finished before it could be interrupted');
        if (job?.status !== 'Running' || !job.locked_by || !batch || batch.moved === 0) return undefined;
        const pid = Number(job.locked_by.split(':')[1]);
        const holder = Object.values(cluster.instances).find((instance) => instance.pid === pid);
        if (!holder) throw new Error(`the job is held by ${job.locked_by}, not by either instance`);
        return { holder, moved: batch.moved };
      },
      60_000,
    );
    const survivor = first.holder.id === 'a' ? cluster.instances.b : cluster.instances.a;
    await first.holder.kill('SIGKILL');
    const killedAt = Date.now();
    const { moved: movedAtKill } = (await movedSoFar()) ?? { moved: 0 };
    expect(movedAtKill).toBeLessThan(ROWS);

    const resumedAfterMs = await until(
      'the survivor to claim the job',
      async () => {
        const job = await jobOf();
        return job?.locked_by && Number(job.locked_by.split(':')[1]) === survivor.pid
          ? Date.now() - killedAt
          : undefined;
      },
      RESUME_WITHIN_MS,
    );
    const finished = await until(
      'the move to finish on the survivor',
      async () => {
        const { batch } = await getImport();
        if (batch.status === 'failed') throw new Error(`the move failed: ${batch.error}`);
        return batch.status === 'moved' ? batch : undefined;
      },
      90_000,
    );
    console.info(
      `move: ${movedAtKill}/${ROWS} rows moved by ${first.holder.id} when it was killed; ` +
        `${survivor.id} claimed the job ${resumedAfterMs} ms later (lease ${LEASE_SECONDS} s) and finished it`,
    );

    expect(finished.results).toMatchObject({ created: ROWS, conflict: 0 });
    expect(finished.rowsMoved).toBe(ROWS);
    const report = await call<BatchReport>(
      `/api/v1/imports/getBatchReport?batch=${batchId}&result=created&limit=1`,
    );
    expect(report.count).toBe(ROWS);
    const job = await jobOf();
    expect(job?.status).toBe('Completed');
    expect(job?.attempts).toBe(2);

    // Every product once, with its row's values, and one "created" history entry each.
    const { rows: stored } = await db.query<{ n: number; skus: number; right: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT sku)::int AS skus,
              count(*) FILTER (WHERE title = 'Failover product ' || substr(sku, 6)
                AND price_minor = (100 + substr(sku, 6)::int % 50) * 100 + 50
                AND inventory = substr(sku, 6)::int % 9)::int AS right
       FROM products WHERE sku LIKE 'FAIL-%'`,
    );
    expect(stored[0]).toEqual({ n: ROWS, skus: ROWS, right: ROWS });
    const { rows: history } = await db.query<{ entries: number; products: number }>(
      `SELECT count(*)::int AS entries, count(DISTINCT h.subject_id)::int AS products
       FROM audit_entries h JOIN products p ON p.id = h.subject_id
       WHERE h.subject_type = 'product' AND p.sku LIKE 'FAIL-%' AND h.action = 'created'`,
    );
    expect(history[0]).toEqual({ entries: ROWS, products: ROWS });
  }, 240_000);
});
