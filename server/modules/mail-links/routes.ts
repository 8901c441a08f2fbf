import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema } from '../../../contracts/auth';
import { apiErrorSchema } from '../../../contracts/errors';
import {
  collectResponseBodySchema,
  INVALID_LINK_MESSAGE,
  RESPONSE_RECORDED_MESSAGE,
  UNSUBSCRIBED_MESSAGE,
  unsubscribeBodySchema,
} from '../../../contracts/mail-links';
import { HttpError } from '../../lib/http-error';
import { requestLimit } from '../../plugins/rate-limits';
import type { MailLinks } from './links';
import { recordResponse, unsubscribe } from './service';

export const TOO_MANY_MESSAGE = 'Too many requests. Try again in a few minutes.';

const errors = { 400: apiErrorSchema, 403: apiErrorSchema, 429: apiErrorSchema };

/**
 * The public endpoints behind /unsubscribe and /responseCollection. No account: the signed link is the
 * proof (see links.ts), and each address may call at most 20 times in 10 minutes.
 */
export async function mailLinkRoutes(app: FastifyInstance, options: { links: MailLinks }) {
  const { links } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Both routes count together.
  const throttle = requestLimit(app, {
    name: 'mail-links',
    max: 20,
    timeWindow: 10 * 60_000,
    message: TOO_MANY_MESSAGE,
  });

  api.post(
    '/unsubscribeEmailUser',
    {
      config: { public: true },
      preHandler: throttle,
      schema: {
        tags: ['mail links'],
        summary: 'Unsubscribe an address from marketing mail (signed link from a mail)',
        body: unsubscribeBodySchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const { email, token } = request.body;
      if (!links.verify('unsubscribe', token, email))
        throw new HttpError(403, INVALID_LINK_MESSAGE, 'INVALID_LINK');
      await unsubscribe(app.db, email);
      return { message: UNSUBSCRIBED_MESSAGE };
    },
  );

  api.post(
    '/collectResponse',
    {
      config: { public: true },
      preHandler: throttle,
      schema: {
        tags: ['mail links'],
        summary: "Record a recipient's answer to a campaign mail (signed link from a mail)",
        body: collectResponseBodySchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const { email, token, campaign } = request.body;
      if (!links.verify('response', token, email, campaign))
        throw new HttpError(403, INVALID_LINK_MESSAGE, 'INVALID_LINK');
      await recordResponse(app.db, request.body);
      return { message: RESPONSE_RECORDED_MESSAGE };
    },
  );
}
