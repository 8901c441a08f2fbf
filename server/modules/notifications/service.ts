// Notifications: the database is the mailbox, the broker only the doorbell (issue 4 "nothing lost").
// A notification is stored first and published after; if publishing fails the notification is still
// there, and the browser refetches the stored list after every reconnect, so it still appears — once.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Notification, NotificationMessage } from '../../../contracts/notifications';
import type { Db } from '../../db/client';
import type { Broker } from '../../realtime/broker';
// Loaded with the service: from then on every typed notification takes the channels the settings give.
import './channels';
import {
  insertNotification,
  type NotificationInput,
  type NotificationRow,
  toNotification,
} from './repository';

export interface Notifications {
  /**
   * Stores a notification for the user, then rings their bell. Answers the stored notification, or
   * null when the notification reports a task that was already notified (nothing is published then).
   */
  notify(userId: string, input: NotificationInput): Promise<Notification | null>;
  /** Rings the bell for a notification already stored. A failure is logged, never thrown. */
  publish(row: NotificationRow): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

/** The broker message for a stored notification (contracts notificationMessageSchema). */
export function notificationMessage(row: NotificationRow): NotificationMessage {
  return {
    type: 'NOTIFICATION',
    notificationId: row.id,
    title: row.title,
    body: row.body,
    link: row.link,
    ...(row.taskId ? { taskId: row.taskId } : {}),
    ...(row.taskName ? { taskName: row.taskName } : {}),
    ...(row.status ? { status: row.status } : {}),
  };
}

/**
 * A broker that is down may hold a publish until it is back (an external broker's offline queue); the
 * notification is stored, so the caller (a request, the job worker) stops waiting after this long.
 */
const PUBLISH_TIMEOUT_MS = 5000;

export function createNotifications(deps: {
  db: Db;
  broker: Pick<Broker, 'publishToUser'>;
  log: FastifyBaseLogger;
  publishTimeoutMs?: number;
}): Notifications {
  const timeoutMs = deps.publishTimeoutMs ?? PUBLISH_TIMEOUT_MS;
  const publish = async (row: NotificationRow) => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the broker in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([deps.broker.publishToUser(row.userId, notificationMessage(row)), timedOut]);
    } catch (error) {
      // Stored already: the browser finds it when it refetches after its next (re)connect.
      deps.log.warn({ err: error, notificationId: row.id }, 'publishing a notification failed');
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    publish,
    async notify(userId, input) {
      const row = await insertNotification(deps.db, userId, input);
      if (!row) return null;
      await publish(row);
      return toNotification(row);
    },
  };
}

/** `app.notifications.notify(userId, { title, body, link, … })` for every feature. */
export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    // Looked up on each publish, not captured: tests (and the external broker mode) may swap the broker.
    const broker: Pick<Broker, 'publishToUser'> = {
      publishToUser: (userId, message) => app.broker.publishToUser(userId, message),
    };
    app.decorate('notifications', createNotifications({ db: app.db, broker, log: app.log }));
  },
  { name: 'notifications', dependencies: ['db', 'broker'] },
);
