// Bulk actions over more than 10,000 products as a background task (issue 26), on PGlite and
// PostgreSQL: the request answers 202 with the task before any product changes; the job runs in
// batches (each with its history entries), reports progress, counts skipped rows with their reasons,
// resumes after a crash without doing or counting a batch twice, keeps a seller to their own products,
// and its owner is notified with "N changed, M skipped".
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkResult } from '../../../contracts/catalog';
import type { SelectionCount } from '../../../contracts/catalog-actions';
import type { Task, TaskAccepted } from '../../../contracts/notifications';
import type { QueryTree } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { auditEntries, categories, jobs, notifications, products, sellers, users } from '../../db/schema';
import { claimJob } from '../../jobs/queue';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { BULK_JOB_KIND, bulkJobHandler } from './bulk-job';
import { bulkSelectionSize } from './selection';

const API = '/api/v1/stagingProducts';
const MINE = 10_050;
/** Every tenth of the seller's products misses a required attribute: it cannot go to review. */
const INCOMPLETE = MINE / 10;
const THEIRS = 20;

describe.each(testBackends)('bulk actions as a task on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let theirSellerId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.database.db;
    await db.delete(products); // the demo catalogue would blur the counts
    await db.delete(auditEntries).where(eq(auditEntries.subjectType, 'product')); // and so would its history
    const [category] = await db
      .insert(categories)
      .values({ name: 'Bulk job phones', slug: 'bulk-job-phones' })
      .returning();
    const [user] = await db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.id, as.ids.Seller));
    const [other] = await db
      .insert(sellers)
      .values({ sellerCode: 'BULK-JOB-OTHER', sellerName: 'Other seller', email: 'other@bulk-job.test' })
      .returning();
    theirSellerId = other!.id;
    const insert = (sellerId: string, prefix: string, n: number) =>
      db.execute(sql`
        INSERT INTO ${products} (seller_id, category_id, title, sku, title_key, sku_key, status, completeness)
        SELECT ${sellerId}::uuid, ${category!.id}::uuid, ${`${prefix} phone `} || i, ${`${prefix}-`} || i,
               ${`${prefix.toLowerCase()} phone `} || i, ${`${prefix.toLowerCase()}-`} || i, 'draft',
               CASE WHEN i % 10 = 0 THEN 50 ELSE 100 END
        FROM generate_series(1, ${n}::integer) AS i`);
    await insert(user!.sellerId!, 'MINE', MINE);
    // Theirs are all complete: a leak into the seller's job would move them.
    await insert(theirSellerId, 'THEIRS', THEIRS);
    await db.execute(sql`UPDATE ${products} SET completeness = 100 WHERE seller_id = ${theirSellerId}::uuid`);
  }, 120_000);
  afterAll(() => t.close());

  const everything: QueryTree = { combinator: 'and', children: [] };
  const post = (who: 'Seller' | 'Admin' | 'Staff', path: string, body: Record<string, unknown>) =>
    as(who, 'POST', `${API}/method/${path}`, body);
  const countWhere = async (condition: ReturnType<typeof sql>) => {
    const [row] = rowsOf<{ n: number }>(
      await t.app.db.execute(sql`SELECT count(*)::integer AS n FROM ${products} WHERE ${condition}`),
    );
    return row?.n ?? 0;
  };
  const task = async (who: 'Seller' | 'Admin', id: string) =>
    json<Task>(await as(who, 'GET', `/api/v1/tasks/${id}`));
  const noticeOf = async (taskId: string) => {
    const [row] = await t.app.db.select().from(notifications).where(eq(notifications.taskId, taskId));
    return row;
  };

  it('counts the selection exactly and says it runs as a task', async () => {
    const seller = json<SelectionCount>(
      await post('Seller', 'countSelection', { selection: { query: everything } }),
    );
    expect(seller).toEqual({ count: MINE, overLimit: false, asJob: true });
    const admin = json<SelectionCount>(
      await post('Admin', 'countSelection', { selection: { query: everything } }),
    );
    expect(admin).toEqual({ count: MINE + THEIRS, overLimit: false, asJob: true });
  });

  it('refuses bad input before storing a task', async () => {
    const noReason = await post('Staff', 'bulkStatus', {
      selection: { query: everything },
      status: 'rejected',
    });
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason)).toMatchObject({ code: 'REASON_REQUIRED' });
    const unknown = await post('Admin', 'bulkCategory', {
      selection: { query: everything },
      categoryId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    // Only with the delete permission, as in the request.
    expect((await post('Seller', 'bulkDelete', { selection: { query: everything } })).statusCode).toBe(403);
    expect(await t.app.db.select().from(jobs)).toEqual([]);
  });

  it("runs a seller's status change in batches, resumes after a crash, and reports N changed, M skipped", async () => {
    const started = await post('Seller', 'bulkStatus', {
      selection: { query: everything },
      status: 'in_review',
    });
    expect(started.statusCode, started.body).toBe(202);
    const { taskStatus } = json<TaskAccepted>(started);
    expect(taskStatus).toMatchObject({ taskName: 'Bulk status change', status: 'Queued' });
    // The answer came before any product changed.
    expect(await countWhere(sql`status = 'in_review'`)).toBe(0);

    // A worker runs the first batch of 4,000, then dies (its lease runs out).
    const job = await claimJob(t.app.db, { workerId: 'doomed', kinds: [BULK_JOB_KIND], leaseSeconds: 60 });
    expect(job?.id).toBe(taskStatus.taskId);
    const crash = new AbortController();
    const progress: number[] = [];
    const handler = bulkJobHandler({
      db: t.app.db,
      storage: t.app.storage,
      log: t.app.log,
      batchSize: 4_000,
    });
    await expect(
      handler({
        job: job!,
        payload: job!.payload,
        setProgress: async (value) => {
          progress.push(value);
          crash.abort(new Error('the worker died'));
        },
        signal: crash.signal,
      }),
    ).rejects.toThrow('the worker died');
    expect(progress).toHaveLength(1);
    expect(progress[0]).toBeCloseTo((100 * 4_000) / MINE, 5);
    const [checkpoint] = await t.app.db
      .select({ result: jobs.result })
      .from(jobs)
      .where(eq(jobs.id, job!.id));
    const halfway = checkpoint!.result as unknown as BulkResult;
    expect(halfway.changed + halfway.skippedCount).toBe(4_000);
    expect(await countWhere(sql`status = 'in_review'`)).toBe(halfway.changed);

    // Its lease runs out; the app's worker claims the job again and goes on after the committed batch.
    await t.app.db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, job!.id));
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    expect(await task('Seller', taskStatus.taskId)).toMatchObject({ status: 'Completed', progress: 100 });

    // Each product once: every complete one moved, with one history entry; no other seller's product.
    expect(await countWhere(sql`status = 'in_review'`)).toBe(MINE - INCOMPLETE);
    expect(await countWhere(sql`seller_id = ${theirSellerId}::uuid AND status = 'draft'`)).toBe(THEIRS);
    const [entries] = rowsOf<{ n: number }>(
      await t.app.db.execute(
        sql`SELECT count(*)::integer AS n FROM ${auditEntries} WHERE subject_type = 'product' AND action = 'status' AND actor_id = ${as.ids.Seller}::uuid`,
      ),
    );
    expect(entries?.n).toBe(MINE - INCOMPLETE);
    const [done] = await t.app.db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(done?.result).toMatchObject({ changed: MINE - INCOMPLETE, skippedCount: INCOMPLETE });
    expect((done!.result as unknown as BulkResult).skipped).toHaveLength(100);
    expect(await noticeOf(taskStatus.taskId)).toMatchObject({
      userId: as.ids.Seller,
      status: 'Completed',
      taskName: 'Bulk status change',
      body: expect.stringMatching(
        /^9,045 changed, 1,005 skipped \(e\.g\. MINE-\d+: Required attributes are missing\.\)\.$/,
      ),
    });
    // Someone else cannot follow the seller's task.
    expect((await as('Admin', 'GET', `/api/v1/tasks/${taskStatus.taskId}`)).statusCode).toBe(404);
  }, 120_000);

  it('runs a small selection in the request, as before', async () => {
    const [one] = await t.app.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.sellerId, theirSellerId))
      .limit(1);
    const done = await post('Admin', 'bulkStatus', { selection: { ids: [one!.id] }, status: 'in_review' });
    expect(done.statusCode).toBe(200);
    expect(json<BulkResult>(done)).toEqual({ changed: 1, skipped: [], skippedCount: 0 });
  });

  it('deletes more than 10,000 products as a task', async () => {
    const total = await countWhere(sql`true`);
    const started = await post('Admin', 'bulkDelete', { selection: { query: everything } });
    expect(started.statusCode, started.body).toBe(202);
    const { taskStatus } = json<TaskAccepted>(started);
    expect(taskStatus.taskName).toBe('Bulk delete');
    expect(await countWhere(sql`true`)).toBe(total);
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    expect(await task('Admin', taskStatus.taskId)).toMatchObject({ status: 'Completed', progress: 100 });
    expect(await countWhere(sql`true`)).toBe(0);
    expect((await noticeOf(taskStatus.taskId))?.body).toBe(
      `${total.toLocaleString('en-US')} changed, 0 skipped.`,
    );
  }, 120_000);
});

describe('the upper bound of a bulk action', () => {
  it('refuses more than 1,000,000 products with a clear 400', async () => {
    const counting = (n: number) => ({ execute: async () => ({ rows: [{ n }] }) }) as unknown as Db;
    await expect(bulkSelectionSize(counting(1_000_000), sql`true`)).resolves.toEqual({
      count: 1_000_000,
      overLimit: false,
      asJob: true,
    });
    await expect(bulkSelectionSize(counting(1_000_001), sql`true`)).rejects.toMatchObject({
      status: 400,
      code: 'SELECTION_TOO_LARGE',
      message: 'A bulk action changes at most 1,000,000 products. Narrow the query and try again.',
    });
    await expect(bulkSelectionSize(counting(10_000), sql`true`)).resolves.toMatchObject({ asJob: false });
  });
});
