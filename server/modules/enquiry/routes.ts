// The public enquiry form's API (issue 30), under /api/v1/enquiry, without sign-in:
//   GET  /{sellerCode}           the form: the shop's name, Settings → Content's introduction, a form token
//   GET  /{sellerCode}/products  the shop's live products, 20 at a time (the form's product picker)
//   POST /{sellerCode}           a question (a query, channel 'form') or an offer request
// Spam defence, cheapest first: per-address limits (before the body is even read), the honeypot, the
// signed form token (missing, forged, expired, or sent under MIN_FILL_MS after the form was issued), the
// per-e-mail limit, then duplicates (the same address and message to the shop within 24 h). The counters
// are @fastify/rate-limit's: in Redis with REDIS_URL, so every instance counts together (a single
// instance counts in memory). The honeypot and the token share one refusal text: telling a bot which
// check caught it would show it what to change. Only a person can trip "too fast" by accident, so that
// one says what happened; duplicates and limits say so too (409, 429 with Retry-After).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ENQUIRY_MESSAGES,
  ENQUIRY_PRODUCT_PAGE_SIZE,
  type EnquiryAccepted,
  enquiryAcceptedSchema,
  enquiryBodySchema,
  enquiryConfigSchema,
  enquiryProductPageSchema,
  enquiryProductsQuerySchema,
} from '../../../contracts/enquiry';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { requestLimit } from '../../plugins/rate-limits';
import { findSellerByCode } from '../help-chats/repository';
import { plainTextOf } from '../mail-templates/render';
import { localizedHtml, requestLanguage } from '../settings-content/texts';
import { widgetCors } from '../settings-website/cors';
import type { FormTokens } from './form-token';
import { isDuplicate, liveProducts, normalizedMessage } from './repository';
import type { EnquirySink } from './sink';

export interface EnquiryLimits {
  /** Submits per address per hour (a shop's customers rarely share an address). */
  submitsPerIp: number;
  /** Submits per e-mail address per hour, whatever address they come from. */
  submitsPerEmail: number;
  /** Form and product reads per address per minute. */
  readsPerIp: number;
}

export const DEFAULT_ENQUIRY_LIMITS: EnquiryLimits = { submitsPerIp: 5, submitsPerEmail: 3, readsPerIp: 120 };

const HOUR = 60 * 60_000;
const errors = errorResponses(400, 404, 409, 429);
const sellerParams = z.object({ sellerCode: z.string().trim().min(1).max(40) });

const unknownShop = () => new HttpError(404, ENQUIRY_MESSAGES.unknownShop, 'ENQUIRIES_CLOSED');
const refused = () => new HttpError(400, ENQUIRY_MESSAGES.refused, 'ENQUIRY_REFUSED');

/** Only active shops that are not blocked take enquiries; any other code reads as an unknown shop. */
async function shopOf(app: FastifyInstance, sellerCode: string) {
  const seller = await findSellerByCode(app.db, sellerCode);
  if (!seller?.isActive || (seller.blocked && !seller.isNewSeller)) throw unknownShop();
  return seller;
}

