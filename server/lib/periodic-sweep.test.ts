import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPeriodicSweep } from './periodic-sweep';

const log = () => ({ error: vi.fn() });

describe('createPeriodicSweep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs on each tick, and at start only when asked', async () => {
    const run = vi.fn(async () => {});
    const sweep = createPeriodicSweep({ name: 'test sweep', everyMs: 1000, run, log: log() });
    sweep.start();
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(3);
    await sweep.close();

    const eager = vi.fn(async () => {});
    const atStart = createPeriodicSweep({
      name: 'eager',
      everyMs: 1000,
      run: eager,
      log: log(),
      runAtStart: true,
    });
    atStart.start();
    expect(eager).toHaveBeenCalledTimes(1);
    await atStart.close();
  });

  it('never starts a run while the previous one is still going', async () => {
    let finish = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const sweep = createPeriodicSweep({ name: 'slow', everyMs: 1000, run, log: log() });
    sweep.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await sweep.close();
  });

  it('logs a failed run and tries again on the next tick', async () => {
    const logger = log();
    const run = vi.fn().mockRejectedValueOnce(new Error('database away')).mockResolvedValue(undefined);
    const sweep = createPeriodicSweep({ name: 'follow-up sweep', everyMs: 1000, run, log: logger });
    sweep.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(logger.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'follow-up sweep failed');
    expect(run).toHaveBeenCalledTimes(2);
    await sweep.close();
  });

  it('close waits for the run in progress and stops the timer', async () => {
    let finish = () => {};
    let done = false;
    const run = vi.fn(() =>
      new Promise<void>((resolve) => (finish = resolve)).then(() => {
        done = true;
      }),
    );
    const sweep = createPeriodicSweep({ name: 'closing', everyMs: 1000, run, log: log() });
    sweep.start();
    await vi.advanceTimersByTimeAsync(1000);
    const closing = sweep.close();
    finish();
    await closing;
    expect(done).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
