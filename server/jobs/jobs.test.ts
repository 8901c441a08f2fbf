import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Task, TaskList } from '../../contracts/notifications';
import { jobs, notifications } from '../db/schema';
import type { NotificationRow } from '../lib/notifications';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { type Claim, claimJob, completeJob } from './queue';
import { GENERIC_JOB_ERROR, JobFailure, type JobHandler, JobWorker } from './worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testBackends)('background jobs on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  const published: NotificationRow[] = [];
  const workers: JobWorker[] = [];

  beforeAll(async () => {
    // The app's own worker stays off: these tests drive workers by hand.
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await t.app.db.delete(jobs);
    await t.app.db.delete(notifications);
    published.length = 0;
  });

  function worker(
    handlers: Record<string, JobHandler>,
    options: { leaseSeconds?: number; retryBaseMs?: number } = {},
  ) {
    const created = new JobWorker({
      db: t.app.db,
      handlers: new Map(Object.entries(handlers)),
      log: t.app.log,
      leaseSeconds: options.leaseSeconds ?? 30,
      pollIntervalMs: 20,
      retryBaseMs: options.retryBaseMs ?? 60_000,
      publish: async (row) => {
        published.push(row);
      },
    });
    workers.push(created);
    return created;
  }
  const enqueue = (kind = 'test.job', maxAttempts?: number) =>
    t.app.jobs.enqueue({ kind, name: 'Test job', ownerId: as.ids.Admin, payload: { n: 1 }, maxAttempts });
  const jobRow = async (id: string) => {
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.id, id));
    if (!row) throw new Error('job gone');
    return row;
  };
  const notificationsOf = (taskId: string) =>
    t.app.db.select().from(notifications).where(eq(notifications.taskId, taskId));
  /** Seconds from the database's now to the job's run_after. */
  const secondsUntilRun = async (id: string) => {
    const [row] = await t.app.db
      .select({ s: sql<number>`extract(epoch FROM ${jobs.runAfter} - now())`.mapWith(Number) })
      .from(jobs)
      .where(eq(jobs.id, id));
    return row?.s ?? Number.NaN;
  };

  it('runs a job once even when several workers race for it', async () => {
    const runs = new Map<string, number>();
    const handler: JobHandler = async ({ job }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await sleep(30);
      return {};
    };
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push((await enqueue()).id);
    const racers = [
      worker({ 'test.job': handler }),
      worker({ 'test.job': handler }),
      worker({ 'test.job': handler }),
    ];
    // Each worker claims until the queue is empty; all three at once.
    await Promise.all(
      racers.map(async (racer) => {
        while (await racer.runOnce()) {}
      }),
    );
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    for (const id of ids) expect((await jobRow(id)).status).toBe('Completed');
  });

  it.runIf(backend === 'postgres')(
    'skips a job another transaction has locked (FOR UPDATE SKIP LOCKED)',
    async () => {
      const job = await enqueue();
      // One pool connection holds the row lock in a transaction; the claim runs on another.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked: () => void = () => undefined;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const locker = t.app.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT id FROM jobs WHERE id = ${job.id} FOR UPDATE`);
        locked();
        await held;
      });
      await isLocked;
      expect(await claimJob(t.app.db, { workerId: 'w2', kinds: ['test.job'], leaseSeconds: 30 })).toBeNull();
      release();
      await locker;
      expect((await claimJob(t.app.db, { workerId: 'w2', kinds: ['test.job'], leaseSeconds: 30 }))?.id).toBe(
        job.id,
      );
    },
  );

  it('retries with exponential backoff, then fails with the reason and notifies once', async () => {
    let calls = 0;
    const failing = worker({
      'test.job': async () => {
        calls++;
        throw new JobFailure('The supplier file could not be read.');
      },
    });
    const job = await enqueue('test.job', 3);

    expect(await failing.runOnce()).toBe(true);
    let row = await jobRow(job.id);
    expect(row).toMatchObject({
      status: 'Queued',
      attempts: 1,
      lastError: 'The supplier file could not be read.',
    });
    expect(await secondsUntilRun(job.id)).toBeGreaterThan(115); // 2^1 × 60 s
    expect(await secondsUntilRun(job.id)).toBeLessThanOrEqual(120);
    expect(await failing.runOnce()).toBe(false); // not due yet
    expect(published).toEqual([]);

    await t.app.db.update(jobs).set({ runAfter: sql`now()` }).where(eq(jobs.id, job.id));
    expect(await failing.runOnce()).toBe(true);
    row = await jobRow(job.id);
    expect(row).toMatchObject({ status: 'Queued', attempts: 2 });
    expect(await secondsUntilRun(job.id)).toBeGreaterThan(235); // 2^2 × 60 s

    await t.app.db.update(jobs).set({ runAfter: sql`now()` }).where(eq(jobs.id, job.id));
    expect(await failing.runOnce()).toBe(true);
    row = await jobRow(job.id);
    expect(row).toMatchObject({
      status: 'Failed',
      attempts: 3,
      lastError: 'The supplier file could not be read.',
    });
    expect(row.finishedAt).not.toBeNull();
    expect(calls).toBe(3);
    expect(await failing.runOnce()).toBe(false);

    const stored = await notificationsOf(job.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      userId: as.ids.Admin,
      title: 'Test job failed',
      body: 'The supplier file could not be read.',
      taskName: 'Test job',
      status: 'Failed',
    });
    expect(published.map((n) => n.id)).toEqual([stored[0]?.id]);

    const task = json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${job.id}`));
    expect(task).toMatchObject({
      status: 'Failed',
      attempts: 3,
      error: 'The supplier file could not be read.',
    });
  });

  it('tells the user a generic reason for unexpected errors, and does not retry permanent failures', async () => {
    const crashing = worker({
      'test.crash': async () => {
        throw new Error('ECONNRESET 10.0.0.7:5432 internal detail');
      },
      'test.bad': async () => {
        throw new JobFailure('The file has no header row.', true);
      },
    });
    const crash = await enqueue('test.crash');
    await crashing.runOnce();
    expect((await jobRow(crash.id)).lastError).toBe(GENERIC_JOB_ERROR);
    const bad = await enqueue('test.bad', 5);
    await crashing.runOnce();
    expect(await jobRow(bad.id)).toMatchObject({
      status: 'Failed',
      attempts: 1,
      lastError: 'The file has no header row.',
    });
    expect(published.map((n) => n.taskId)).toEqual([bad.id]);
  });

  it('claims a job again once the lease of its dead worker has run out', async () => {
    const job = await enqueue();
    // A worker claims it, then "dies": no heartbeat, no completion.
    const dead = await claimJob(t.app.db, { workerId: 'dead-worker', kinds: ['test.job'], leaseSeconds: 30 });
    expect(dead?.id).toBe(job.id);
    const survivor = worker({ 'test.job': async () => ({ title: 'Done', body: 'all of it' }) });
    expect(await survivor.runOnce()).toBe(false); // the lease still holds
    await t.app.db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, job.id));
    expect(await survivor.runOnce()).toBe(true);
    const row = await jobRow(job.id);
    expect(row).toMatchObject({
      status: 'Completed',
      attempts: 2,
      progress: 100,
      result: { title: 'Done', body: 'all of it' },
    });
    // The dead worker's late completion changes nothing and notifies nobody.
    const late: Claim = { id: job.id, lockedBy: 'dead-worker', attempts: 1 };
    expect(await completeJob(t.app.db, late, { other: true }, { title: 'Late' })).toBeNull();
    expect((await jobRow(job.id)).result).toEqual({ title: 'Done', body: 'all of it' });
    expect(await notificationsOf(job.id)).toHaveLength(1);
    expect(published).toHaveLength(1);
  });

  it('notifies a completion exactly once even if the completion step runs twice', async () => {
    const job = await enqueue();
    const claimed = await claimJob(t.app.db, { workerId: 'w1', kinds: ['test.job'], leaseSeconds: 30 });
    const claim: Claim = { id: job.id, lockedBy: 'w1', attempts: claimed?.attempts ?? 0 };
    const first = await completeJob(t.app.db, claim, { rows: 3 }, { title: 'Ready' });
    const second = await completeJob(t.app.db, claim, { rows: 3 }, { title: 'Ready' });
    expect(first).toMatchObject({
      taskId: job.id,
      status: 'Completed',
      taskName: 'Test job',
      title: 'Ready',
    });
    expect(second).toBeNull();
    expect(await notificationsOf(job.id)).toHaveLength(1);
    // Even a completion that got past the job update cannot store a second notification (unique task id).
    await t.app.db.update(jobs).set({ status: 'Running', lockedBy: 'w1' }).where(eq(jobs.id, job.id));
    expect(await completeJob(t.app.db, claim, { rows: 3 }, { title: 'Ready' })).toBeNull();
    expect(await notificationsOf(job.id)).toHaveLength(1);
  });

  it('keeps the lease alive with a heartbeat, and aborts a handler whose lease was taken', async () => {
    const seen: { aborted: boolean }[] = [];
    const slow = worker(
      {
        // Runs until told to stop: the test decides when, by what it waits for, not by a clock.
        'test.job': async ({ signal }) => {
          while (!signal.aborted) await sleep(20);
          seen.push({ aborted: signal.aborted });
          signal.throwIfAborted();
          return {};
        },
      },
      { leaseSeconds: 2 },
    );
    const job = await enqueue();
    const running = slow.runOnce();
    const leaseEnd = async () => (await jobRow(job.id))?.lockedUntil?.getTime() ?? 0;
    await vi.waitFor(async () => expect(await leaseEnd()).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 20,
    });
    const firstTerm = await leaseEnd();
    // Past the first term of the lease, the job is still held: only the heartbeat can have renewed it.
    await vi.waitFor(
      async () => {
        const [row] = await t.app.db
          .select({ now: sql<Date>`now()`.mapWith((v) => new Date(v)) })
          .from(jobs)
          .limit(1);
        expect(row?.now.getTime()).toBeGreaterThan(firstTerm);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(await leaseEnd()).toBeGreaterThan(firstTerm);
    const rival = worker({ 'test.job': async () => ({}) });
    expect(await rival.runOnce()).toBe(false);
    // Someone else takes the job over (as if this worker had stalled past its lease).
    await t.app.db.update(jobs).set({ lockedBy: 'thief' }).where(eq(jobs.id, job.id));
    await running;
    expect(seen).toEqual([{ aborted: true }]);
    const row = await jobRow(job.id);
    expect(row).toMatchObject({ status: 'Running', lockedBy: 'thief' }); // untouched by the loser
    expect(published).toEqual([]);
  });

  it('gives a running job back when the worker stops, without counting the attempt', async () => {
    let started: () => void = () => undefined;
    const isRunning = new Promise<void>((resolve) => {
      started = resolve;
    });
    const patient = worker({
      'test.job': ({ signal }) =>
        new Promise((_, reject) => {
          started();
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    });
    const job = await enqueue();
    patient.start();
    await isRunning;
    expect((await jobRow(job.id)).status).toBe('Running');
    await patient.stop();
    expect(await jobRow(job.id)).toMatchObject({ status: 'Queued', attempts: 0, lockedBy: null });
  });

  it('records progress and shows the task to its owner only', async () => {
    let proceed: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      proceed = resolve;
    });
    let halfway: () => void = () => undefined;
    const atHalf = new Promise<void>((resolve) => {
      halfway = resolve;
    });
    const stepping = worker({
      'test.job': async ({ setProgress }) => {
        await setProgress(49.6);
        halfway();
        await gate;
        return { title: 'Stepped' };
      },
    });
    const job = await enqueue();
    const queued = json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${job.id}`));
    expect(queued).toMatchObject({
      taskId: job.id,
      taskName: 'Test job',
      status: 'Queued',
      progress: 0,
      error: null,
    });
    const done = stepping.runOnce();
    await atHalf;
    expect(json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${job.id}`))).toMatchObject({
      status: 'Running',
      progress: 50,
    });
    proceed();
    await done;
    const finished = json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${job.id}`));
    expect(finished).toMatchObject({ status: 'Completed', progress: 100, attempts: 1 });
    expect(finished.finishedAt).not.toBeNull();

    for (const who of ['Staff', 'Seller'] as const) {
      const response = await as(who, 'GET', `/api/v1/tasks/${job.id}`);
      expect(response.statusCode, who).toBe(404);
      expect(json(response).code).toBe('TASK_NOT_FOUND');
    }
    expect((await as('Admin', 'GET', '/api/v1/tasks/not-a-uuid')).statusCode).toBe(400);
    const mine = json<TaskList>(await as('Admin', 'GET', '/api/v1/tasks?limit=5'));
    expect(mine.count).toBe(1);
    expect(mine.result.map((task) => task.taskId)).toEqual([job.id]);
    expect(json<TaskList>(await as('Staff', 'GET', '/api/v1/tasks')).count).toBe(0);
  });
});

