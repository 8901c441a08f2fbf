// Storing a notification (the mailbox's one write): modules notify their users through
// server/modules/notifications/service.ts, and the jobs queue notifies a task's owner of its outcome in
// the job's own transaction, so the write lives here, below both.

import type { notificationTypes } from '../../contracts/settings';
import type { Db, Tx } from '../db/client';
import { notifications } from '../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

/** The kinds of notification the settings route per role (contracts/settings.ts notificationTypes). */
export type NotificationType = (typeof notificationTypes)[number];

export interface NotificationInput {
  /** Which kind it is: the communication settings decide per role whether it goes in-app, by mail, both or nowhere. */
  type?: NotificationType;
  title: string;
  body?: string;
  /** An in-app path, or an `/api/v1/…` download path. */
  link?: string | null;
  /** Set when the notification reports a background task's outcome. */
  taskId?: string | null;
  taskName?: string | null;
  status?: string | null;
}

/**
 * Decides a notification's channels (server/modules/notifications/channels.ts, set when that module
 * loads: this base folder imports no module). It may queue the mail in `db`, the caller's transaction;
 * it answers whether the notification is also stored in-app.
 */
export type NotificationChannels = (
  db: Db | Tx,
  userId: string,
  input: NotificationInput,
) => Promise<boolean>;

let channels: NotificationChannels | undefined;

export function setNotificationChannels(next: NotificationChannels | undefined): void {
  channels = next;
}

/**
 * Stores a notification (when its channels include in-app; else answers null, as for a task notified
 * already: nothing to publish). A task is notified at most once (unique index notifications_task_uq): a second
 * notification for the same task is not stored and this answers null, so its caller publishes nothing.
 */
export async function insertNotification(
  db: Db | Tx,
  userId: string,
  input: NotificationInput,
): Promise<NotificationRow | null> {
  if (input.type && channels && !(await channels(db, userId, input))) return null;
  const [row] = await db
    .insert(notifications)
    .values({
      userId,
      title: input.title,
      body: input.body ?? '',
      link: input.link ?? null,
      taskId: input.taskId ?? null,
      taskName: input.taskName ?? null,
      status: input.status ?? null,
    })
    .onConflictDoNothing({ target: notifications.taskId })
    .returning();
  return row ?? null;
}
