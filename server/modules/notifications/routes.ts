import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  listNotificationsQuerySchema,
  markNotificationsReadBodySchema,
  notificationListSchema,
  unreadCountSchema,
} from '../../../contracts/notifications';
import { errorResponses } from '../../lib/error-responses';
import { listNotifications, markRead, toNotification, unreadCount } from './repository';

// Every signed-in user has notifications, so these routes name no page permission: each reads and
// writes only the caller's own rows. A blocked seller keeps the bell too (their renewal is answered there).
const ownNotifications = { allowBlockedSeller: true } as const;
const errors = errorResponses(400, 401);

/** The bell: `localEventMessage/listEventMessages` (SPEC §7) and marking notifications read. */
export async function notificationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/listEventMessages',
    {
      config: ownNotifications,
      schema: {
        tags: ['notifications'],
        summary: "A page of the caller's notifications, newest first, with the total and unread counts",
        querystring: listNotificationsQuerySchema,
        response: { 200: notificationListSchema, ...errors },
      },
    },
    async (request) => {
      const page = await listNotifications(app.db, request.user.id, request.query);
      return {
        data: { result: page.rows.map(toNotification), count: page.count, unreadCount: page.unreadCount },
      };
    },
  );

  api.post(
    '/markRead',
    {
      config: ownNotifications,
      schema: {
        tags: ['notifications'],
        summary: "Marks some of the caller's notifications read; answers the unread count",
        description: 'Ids of notifications that are not the caller’s are ignored.',
        body: markNotificationsReadBodySchema,
        response: { 200: unreadCountSchema, ...errors },
      },
    },
    async (request) => {
      await markRead(app.db, request.user.id, request.body.ids);
      return { unreadCount: await unreadCount(app.db, request.user.id) };
    },
  );

  api.post(
    '/markAllRead',
    {
      config: ownNotifications,
      schema: {
        tags: ['notifications'],
        summary: "Marks all the caller's notifications read",
        response: { 200: unreadCountSchema, ...errors },
      },
    },
    async (request) => {
      await markRead(app.db, request.user.id);
      return { unreadCount: await unreadCount(app.db, request.user.id) };
    },
  );
}
