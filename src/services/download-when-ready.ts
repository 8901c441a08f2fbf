// Files a job writes (an error sheet) are downloaded by the page that asked for them as soon as they are
// ready (issue 26: "Download error sheet" used to leave the file in the bell). The task's end is learnt
// from the broker, as the "… Completed" toast is (the task store), and from a slow poll of the task for
// when the broker is not connected. Leaving the page stops the watch: the bell's entry is enough then.
import { useCallback, useEffect, useRef, useState } from 'react';
import { exportDownloadPath } from '../../contracts/exports';
import { type TaskStatus, taskSchema } from '../../contracts/notifications';
import { notify } from '../ui/notify';
import { downloadTaskFile } from './downloads';
import { getErrorMessage, http } from './http';
import { isTaskFinished, taskStore } from './tasks';

/** How often a watched task is asked after, in case its completion never reaches the broker. */
export const TASK_POLL_MS = 5000;
const ENDED: readonly TaskStatus[] = ['Completed', 'Failed'];

/** Resolves with the task's last status once it ended; rejects when `signal` aborts. */
export function waitForTask(taskId: string, signal: AbortSignal, pollMs = TASK_POLL_MS): Promise<TaskStatus> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let asking = false;
    // Asked again while a question is out (the broker's news came meanwhile): ask once more after it.
    let again = false;
    const ask = async (): Promise<void> => {
      if (asking) {
        again = true;
        return;
      }
      asking = true;
      try {
        const answer = await http.get(`/api/v1/tasks/${encodeURIComponent(taskId)}`, {
          signal,
          silent: true,
        });
        const task = taskSchema.parse(answer.data);
        if (ENDED.includes(task.status)) {
          stop();
          resolve(task.status);
          return;
        }
      } catch {
        // A poll that failed: the next one, or the broker, tells.
      } finally {
        asking = false;
      }
      if (again && !signal.aborted) {
        again = false;
        await ask();
      }
    };
    // The broker's completion removes the task from the store (or beat the answer that started it).
    const onStore = () => {
      if (isTaskFinished(taskId)) void ask();
    };
    const unsubscribe = taskStore.subscribe(onStore);
    const timer = setInterval(() => void ask(), pollMs);
    const onAbort = () => {
      stop();
      reject(signal.reason);
    };
    function stop() {
      clearInterval(timer);
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
    signal.addEventListener('abort', onAbort);
    // Asked once at once: a quick job may be done already.
    void ask();
  });
}

/**
 * `start(taskId)` watches an export-like task and downloads its file when it completes; `waiting` while
 * any is watched. Unmounting stops every watch.
 */
export function useDownloadWhenReady() {
  const [watched, setWatched] = useState(0);
  const controllers = useRef(new Set<AbortController>());
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running) controller.abort();
    };
  }, []);
  const start = useCallback(async (taskId: string) => {
    const controller = new AbortController();
    controllers.current.add(controller);
    setWatched((count) => count + 1);
    try {
      // A failed task says so in its own toast and in the bell.
      if ((await waitForTask(taskId, controller.signal)) === 'Completed')
        await downloadTaskFile(exportDownloadPath(taskId));
    } catch (error) {
      if (!controller.signal.aborted)
        notify({
          type: 'error',
          title: 'The file was not downloaded',
          description: `${getErrorMessage(error)} It is still in your notifications.`,
        });
    } finally {
      controllers.current.delete(controller);
      if (!controller.signal.aborted) setWatched((count) => count - 1);
    }
  }, []);
  return { start, waiting: watched > 0 };
}
