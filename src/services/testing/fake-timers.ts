// Timers the model tests fire by hand: the adapters take `{ setTimeout, clearTimeout }` (AuthTimers,
// BrokerTimers), so a test sees every scheduled delay and decides when it runs.
import { expect } from 'vitest';

export class FakeTimers {
  private nextId = 1;
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.pending.set(id, { callback, ms });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  delays(): number[] {
    return [...this.pending.values()].map((timer) => timer.ms);
  }
  /** Fires the one pending timer (there must be exactly one). */
  fireOnly(): void {
    expect(this.pending.size, 'one timer is scheduled').toBe(1);
    const [id, timer] = [...this.pending][0] ?? [];
    if (id === undefined || !timer) throw new Error('no timer pending');
    this.pending.delete(id);
    timer.callback();
  }
}
