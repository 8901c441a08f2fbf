// The offers API (issue 30) under /api/v1/offers. The list and New need the Offer requests permission
// ('/customers/offer-requests'), one offer's routes its page's ('/customers/offer': view to read, edit
// to change the draft, approve to send); both have the same defaults per role. A seller sees
// only their own shop's offers (another's answer 404). /public/{token} is the customer's signed link:
// no account, HMAC-checked, a forged or tampered token answers 404 with words, never a stack trace.

import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { diffOffers } from '../../../contracts/domain/offer-diff';
import {
  createOfferBodySchema,
  diffQuerySchema,
  OFFER_PAGE,
  OFFERS_ROUTE,
  type OfferPricing,
  offerDetailSchema,
  offerDraftBodySchema,
  offerListQuerySchema,
  offerListSchema,
  publicOfferSchema,
  publicResponseBodySchema,
  publicResponseResultSchema,
  versionDiffSchema,
} from '../../../contracts/offers';
import { offerVersions } from '../../db/schema';
import { resourceErrors as errors } from '../../lib/error-responses';
import { contentDisposition } from '../../lib/file-responses';
import { HttpError } from '../../lib/http-error';
import { sweepWhileUp } from '../../lib/periodic-sweep';
import { permissionOn, viewerOf } from '../../lib/route-viewer';
import { mailLinkSecret } from '../mail-links/links';
import { actorOf } from '../users/actor';
import { offerVersionPdf } from './offer-pdf';
import { createOfferRequest } from './requests';
import {
  createOfferLinks,
  findVisible,
  listOffers,
  type OfferLinks,
  offerDetail,
  publicOffer,
  respondToOffer,
  runOfferExpiry,
  saveDraft,
  sendOffer,
} from './service';

const permission = permissionOn(OFFERS_ROUTE);
/** One record's own API answers to its page's permission (the list's defaults, overridable apart). */
const onPage = permissionOn(OFFER_PAGE);
const tags = ['offers'];
const idParams = z.object({ id: z.uuid('There is no such offer.') });
const tokenParams = z.object({ token: z.string().max(200) });

/** How often every instance sweeps for expired offers and due reminders. */
const SWEEP_MS = 60_000;

export async function offerRoutes(
  app: FastifyInstance,
  options: { publicUrl: string; mailLinkSecret?: string; links?: OfferLinks },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const links =
    options.links ??
    createOfferLinks(await mailLinkSecret(app.db, options.mailLinkSecret), options.publicUrl);

  sweepWhileUp(app, {
    name: 'offer expiry sweep',
    everyMs: SWEEP_MS,
    log: app.log,
    run: () => runOfferExpiry(app, links, new Date()),
  });

  api.get(
    '/',
    {
      config: permission('view'),
      schema: {
        tags,
        summary: 'A page of offers and offer requests, with the status tab counts',
        querystring: offerListQuerySchema,
        response: { 200: offerListSchema, ...errors },
      },
    },
    async (request) => listOffers(app.db, viewerOf(request), request.query),
  );

  api.post(
    '/',
    {
      config: permission('edit'),
      schema: {
        tags,
        summary: 'Record an offer request on a customer’s behalf',
        body: createOfferBodySchema,
        response: { 201: offerDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const body = request.body;
      const sellerId = viewer.isSeller ? viewer.sellerId : body.sellerId;
      if (!sellerId) throw new HttpError(400, 'Choose a seller from the list.', 'SELLER_REQUIRED');
      const made = await createOfferRequest(
        app.db,
        { ...body, sellerId },
        {
          actor: await actorOf(app.db, request),
          notify: (userId, input) => app.notifications.notify(userId, input),
        },
      );
      reply.code(201);
      return offerDetail(app, viewer, made.id);
    },
  );

  api.get(
    '/:id',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'An offer: request, draft, versions, answers and history',
        params: idParams,
        response: { 200: offerDetailSchema, ...errors },
      },
    },
    async (request) => offerDetail(app, viewerOf(request), request.params.id),
  );

  api.put(
    '/:id/draft',
    {
      config: onPage('edit'),
      schema: {
        tags,
        summary: 'Save the next version’s draft; the server prices it',
        params: idParams,
        body: offerDraftBodySchema,
        response: { 200: offerDetailSchema, ...errors },
      },
    },
    async (request) =>
      saveDraft(app, viewerOf(request), await actorOf(app.db, request), request.params.id, request.body),
  );

  api.post(
    '/:id/send',
    {
      config: onPage('approve'),
      schema: {
        tags,
        summary: 'Freeze the draft as the next version and mail its link',
        params: idParams,
        response: { 200: offerDetailSchema, ...errors },
      },
    },
    async (request) =>
      sendOffer(app, links, viewerOf(request), await actorOf(app.db, request), request.params.id),
  );

  api.get(
    '/:id/versions/:version/diff',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'What changed in a version against another (default the one before)',
        params: idParams.extend({ version: z.coerce.number().int().min(1).max(1_000_000) }),
        querystring: diffQuerySchema,
        response: { 200: versionDiffSchema, ...errors },
      },
    },
    async (request) => {
      const { id, version } = request.params;
      await findVisible(app.db, viewerOf(request), id);
      const against = request.query.against ?? version - 1;
      const snapshotOf = async (n: number) => {
        if (n === 0) return null;
        const [row] = await app.db
          .select({ snapshot: offerVersions.snapshot })
          .from(offerVersions)
          .where(and(eq(offerVersions.offerId, id), eq(offerVersions.version, n)));
        if (!row)
          throw new HttpError(404, `There is no version ${n} of this offer.`, 'OFFER_VERSION_NOT_FOUND');
        return (row.snapshot as { offer: OfferPricing }).offer;
      };
      const after = await snapshotOf(version);
      const before = await snapshotOf(against);
      return { version, against, diff: diffOffers(before, after!) };
    },
  );

  api.get(
    '/:id/versions/:version/pdf',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'A version as sent, as a PDF',
        params: idParams.extend({ version: z.coerce.number().int().min(1).max(1_000_000) }),
      },
    },
    async (request, reply) => {
      await findVisible(app.db, viewerOf(request), request.params.id);
      const { pdf, name } = await offerVersionPdf(app, request.params.id, request.params.version);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition('inline', name))
        .send(pdf);
    },
  );

  // The customer's signed link (no account).
  api.get(
    '/public/:token',
    {
      config: { public: true, rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'The offer version a signed link shows',
        params: tokenParams,
        response: { 200: publicOfferSchema, ...errors },
      },
    },
    async (request) => publicOffer(app, links, request.params.token),
  );

  for (const [path, decision] of [
    ['accept', 'accepted'],
    ['decline', 'declined'],
  ] as const) {
    api.post(
      `/public/:token/${path}`,
      {
        config: { public: true, rateLimit: { max: 20, timeWindow: 60_000 } },
        schema: {
          tags,
          summary:
            decision === 'accepted' ? 'Accept the offer (typed name as signature)' : 'Decline the offer',
          params: tokenParams,
          body: publicResponseBodySchema,
          response: { 200: publicResponseResultSchema, ...errors },
        },
      },
      async (request) =>
        respondToOffer(app, links, request.params.token, decision, request.body, {
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
        }),
    );
  }
}
