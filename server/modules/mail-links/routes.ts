import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../contracts/auth';
import {
  CAMPAIGN_GONE_MESSAGE,
  collectResponseBodySchema,
  INVALID_LINK_MESSAGE,
  RESPONSE_RECORDED_MESSAGE,
  responseLinkQuerySchema,
  responseOptionsSchema,
  UNSUBSCRIBED_MESSAGE,
  unknownAnswerMessage,
  unsubscribeBodySchema,
} from '../../../contracts/mail-links';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { requestLimit } from '../../plugins/rate-limits';
import { answerLabelsOf } from '../campaigns/mail-texts';
import type { MailLinks } from './links';
import {
  campaignAnswers,
  currentAnswer,
  offeredAnswer,
  recipientLanguage,
  recordResponse,
  unsubscribe,
} from './service';

export const TOO_MANY_MESSAGE = 'Too many requests. Try again in a few minutes.';

const errors = errorResponses(400, 403, 404, 429);

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

  // RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` to the URL of the
  // List-Unsubscribe header (links.ts oneClickUnsubscribeUrl), without cookies or a page. Throttled by
  // address, not by client IP: a mailbox provider sends every user's click from a few addresses of its
  // own. The HMAC token is the proof, as for the page's link.
  const oneClickThrottle = requestLimit(app, {
    name: 'one-click-unsubscribe',
    max: 20,
    timeWindow: 10 * 60_000,
    message: TOO_MANY_MESSAGE,
    key: (request) => String((request.query as { email?: unknown }).email ?? '').toLowerCase(),
  });
  await app.register(async (scope) => {
    // Form bodies only here: the rest of the API speaks JSON. RFC 8058 allows either encoding; the
    // body is tiny, so both are read as text and the one field is picked out.
    const small = { parseAs: 'string' as const, bodyLimit: 4096 };
    scope.addContentTypeParser('application/x-www-form-urlencoded', small, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as unknown as string)));
    });
    scope.addContentTypeParser('multipart/form-data', small, (_request, body, done) => {
      const value = /name="List-Unsubscribe"\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/i.exec(
        body as unknown as string,
      )?.[1];
      done(null, value === undefined ? {} : { 'List-Unsubscribe': value });
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/oneClickUnsubscribe',
      {
        config: { public: true },
        preHandler: oneClickThrottle,
        schema: {
          tags: ['mail links'],
          summary:
            'One-click unsubscribe (RFC 8058), POSTed by mail clients from the List-Unsubscribe header',
          querystring: unsubscribeBodySchema,
          body: z.object({
            'List-Unsubscribe': z.literal('One-Click', 'The body must be List-Unsubscribe=One-Click'),
          }),
          response: { 200: messageSchema, ...errors },
        },
      },
      async (request) => {
        const { email, token } = request.query;
        if (!links.verify('unsubscribe', token, email))
          throw new HttpError(403, INVALID_LINK_MESSAGE, 'INVALID_LINK');
        await unsubscribe(app.db, email, 'one_click');
        return { message: UNSUBSCRIBED_MESSAGE };
      },
    );
  });

  /** The campaign's answers behind a verified response link; 404 when the campaign is gone. */
  const answersOf = async (link: { email: string; token: string; campaign: string }) => {
    if (!links.verify('response', link.token, link.email, link.campaign))
      throw new HttpError(403, INVALID_LINK_MESSAGE, 'INVALID_LINK');
    const answers = await campaignAnswers(app.db, link.campaign);
    if (answers === null) throw new HttpError(404, CAMPAIGN_GONE_MESSAGE, 'CAMPAIGN_NOT_FOUND');
    return answers;
  };

  api.get(
    '/responseOptions',
    {
      config: { public: true },
      preHandler: throttle,
      schema: {
        tags: ['mail links'],
        summary: "The answers a campaign mail offers and the recipient's current one (signed link)",
        querystring: responseLinkQuerySchema,
        response: { 200: responseOptionsSchema, ...errors },
      },
    },
    async (request) => {
      const { options, labels } = await answersOf(request.query);
      const { email, campaign } = request.query;
      // Worded as the recipient's mail was (its template language).
      const language = (await recipientLanguage(app.db, campaign, email)) ?? '';
      return {
        options,
        labels: answerLabelsOf(options, labels, language),
        current: await currentAnswer(app.db, email, campaign),
      };
    },
  );

  api.post(
    '/collectResponse',
    {
      config: { public: true },
      preHandler: throttle,
      schema: {
        tags: ['mail links'],
        summary:
          "Record a recipient's answer to a campaign mail: one of the campaign's answers (signed link)",
        body: collectResponseBodySchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const { options } = await answersOf(request.body);
      const response = offeredAnswer(options, request.body.response);
      if (response === null)
        throw new HttpError(400, unknownAnswerMessage(options), 'UNKNOWN_ANSWER', {
          response: unknownAnswerMessage(options),
        });
      await recordResponse(app.db, { ...request.body, response });
      return { message: RESPONSE_RECORDED_MESSAGE };
    },
  );
}
