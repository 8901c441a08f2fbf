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

/** What `createTestModel` offers that completing the coverage needs. */
interface GraphModel {
  getShortestPaths(options?: { allowDuplicatePaths?: boolean }): unknown[];
  getAdjacencyMap(): unknown;
}

/**
 * Paths for the transitions of the model's graph that `covered` lacks (shortest paths reach every node
 * but not every edge): for each, the shortest path to a node it leaves from, then the transition.
 * `idsOf` names the machine transitions one step takes (none, one or several); `covered` is updated.
 * A model with its own `serializeState` (where a node is more than its snapshot: how the real world
 * got there) passes `nodeKeyOf`, the adjacency map's key of the node a path ends in; otherwise nodes are
 * told apart by value and context.
 */
export function completionPaths<Snapshot extends { value: unknown; context: unknown }, Event>(
  model: GraphModel,
  idsOf: (from: Snapshot, event: Event, to: Snapshot) => string | string[] | null,
  covered: Set<string>,
  nodeKeyOf?: (path: ModelPath<Snapshot, Event>) => string,
): ModelPath<Snapshot, Event>[] {
  const snapshotKey = (snapshot: Snapshot) => JSON.stringify([snapshot.value, snapshot.context]);
  const pathKey = nodeKeyOf ?? ((path: ModelPath<Snapshot, Event>) => snapshotKey(path.state));
  const shortestTo = new Map<string, ModelPath<Snapshot, Event>>();
  for (const path of model.getShortestPaths({ allowDuplicatePaths: true }) as ModelPath<Snapshot, Event>[]) {
    const known = shortestTo.get(pathKey(path));
    if (!known || path.steps.length < known.steps.length) shortestTo.set(pathKey(path), path);
  }
  const adjacency = model.getAdjacencyMap() as Record<
    string,
    { state: Snapshot; transitions: Record<string, { event: Event; state: Snapshot }> }
  >;
  const nodes = Object.entries(adjacency)
    .map(([key, node]) => ({ node, head: shortestTo.get(nodeKeyOf ? key : snapshotKey(node.state)) }))
    .filter((entry) => entry.head !== undefined)
    .sort((a, b) => (a.head?.steps.length ?? 0) - (b.head?.steps.length ?? 0));
  const paths: ModelPath<Snapshot, Event>[] = [];
  for (const { node, head } of nodes) {
    if (!head) continue;
    for (const { event, state: next } of Object.values(node.transitions)) {
      const taken = idsOf(node.state, event, next);
      const ids = taken === null ? [] : Array.isArray(taken) ? taken : [taken];
      if (ids.length === 0 || ids.every((id) => covered.has(id))) continue;
      for (const id of ids) covered.add(id);
      paths.push({ state: next, steps: [...head.steps, { state: next, event }], weight: head.weight + 1 });
    }
  }
  return paths;
}

/**
 * `nodeKeyOf` for a model whose `serializeState(snapshot, event, previous)` tells nodes apart by how
 * they were reached: the key of the node a path ends in.
 */
export function serializedNodeKey<Snapshot, Event>(
  serialize: (snapshot: Snapshot, event?: Event, previous?: Snapshot) => string,
): (path: ModelPath<Snapshot, Event>) => string {
  return (path) => {
    const last = path.steps.at(-1);
    const previous = path.steps.at(-2);
    const event = last?.event as { type: string } | undefined;
    return serialize(
      path.state,
      event?.type === 'xstate.init' ? undefined : (event as Event),
      previous?.state,
    );
  };
}

/** The machine transitions a path takes, step by step, as `idsOf` names them. */
export function pathTransitions<Snapshot, Event>(
  path: ModelPath<Snapshot, Event>,
  idsOf: (from: Snapshot, event: Event) => string | null,
): string[] {
  return path.steps
    .slice(1)
    .map((step, i) => idsOf(path.steps[i]?.state as Snapshot, step.event as Event))
    .filter((id): id is string => id !== null);
}
