// What every model-based test shares: the path shape `createTestModel` answers, and the final check
// that the executed paths reached every state and took every transition of the machine.
import { expect } from 'vitest';

/** A path of `getShortestPaths()` / `getSimplePaths()`, typed by the machine's snapshot and events. */
export interface ModelPath<Snapshot, Event> {
  state: Snapshot;
  steps: { state: Snapshot; event: Event | { type: 'xstate.init' } }[];
  weight: number;
}

/** Every state visited and every transition taken, and no transition id counted twice. */
export function expectFullCoverage(
  machine: { root: { states: Record<string, unknown> } },
  transitions: string[],
  visitedStates: Set<string>,
  executedTransitions: Set<string>,
): void {
  expect(new Set(transitions).size, 'transition ids are unique').toBe(transitions.length);
  expect([...visitedStates].sort()).toEqual(Object.keys(machine.root.states).sort());
  expect([...executedTransitions].sort()).toEqual([...transitions].sort());
}
