// The task handler (SPEC §7): a response carrying `taskStatus` means the server accepted a long task
// (import, export, publish, …). It is remembered under its id in the stored tasks map until its
// completion arrives on the broker (which calls `removeTask`), and a "task generated" flag is raised.
//
// A tiny subscribable store, usable with React's useSyncExternalStore and free of React and XState;
// the auth adapter mirrors `tasks` into the stored auth.
import { type StoredTask, type StoredTasks, sameTasks } from './stored-auth';

/** A response that started a long task (SPEC §7). `taskId` may come as a number; it is kept as text. */
export interface TaskStatusBody {
  taskStatus: { taskId: string | number; taskName: string; status?: string };
}

// A hand-written check rather than a zod schema: this module is in the entry chunk, and zod loads
// later, with the first API call.
function taskStatusOf(body: unknown): { taskId: string; taskName: string } | null {
  if (!body || typeof body !== 'object' || !('taskStatus' in body)) return null;
  const status: unknown = body.taskStatus;
  if (!status || typeof status !== 'object') return null;
  const { taskId, taskName, status: text } = status as Record<string, unknown>;
  const validId =
    (typeof taskId === 'string' && taskId !== '') || (typeof taskId === 'number' && Number.isFinite(taskId));
  if (!validId || typeof taskName !== 'string') return null;
  if (text !== undefined && typeof text !== 'string') return null;
  return { taskId: String(taskId), taskName };
}

export interface TaskState {
  /** Raised when a response generated a task; lowered by whoever shows it (`acknowledgeTasks`). */
  taskGenerated: boolean;
  tasks: StoredTasks;
}

type Listener = () => void;

let state: TaskState = { taskGenerated: false, tasks: {} };
const listeners = new Set<Listener>();

function setState(next: TaskState): void {
  if (next.taskGenerated === state.taskGenerated && sameTasks(next.tasks, state.tasks)) return;
  state = next;
  for (const listener of [...listeners]) listener();
}

export const taskStore = {
  getSnapshot: (): TaskState => state,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** True when a response body carries a well-formed `taskStatus`. */
export function hasTaskStatus(body: unknown): body is TaskStatusBody {
  return taskStatusOf(body) !== null;
}

/**
 * The task handler: records the task of a `{ taskStatus: { taskId, taskName, status } }` body and raises
 * the flag. Returns the task id, or null when the body carries no usable taskStatus.
 */
export function handleTaskResponse(body: unknown, now: number = Date.now()): string | null {
  const parsed = taskStatusOf(body);
  if (!parsed) return null;
  const { taskId, taskName } = parsed;
  // A quick task's completion can arrive on the broker before the answer that started it: it is done,
  // not running.
  if (finished.includes(taskId)) return taskId;
  const task: StoredTask = { name: taskName, timestamp: now };
  setState({ taskGenerated: true, tasks: { ...state.tasks, [taskId]: task } });
  return taskId;
}

/** Ids of tasks whose completion arrived, newest last (a few: they matter for a moment). */
const finished: string[] = [];
const FINISHED_KEPT = 50;

/**
 * Whether the task's completion already arrived. A "… started" toast asks first: shown after the
 * task's own "… Completed" toast it would say the opposite of what happened.
 */
export function isTaskFinished(id: string): boolean {
  return finished.includes(id);
}

/** Forgets a task (its completion arrived). Returns it, or undefined when it was not known. */
export function removeTask(id: string): StoredTask | undefined {
  if (!finished.includes(id)) {
    finished.push(id);
    if (finished.length > FINISHED_KEPT) finished.shift();
  }
  const task = state.tasks[id];
  if (!task) return undefined;
  const { [id]: _removed, ...rest } = state.tasks;
  setState({ ...state, tasks: rest });
  return task;
}

/** Lowers the "task generated" flag. */
export function acknowledgeTasks(): void {
  setState({ ...state, taskGenerated: false });
}

/** Replaces the map (restored, refreshed or synced auth). Leaves the flag as it is. */
export function replaceTasks(tasks: StoredTasks): void {
  setState({ ...state, tasks: { ...tasks } });
}

/** Back to empty: sign-out, tests. */
export function resetTasks(): void {
  finished.length = 0;
  setState({ taskGenerated: false, tasks: {} });
}