describe('the app worker', () => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { pollIntervalMs: 50, retryBaseMs: 10 } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('runs an enqueued job at once and publishes its completion to the owner', async () => {
    const publish = vi.spyOn(t.app.broker, 'publishToUser').mockResolvedValue();
    t.app.jobs.register('test.echo', async ({ payload, setProgress }) => {
      await setProgress(50);
      return { title: 'Echo is ready', body: String(payload.word), link: '/echo' };
    });
    const job = await t.app.jobs.enqueue({
      kind: 'test.echo',
      name: 'Echo',
      ownerId: as.ids.Staff,
      payload: { word: 'hi' },
    });
    await expect.poll(() => publish.mock.calls.length, { timeout: 5000 }).toBe(1);
    const [userId, message] = publish.mock.calls[0] ?? [];
    expect(userId).toBe(as.ids.Staff);
    expect(message).toMatchObject({
      type: 'NOTIFICATION',
      taskId: job.id,
      taskName: 'Echo',
      status: 'Completed',
      title: 'Echo is ready',
      body: 'hi',
      link: '/echo',
    });
    expect(json<Task>(await as('Staff', 'GET', `/api/v1/tasks/${job.id}`)).status).toBe('Completed');
  });

  it('retries quickly with the test backoff and notifies the failure once', async () => {
    const publish = vi.spyOn(t.app.broker, 'publishToUser').mockResolvedValue();
    t.app.jobs.register('test.flaky', async () => {
      throw new JobFailure('Nope.');
    });
    const job = await t.app.jobs.enqueue({
      kind: 'test.flaky',
      name: 'Flaky',
      ownerId: as.ids.Admin,
      maxAttempts: 3,
    });
    await expect.poll(() => publish.mock.calls.length, { timeout: 5000 }).toBe(1);
    expect(publish.mock.calls[0]?.[1]).toMatchObject({ taskId: job.id, taskName: 'Flaky', status: 'Failed' });
    expect(json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${job.id}`))).toMatchObject({
      status: 'Failed',
      attempts: 3,
      error: 'Nope.',
    });
  });
});
