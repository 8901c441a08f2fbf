// Notifications and background tasks (SPEC §3 "Notification message", §7, ARCHITECTURE.md "long
// action"): the stored list the bell shows, the broker message that rings the bell, and the
// `taskStatus` a long action answers with. Shared by the server, the browser and the tests.
import { z } from 'zod';
import { intParam } from './int-param';

export const NOTIFICATION_PAGE_SIZE = 20;

/**
 * Job and task statuses. Only `Completed` is a success (SPEC §7 task toast); `Paused` ends a task its
 * user paused (a bulk mail: resuming starts a new task), neither a success nor a failure.
 */
export const taskStatuses = ['Queued', 'Running', 'Completed', 'Paused', 'Failed'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** What a long action answers at once (the browser's task handler records it). */
export const taskStatusSchema = z.object({
  taskId: z.string(),
  taskName: z.string(),
  status: z.enum(taskStatuses),
});
export type TaskStatusInfo = z.infer<typeof taskStatusSchema>;
export const taskAcceptedSchema = z.object({ taskStatus: taskStatusSchema });
export type TaskAccepted = z.infer<typeof taskAcceptedSchema>;

/** A task as its owner may follow it (progress is visible while it runs). */
export const taskSchema = taskStatusSchema.extend({
  progress: z.number().int().min(0).max(100),
  attempts: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why the last attempt failed, in words for the user. */
  error: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

/** One stored notification, as the bell's drawer lists it. */
export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  /** An in-app path (opened in the app) or an `/api/v1/…` download path (fetched with the token). */
  link: z.string().nullable(),
  taskId: z.string().nullable(),
  taskName: z.string().nullable(),
  status: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const listNotificationsQuerySchema = z.object({
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(NOTIFICATION_PAGE_SIZE),
});

/** `localEventMessage/listEventMessages`: SPEC §7 puts the list in `data.result`. */
export const notificationListSchema = z.object({
  data: z.object({
    result: z.array(notificationSchema),
    count: z.number().int(),
    unreadCount: z.number().int(),
  }),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const markNotificationsReadBodySchema = z.object({
  ids: z.array(z.string().uuid('Unknown notification')).min(1).max(100),
});

export const unreadCountSchema = z.object({ unreadCount: z.number().int() });

/**
 * The broker message on `{prefix}_{userId}_message` (SPEC §3): `type` NOTIFICATION, with `taskName`,
 * `status` and `taskId` when it reports a task. The stored notification's id rides along so the
 * browser can tell a message it already has from a new one.
 */
export const notificationMessageSchema = z.object({
  type: z.literal('NOTIFICATION'),
  notificationId: z.string().optional(),
  title: z.string().optional(),
  body: z.string().optional(),
  link: z.string().nullable().optional(),
  taskName: z.string().optional(),
  taskId: z.string().optional(),
  status: z.string().optional(),
});
export type NotificationMessage = z.infer<typeof notificationMessageSchema>;

/** `GET /api/v1/tasks`: the caller's recent tasks, newest first. */
export const listTasksQuerySchema = z.object({
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});

export const taskListSchema = z.object({
  result: z.array(taskSchema),
  count: z.number().int(),
});
export type TaskList = z.infer<typeof taskListSchema>;

/** Where the owner follows one task (progress, status, error). */
export function taskPath(taskId: string): string {
  return `/api/v1/tasks/${taskId}`;
}
