// Stored notifications (the mailbox). Every read and write is scoped to one user: a user id from the
// verified token is part of every WHERE, so nobody reads or marks another user's notifications.
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Notification } from '../../../contracts/notifications';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import type { NotificationRow } from '../../lib/notifications';

export {
  insertNotification,
  type NotificationInput,
  type NotificationRow,
} from '../../lib/notifications';

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
