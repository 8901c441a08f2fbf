// `app.jobs`: enqueue background jobs and register their handlers (ARCHITECTURE.md "background jobs").
// Modules register handlers while the app is built; the worker starts once the app is ready and stops
// when it closes. Several instances on one database share the queue.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { endIdleSheetWorkers } from '../lib/sheets';
import { type EnqueueInput, insertJob, type JobRow } from './queue';
import { type JobHandler, JobWorker } from './worker';

export interface JobsOptions {
  /** Run this process's worker (default true). Tests that drive jobs by hand turn it off. */
  enabled?: boolean;
  /** How often an idle worker looks for due jobs (default 1 s). */
  pollIntervalMs?: number;
  /** Base of the exponential retry backoff (default 1 s: retries after 2, 4, 8 … s). */
  retryBaseMs?: number;
}

export interface Jobs {
  /** Stores a job (Queued) and wakes this process's worker. */
  enqueue(input: EnqueueInput): Promise<JobRow>;
  /** The handler of one kind of job; register before the app is ready. */
  register(kind: string, handler: JobHandler): void;
  /** This process's worker (tests drive it; the app starts and stops it). */
  readonly worker: JobWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

export const jobsPlugin = fp(
  async (app: FastifyInstance, options: JobsOptions & { leaseSeconds: number }) => {
    const handlers = new Map<string, JobHandler>();
    const worker = new JobWorker({
      db: app.db,
      handlers,
      log: app.log.child({ module: 'jobs' }),
      leaseSeconds: options.leaseSeconds,
      pollIntervalMs: options.pollIntervalMs,
      retryBaseMs: options.retryBaseMs,
      publish: (notification) => app.notifications.publish(notification),
    });
    const enabled = options.enabled ?? true;

    app.decorate('jobs', {
      worker,
      register(kind, handler) {
        if (handlers.has(kind)) throw new Error(`a job handler for ${kind} is already registered`);
        handlers.set(kind, handler);
      },
      async enqueue(input) {
        const job = await insertJob(app.db, input);
        if (enabled) worker.wake();
        return job;
      },
    } satisfies Jobs);

    if (enabled) app.addHook('onReady', async () => worker.start());
    // Also when disabled: a test may have started it by hand.
    app.addHook('onClose', async () => {
      await worker.stop();
      // Sheet workers kept for the next upload or job would otherwise hold a closing process open.
      await endIdleSheetWorkers();
    });
  },
  { name: 'jobs', dependencies: ['db', 'notifications'] },
);
