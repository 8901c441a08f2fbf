// Storing a notification (the mailbox's one write): modules notify their users through
// server/modules/notifications/service.ts, and the jobs queue notifies a task's owner of its outcome in
// the job's own transaction, so the write lives here, below both.
import type { Db, Tx } from '../db/client';
import { notifications } from '../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NotificationInput {
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
 * Stores a notification. A task is notified at most once (unique index notifications_task_uq): a second
 * notification for the same task is not stored and this answers null, so its caller publishes nothing.
 */
export async function insertNotification(
  db: Db | Tx,
  userId: string,
  input: NotificationInput,
): Promise<NotificationRow | null> {
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