export async function enquiryRoutes(
  app: FastifyInstance,
  options: { tokens: FormTokens; sink: EnquirySink; limits?: Partial<EnquiryLimits> },
) {
  const { tokens, sink } = options;
  const limits = { ...DEFAULT_ENQUIRY_LIMITS, ...options.limits };
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The same embedding sites as the chat widget (Settings → Website), read at request time.
  widgetCors(app);
  const limit = (name: string, max: number, timeWindow: number, key?: (r: FastifyRequest) => string) =>
    requestLimit(app, { name: `enquiry-${name}`, max, timeWindow, key, message: ENQUIRY_MESSAGES.tooMany });
  const readsPerIp = limit('reads', limits.readsPerIp, 60_000);
  const submitsPerIp = limit('submits', limits.submitsPerIp, HOUR);
  const submitsPerEmail = limit(
    'email',
    limits.submitsPerEmail,
    HOUR,
    (request) => (request.body as { email: string }).email,
  );

  api.get(
    '/:sellerCode',
    {
      config: { public: true },
      preHandler: readsPerIp,
      schema: {
        tags: ['enquiry'],
        summary: 'The enquiry form of a shop: its name, introduction and a signed form token',
        security: [],
        params: sellerParams,
        response: { 200: enquiryConfigSchema, ...errors },
      },
    },
    async (request) => {
      const seller = await shopOf(app, request.params.sellerCode);
      const { content } = await app.settings.effective(seller.id);
      const html = localizedHtml(content.enquiryIntro, requestLanguage(request.headers['accept-language']));
      return {
        sellerName: seller.sellerName,
        intro: html ? plainTextOf(html) : '',
        languages: Object.entries(content.enquiryIntro)
          .filter(([, text]) => text !== '')
          .map(([language]) => language),
        formToken: tokens.issue(seller.id),
      };
    },
  );

  api.get(
    '/:sellerCode/products',
    {
      config: { public: true },
      preHandler: readsPerIp,
      schema: {
        tags: ['enquiry'],
        summary: "The shop's live products for the enquiry form, 20 at a time, by title or SKU",
        security: [],
        params: sellerParams,
        querystring: enquiryProductsQuerySchema,
        response: { 200: enquiryProductPageSchema, ...errors },
      },
    },
    async (request) => {
      const seller = await shopOf(app, request.params.sellerCode);
      const rows = await liveProducts(app.db, seller.id, request.query.search, request.query.skip);
      return {
        items: rows.slice(0, ENQUIRY_PRODUCT_PAGE_SIZE),
        hasMore: rows.length > ENQUIRY_PRODUCT_PAGE_SIZE,
      };
    },
  );

  api.post(
    '/:sellerCode',
    {
      config: { public: true },
      // The address first, before the body is parsed; the e-mail once it is.
      onRequest: submitsPerIp,
      schema: {
        tags: ['enquiry'],
        summary: 'Send a question or an offer request to the shop',
        security: [],
        params: sellerParams,
        body: enquiryBodySchema,
        response: { 201: enquiryAcceptedSchema, ...errors },
      },
    },
    async (request, reply): Promise<EnquiryAccepted> => {
      const seller = await shopOf(app, request.params.sellerCode);
      const body = request.body;
      if (body.website !== '') throw refused();
      const check = tokens.check(body.formToken, seller.id);
      if (!check.ok) {
        if (check.reason === 'too-fast')
          throw new HttpError(400, ENQUIRY_MESSAGES.tooFast, 'ENQUIRY_TOO_FAST');
        throw refused();
      }
      await submitsPerEmail(request, reply);
      // An offer request has no subject: the form's subject line, when given, heads its message.
      const text =
        body.mode === 'offer' && body.subject ? `${body.subject}\n\n${body.message}` : body.message;
      const message = normalizedMessage(text);
      if (await isDuplicate(app.db, { sellerId: seller.id, email: body.email, message, sinceMs: 24 * HOUR }))
        throw new HttpError(409, ENQUIRY_MESSAGES.duplicate, 'ENQUIRY_DUPLICATE');
      const customer = { name: body.name, email: body.email, phone: body.phone, message: text };
      const accepted =
        body.mode === 'offer'
          ? await sink.offer(app, {
              sellerId: seller.id,
              ...customer,
              subject: body.subject,
              lines: body.lines,
              shippingCountry: body.shippingCountry ?? null,
            })
          : await sink.question(app, {
              sellerId: seller.id,
              ...customer,
              subject: body.subject,
              productId: body.productId ?? null,
            });
      reply.code(201);
      return {
        mode: body.mode,
        reference: accepted.reference,
        message:
          body.mode === 'offer'
            ? `Thank you! ${seller.sellerName} has your request for an offer (${accepted.reference}) and will send you an offer by e-mail.`
            : `Thank you! ${seller.sellerName} has your question (${accepted.reference}) and will answer you by e-mail.`,
      };
    },
  );
}
