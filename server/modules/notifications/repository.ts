// Stored notifications (the mailbox). Every read and write is scoped to one user: a user id from the
// verified token is part of every WHERE, so nobody reads or marks another user's notifications.
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Notification } from '../../../contracts/notifications';
import type { Db, Tx } from '../../db/client';
import { notifications } from '../../db/schema';

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

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    link: row.link,
    taskId: row.taskId,
    taskName: row.taskName,
    status: row.status,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
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

/** A page of the user's notifications, newest first (index notifications_user_idx, read backwards). */
export async function listNotifications(db: Db, userId: string, page: { skip: number; limit: number }) {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .offset(page.skip)
    .limit(page.limit);
  const [counts] = await db
    .select({
      count: count(),
      unreadCount: sql<number>`count(*) FILTER (WHERE ${notifications.readAt} IS NULL)`.mapWith(Number),
    })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  return { rows, count: counts?.count ?? 0, unreadCount: counts?.unreadCount ?? 0 };
}

/** How many of the user's notifications are unread (partial index notifications_unread_idx). */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks the given notifications read, or all of the user's when `ids` is absent. Others' ids match nothing. */
export async function markRead(db: Db, userId: string, ids?: string[]): Promise<void> {
  const conditions = [eq(notifications.userId, userId), isNull(notifications.readAt)];
  if (ids) conditions.push(inArray(notifications.id, ids));
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(...conditions));
}
