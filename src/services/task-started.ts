// The "… started" toast of a long action (an export, a bulk mail). The task's own toast ("… Completed")
// comes from the broker, which can beat the HTTP answer that started the task when the job is quick;
// the "started" toast must then stay away rather than follow its completion.

import { type NotifyOptions, notify } from '../ui/notify';
import { isTaskFinished } from './tasks';

export function notifyTaskStarted(
  task: { taskId: string } | null | undefined,
  toast: NotifyOptions,
): string | null {
  if (task && isTaskFinished(task.taskId)) return null;
  return notify(toast);
}
