import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * A job every instance runs on a timer (reminders due, offers expired, uploads nobody claimed). Safe to run
 * on many instances because each sweep claims its rows in the database; here only the timing lives: never
 * two runs at once in one process, an error logged and the next tick tried again, and `close` waits for a
 * run in progress so it never meets a closed database.
 */
export interface PeriodicSweep {
  start(): void;
  close(): Promise<void>;
}

export function createPeriodicSweep(options: {
  /** For the log line when a run fails. */
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Run once at start as well (sweeps whose backlog may be old), not only after the first interval. */
  runAtStart?: boolean;
}): PeriodicSweep {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let closed = false;
  const tick = () => {
    if (closed || running) return;
    running = options
      .run()
      .then(
        () => undefined,
        (error: unknown) => options.log.error({ err: error }, `${options.name} failed`),
      )
      .finally(() => {
        running = null;
      });
  };
  return {
    start() {
      if (closed || timer) return;
      if (options.runAtStart) tick();
      timer = setInterval(tick, options.everyMs);
      timer.unref();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** The sweep bound to the server's life: started once it is ready, stopped before the database closes. */
export function sweepWhileUp(app: FastifyInstance, options: Parameters<typeof createPeriodicSweep>[0]) {
  const sweep = createPeriodicSweep(options);
  app.addHook('onReady', async () => sweep.start());
  app.addHook('preClose', async () => sweep.close());
  return sweep;
}
