import { describe, expect, it } from 'vitest';
import { atMost } from './at-most';

describe('atMost', () => {
  it('returns as soon as the promise settles, resolved or rejected', async () => {
    const started = Date.now();
    await atMost(Promise.resolve('done'), 10_000);
    await atMost(Promise.reject(new Error('refused')), 10_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('gives up on a promise that never settles after the time given', async () => {
    let settled = false;
    await atMost(new Promise(() => {}), 20).then(() => {
      settled = true;
    });
    expect(settled).toBe(true);
  });
});
