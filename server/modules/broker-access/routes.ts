// The broker's authentication and ACL over HTTP, for sites that run their own MQTT broker (EMQX, or
// Mosquitto with mosquitto-go-auth) instead of the embedded one: the same decisions the embedded broker
// makes (server/realtime/broker-decisions.ts), in each product's documented format
// (contracts/broker-access.ts). Registered only with BROKER_HTTP_SECRET; without it these paths are 404.
//
// The caller proves it is the site's broker with that secret, in `Authorization: Bearer <secret>` or
// `X-Broker-Secret: <secret>` (EMQX sends configured headers), or in the query parameter
// `broker_secret` (mosquitto-go-auth's HTTP backend sends no custom header, only its URI; the request
// log redacts that parameter).
import { createHash, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type BrokerAclBody,
  brokerAclBodySchema,
  brokerAuthBodySchema,
  emqxAnswerSchema,
  goAuthAnswerSchema,
} from '../../../contracts/broker-access';
import type { BrokerUser } from '../../../contracts/broker-topics';
import { isUuid } from '../../../contracts/domain/ids';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { TokenUser } from '../../lib/auth-types';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { decideConnect, decideTopic, type TopicAccess } from '../../realtime/broker-decisions';
import { decideWatcher, WATCHER_USERNAME, watcherOfClient } from '../../realtime/watchers';

export const BROKER_SECRET_REQUIRED_MESSAGE = 'This endpoint answers only the site’s MQTT broker.';
export const BROKER_SECRET_QUERY = 'broker_secret';

export interface BrokerAccessOptions {
  secret: string;
  /** MQTT_TOPIC_PREFIX: the prefix of the users' own topics. */
  topicPrefix: string;
  readsAllChats(user: TokenUser): Promise<boolean>;
  /** The auction a public token is for (auctions' signed links), for watchers of its topic. */
  watchAuction?(token: string): string | null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time (digests first, so the lengths match and leak nothing either). */
export function secretMatches(expected: string, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(digest(expected), digest(given));
}

function givenSecret(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const header = request.headers['x-broker-secret'];
  if (typeof header === 'string') return header;
  const query = (request.query as Record<string, unknown> | undefined)?.[BROKER_SECRET_QUERY];
  return typeof query === 'string' ? query : undefined;
}

/** An answer in the asking broker's format: EMQX always 200, mosquitto-go-auth 200 or 403. */
function answer(reply: FastifyReply, format: 'emqx' | 'go-auth', allowed: boolean, reason = '') {
  if (format === 'emqx')
    return reply.code(200).send({ result: allowed ? 'allow' : 'deny', is_superuser: false });
  return reply.code(allowed ? 200 : 403).send({ ok: allowed, error: allowed ? '' : reason });
}

/** The broker's username is the user's id: who they are now (role, seller, still active). */
async function currentUser(db: Db, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ id: users.id, role: users.role, sellerId: users.sellerId, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row?.isActive ? row : undefined;
}

/** What mosquitto's access values ask for, as our accesses (3 is read and write: both must hold). */
function accessesOf(body: BrokerAclBody): TopicAccess[] {
  if (body.action) return [body.action];
  switch (body.acc) {
    case 1:
      return ['read'];
    case 2:
      return ['publish'];
    case 3:
      return ['read', 'publish'];
    default:
      return ['subscribe'];
  }
}

export async function brokerAccessRoutes(app: FastifyInstance, options: BrokerAccessOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { secret, topicPrefix } = options;
  // mosquitto-go-auth's `http_params_mode form` posts a form: read here only, the API speaks JSON.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  // Before the body is read: nobody else learns anything from these endpoints, not even a 400.
  app.addHook('onRequest', async (request) => {
    if (!secretMatches(secret, givenSecret(request)))
      throw new HttpError(401, BROKER_SECRET_REQUIRED_MESSAGE, 'UNAUTHORIZED');
  });
  const answers = {
    200: z.union([emqxAnswerSchema, goAuthAnswerSchema]),
    403: goAuthAnswerSchema,
    ...errorResponses(400, 401),
  };

  api.post(
    '/auth',
    {
      config: { public: true },
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['broker'],
        summary: 'May this MQTT client connect? (EMQX HTTP authentication, mosquitto-go-auth getuser)',
        description:
          'For an external broker, with the broker secret. The username is the user id, the password an access token.',
        body: brokerAuthBodySchema,
        response: answers,
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.username === WATCHER_USERNAME) {
        const watcher = decideWatcher(options.watchAuction, body.clientid, body.password);
        return answer(
          reply,
          body.peerhost === undefined ? 'go-auth' : 'emqx',
          watcher !== null,
          'Not a valid auction link',
        );
      }
      const decision = await decideConnect(
        { tokens: app.tokens, readsAllChats: options.readsAllChats },
        body.username,
        body.password,
      );
      if (!decision.allowed)
        request.log.debug({ clientId: body.clientid, reason: decision.reason }, 'broker: connection refused');
      if (body.peerhost === undefined)
        return answer(reply, 'go-auth', decision.allowed, decision.allowed ? '' : decision.reason);
      if (!decision.allowed) return answer(reply, 'emqx', false);
      // EMQX ≥ 5.8 ends the connection when the token expires, as the embedded broker does.
      return reply.code(200).send({
        result: 'allow',
        is_superuser: false,
        expire_at: Math.floor(decision.token.expiresAt / 1000),
      });
    },
  );

  api.post(
    '/acl',
    {
      config: { public: true },
      bodyLimit: 80 * 1024,
      schema: {
        tags: ['broker'],
        summary:
          'May this MQTT client publish, subscribe or receive here? (EMQX HTTP authorization, mosquitto-go-auth aclcheck)',
        description:
          'For an external broker, with the broker secret. EMQX sends action publish|subscribe; mosquitto-go-auth sends acc 1 read, 2 write, 3 readwrite, 4 subscribe.',
        body: brokerAclBodySchema,
        response: answers,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const format = body.action ? 'emqx' : 'go-auth';
      const accesses = accessesOf(body);
      if (body.username === WATCHER_USERNAME) {
        const watcher = watcherOfClient(body.clientid);
        const allowed =
          watcher !== null &&
          accesses.every((access) => decideTopic(watcher, access, body.topic, topicPrefix));
        return answer(reply, format, allowed, allowed ? '' : 'Not allowed on this topic');
      }
      const found = await currentUser(app.db, body.username);
      if (!found) return answer(reply, format, false, 'No such active user');
      const user: BrokerUser = {
        id: found.id,
        role: found.role,
        sellerId: found.sellerId,
        readsAllChats: false,
      };
      const allowedAs = (who: BrokerUser) =>
        accesses.every((access) => decideTopic(who, access, body.topic, topicPrefix));
      let allowed = allowedAs(user);
      // Every seller's chats are for admins and staff with the permission: read it only when it matters.
      if (!allowed && found.role !== 'Seller') {
        const tokenUser: TokenUser = {
          id: found.id,
          role: found.role,
          sellerId: found.sellerId,
          sessionId: '',
        };
        if (await options.readsAllChats(tokenUser).catch(() => false))
          allowed = allowedAs({ ...user, readsAllChats: true });
      }
      return answer(reply, format, allowed, allowed ? '' : 'Not allowed on this topic');
    },
  );
}
