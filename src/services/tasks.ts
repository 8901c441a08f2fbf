// The task handler (SPEC §7): a response carrying `taskStatus` means the server accepted a long task
// (import, export, publish, …). It is remembered under its id in the stored tasks map until its
// completion arrives on the broker (which calls `removeTask`), and a "task generated" flag is raised.
//
// A tiny subscribable store, usable with React's useSyncExternalStore and free of React and XState;
// the auth adapter mirrors `tasks` into the stored auth.
import { z } from 'zod';
import { type StoredTask, type StoredTasks, sameTasks } from './stored-auth';

export const taskStatusBodySchema = z.object({
  taskStatus: z.object({
    taskId: z.union([z.string().min(1), z.number()]).transform(String),
    taskName: z.string(),
    status: z.string().optional(),
  }),
});
export type TaskStatusBody = z.input<typeof taskStatusBodySchema>;

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
  return taskStatusBodySchema.safeParse(body).success;
}

/**
 * The task handler: records the task of a `{ taskStatus: { taskId, taskName, status } }` body and raises
 * the flag. Returns the task id, or null when the body carries no usable taskStatus.
 */
export function handleTaskResponse(body: unknown, now: number = Date.now()): string | null {
  const parsed = taskStatusBodySchema.safeParse(body);
  if (!parsed.success) return null;
  const { taskId, taskName } = parsed.data.taskStatus;
  const task: StoredTask = { name: taskName, timestamp: now };
  setState({ taskGenerated: true, tasks: { ...state.tasks, [taskId]: task } });
  return taskId;
}

/** Forgets a task (its completion arrived). Returns it, or undefined when it was not known. */
export function removeTask(id: string): StoredTask | undefined {
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
  setState({ taskGenerated: false, tasks: {} });
}
