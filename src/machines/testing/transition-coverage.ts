// For the machine tests: which of a flat machine's transitions (every guarded candidate of every state)
// a step takes, so a test can assert that the graph `createTestModel` builds reaches all of them.
import type { AnyStateMachine, EventObject } from 'xstate';

interface TransitionCandidate {
  guard?: unknown;
}

const guardName = (guard: unknown): string =>
  typeof guard === 'string' ? guard : ((guard as { type?: string } | undefined)?.type ?? '');

/** `state|event|#index(guard)`: one id per candidate transition, in the order the machine tries them. */
function idOf(stateKey: string, eventType: string, index: number, candidate: TransitionCandidate) {
  return `${stateKey}|${eventType}|#${index}${guardName(candidate.guard) ? `(${guardName(candidate.guard)})` : ''}`;
}

/** Every transition of every top-level state of the machine. */
export function allTransitionIds(machine: AnyStateMachine): string[] {
  const ids: string[] = [];
  for (const node of Object.values(machine.root.states)) {
    for (const [eventType, candidates] of node.transitions) {
      candidates.forEach((candidate: TransitionCandidate, index: number) => {
        ids.push(idOf(node.key, eventType, index, candidate));
      });
    }
  }
  return ids;
}

/** The transition the machine takes for `event` in `snapshot`, or null when it takes none. */
export function takenTransitionId(
  machine: AnyStateMachine,
  snapshot: { value: unknown },
  event: EventObject,
): string | null {
  const [taken] = machine.getTransitionData(snapshot as never, event);
  if (!taken) return null;
  const stateKey = String(snapshot.value);
  const candidates = machine.root.states[stateKey]?.transitions.get(event.type) ?? [];
  const index = candidates.indexOf(taken);
  return index < 0 ? null : idOf(stateKey, event.type, index, taken);
}

interface Adjacency {
  [node: string]: { state: { value: unknown }; transitions: Record<string, { event: EventObject }> };
}

/** The transitions taken by the edges of a model's adjacency map (every reachable state × sample event). */
export function transitionIdsOfGraph(machine: AnyStateMachine, adjacency: unknown): Set<string> {
  const ids = new Set<string>();
  for (const { state, transitions } of Object.values(adjacency as Adjacency)) {
    for (const { event } of Object.values(transitions)) {
      const id = takenTransitionId(machine, state, event);
      if (id) ids.add(id);
    }
  }
  return ids;
}
