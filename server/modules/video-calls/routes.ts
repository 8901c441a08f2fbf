import { and, asc, count, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CALL_PERMISSION } from '../../../contracts/calls';
import { serverRoles } from '../../../contracts/roles';
import { userRoom } from '../../../contracts/socket-events';
import {
  VIDEO_PEOPLE_PATH,
  type VideoPerson,
  videoPeopleQuerySchema,
  videoPeopleResponseSchema,
} from '../../../contracts/video-calls';
import { sellers, users } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { containsPattern } from '../../lib/like-pattern';
import { displayName } from '../users/current-user';
import { mayCall } from '../voice/call-policy';

const PREFIX = '/api/v1/videoCalls';
if (!VIDEO_PEOPLE_PATH.startsWith(`${PREFIX}/`)) throw new Error('VIDEO_PEOPLE_PATH moved: update PREFIX');

/** Registered with this prefix (app.ts): the route's own path is the rest of VIDEO_PEOPLE_PATH. */
export const VIDEO_CALLS_PREFIX = PREFIX;

/**
 * The people a user may video call (the header's picker): active users the call policy lets them call
 * (a seller sees admins and staff, never other sellers), never themselves, searchable by name or
 * e-mail, by name, paged on the server. `online` is for the page only: one fetchSockets for its rooms
 * (the picker then follows it live, presence.ts). A seller whose subscription is blocked is listed
 * with `blocked`: found when searched for, with the reason they cannot be called.
 */
export async function videoCallRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    VIDEO_PEOPLE_PATH.slice(PREFIX.length),
    {
      config: { permission: CALL_PERMISSION },
      schema: {
        tags: ['video calls'],
        summary: 'The people the signed-in user may video call, by name, paged, with who is online',
        querystring: videoPeopleQuerySchema,
        response: {
          200: videoPeopleResponseSchema,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const { search, skip, limit } = request.query;
      const me = request.user;
      const roles = serverRoles.filter((role) => mayCall(me.role, role));
      const filters: SQL[] = [eq(users.isActive, true), ne(users.id, me.id), inArray(users.role, roles)];
      if (search) {
        const pattern = containsPattern(search);
        filters.push(
          or(
            ilike(users.email, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ) as SQL,
        );
      }
      const where = and(...filters);
      const [rows, [total]] = await Promise.all([
        app.db
          .select({
            id: users.id,
            firstName: users.firstName,
            lastName: users.lastName,
            email: users.email,
            role: users.role,
            avatarUrl: users.avatarUrl,
            // Blocked and not new, as the blocked-seller guard reads it (plugins/blocked-seller.ts).
            blocked: sql<boolean>`coalesce(${sellers.blocked} and not ${sellers.isNewSeller}, false)`,
          })
          .from(users)
          .leftJoin(sellers, eq(sellers.id, users.sellerId))
          .where(where)
          // By name as people read it (displayName: the e-mail's name when there is no name).
          .orderBy(
            asc(
              sql`lower(coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email}))`,
            ),
            asc(users.id),
          )
          .limit(limit)
          .offset(skip),
        app.db.select({ value: count() }).from(users).where(where),
      ]);
      const online = new Set<string>();
      if (rows.length > 0) {
        const sockets = await app.signalling.io.in(rows.map((row) => userRoom(row.id))).fetchSockets();
        for (const socket of sockets) online.add(socket.data.user.id);
      }
      const result: VideoPerson[] = rows.map((row) => ({
        id: row.id,
        name: displayName(row.firstName, row.lastName, row.email),
        email: row.email,
        role: row.role,
        avatarUrl: row.avatarUrl,
        online: online.has(row.id),
        blocked: row.blocked,
      }));
      return { data: { result, count: total?.value ?? 0 } };
    },
  );
}
