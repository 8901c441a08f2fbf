import { useEffect, useState } from 'react';
import type { Notification } from '../../../contracts/notifications';
import { removeTask, taskStore } from '../../services/tasks';
import { notificationsOf, useNotifications } from './api';
import { type LiveStatus, NotificationBell } from './NotificationBell';
import { NotificationDrawer } from './NotificationDrawer';
import { TasksIndicator } from './TasksIndicator';

const FINISHED = new Set(['Completed', 'Paused', 'Failed']);

/**
 * A task whose completion message was missed (the browser was offline, the tab closed) is finished
 * anyway when its notification shows up in the stored list: forget it, so it does not read as running.
 */
export function settleFinishedTasks(items: readonly Notification[]): void {
  const { tasks } = taskStore.getSnapshot();
  for (const item of items) {
    if (item.taskId && tasks[item.taskId] && item.status && FINISHED.has(item.status))
      removeTask(item.taskId);
  }
}

interface NotificationCenterProps {
  liveStatus: LiveStatus;
  /** Something arrived since the drawer was last opened (the bell's dot). */
  hasNew: boolean;
  /** The drawer was opened: the dot goes. */
  onSeen: () => void;
}

/** The header's part of notifications and tasks: running tasks, the bell and its drawer. */
export function NotificationCenter({ liveStatus, hasNew, onSeen }: NotificationCenterProps) {
  const [open, setOpen] = useState(false);
  // While the broker is not connected nothing rings the bell: poll instead.
  const list = useNotifications({ poll: liveStatus !== 'connected' });
  const { unreadCount } = notificationsOf(list.data);

  useEffect(() => {
    settleFinishedTasks(notificationsOf(list.data).items);
  }, [list.data]);

  const setDrawerOpen = (next: boolean) => {
    setOpen(next);
    if (next) onSeen();
  };

  return (
    <>
      <TasksIndicator />
      <NotificationBell
        unreadCount={unreadCount}
        hasNew={hasNew}
        liveStatus={liveStatus}
        onClick={() => setDrawerOpen(true)}
      />
      <NotificationDrawer open={open} onOpenChange={setDrawerOpen} />
    </>
  );
}
