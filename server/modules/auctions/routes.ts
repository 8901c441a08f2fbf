// The auctions API (issue 32) under /api/v1/auctions. Manage Auctions' permission guards the list
// (view), creating (create), editing and cancelling (edit); one auction's page guards its detail, live
// state and ledger (view), staff bidding for a customer (edit) and, for admins, cancelling a bid.
// /public/{token}/… is the customer's signed link: no account, HMAC-checked, rate limited.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUCTION_PAGE,
  AUCTIONS_ROUTE,
  type AuctionWatchers,
  auctionBodySchema,
  auctionDetailSchema,
  auctionEventBodySchema,
  auctionEventSchema,
  auctionListQuerySchema,
  auctionListSchema,
  auctionTopic,
  BIDDER_TOKEN_HEADER,
  bidBodySchema,
  bidderSessionSchema,
  bidResultSchema,
  CLAIMED_MESSAGE,
  cancelBidBodySchema,
  cancelBodySchema,
  claimBodySchema,
  claimResultSchema,
  confirmBodySchema,
  ledgerEntrySchema,
  ledgerQuerySchema,
  liveSnapshotSchema,
  publicAuctionSchema,
  publicTokenSchema,
  REGISTRATION_CODE_SENT_MESSAGE,
  registerBodySchema,
  registrationSchema,
  staffBidBodySchema,
} from '../../../contracts/auctions';
import { auctions } from '../../db/schema';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { permissionOn, viewerOf } from '../../lib/route-viewer';
import { mailLinkSecret } from '../mail-links/links';
import { actorOf } from '../users/actor';
import {
  type AuctionLinks,
  auctionOfToken,
  bidderOfToken,
  confirm,
  createAuctionLinks,
  register,
  staffBidder,
} from './bidders';
import { type BidInput, decideBid, liveStateOf, publicBidOf } from './bids';
import { cancelBid } from './cancel-bid';
import { registerClosing, scheduleClose } from './closing';
import { auctionEventOf, createAuctionEvent } from './events';
import { createAuctionPublisher } from './live';
import { mailBiddersCancelled, mailClosed, mailOutbid, registerAuctionMail } from './mail';
import {
  auctionDetail,
  auctionOf,
  cancelAuction,
  createAuction,
  ledgerAfter,
  listAuctions,
  liveSnapshot,
  publicAuction,
  updateAuction,
} from './service';
import { claimWin, offerToNextBidder, relist, sweepLapsed } from './settlement';

const onList = permissionOn(AUCTIONS_ROUTE);
const onPage = permissionOn(AUCTION_PAGE);
const tags = ['auctions'];
const idParams = z.object({ id: z.uuid('There is no such auction.') });
const tokenParams = z.object({ token: publicTokenSchema });
const bidParams = idParams.extend({ sequence: z.coerce.number().int().min(1).max(1e9) });

export interface AuctionRoutesOptions {
  publicUrl: string;
  mailLinkSecret?: string;
  links?: AuctionLinks;
  /** Coalescing of topic messages (ms); tests set 0. */
  coalesceMs?: number;
}

export async function auctionRoutes(app: FastifyInstance, options: AuctionRoutesOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const links =
    options.links ??
    createAuctionLinks(await mailLinkSecret(app.db, options.mailLinkSecret), options.publicUrl);
  const watchers = (id: string) => app.broker.audience?.(auctionTopic(id)) ?? 0;
  const publisher = createAuctionPublisher({
    broker: app.broker,
    watchers,
    log: app.log,
    coalesceMs: options.coalesceMs,
  });
  app.addHook('onClose', async () => {
    await publisher.flush();
    publisher.stop();
  });
  // The watchers' count as it changes (the broker counts each auction topic's listeners).
  app.broker.onAudienceChange?.((topics) => {
    for (const topic of topics) {
      const auctionId = topic.slice(auctionTopic('').length);
      const message: AuctionWatchers = {
        type: 'watchers',
        auctionId,
        watchers: watchers(auctionId),
        serverTime: new Date().toISOString(),
      };
      void app.broker.publish(topic, message, { qos: 0 }).catch(() => {});
    }
  });
  registerAuctionMail(app, links);
  registerClosing(app, publisher);
  sweepLapsed(app);

  /** Decides a bid and tells everyone: the topic, the outbid bidder's mail, the closing job. */
  async function bid(input: BidInput) {
    const decided = await decideBid(app.db, input);
    const publicBid = publicBidOf(decided.entry, decided.bidderName);
    publisher.changed(decided.auction, { bid: publicBid, outbidId: decided.outbidId, now: decided.now });
    if (decided.outbidId) await mailOutbid(app, decided.auction.id, decided.outbidId);
    // Buy Now ended it: settle now. (A late bid that moved the end needs nothing: the close job, finding
    // the end moved, queues itself again for the new one.)
    if (decided.auction.status === 'ended') await scheduleClose(app, decided.auction);
    return {
      sequence: decided.entry.sequence,
      state: liveStateOf(decided.auction, decided.now.getTime(), watchers(decided.auction.id)),
      leading: decided.auction.leaderBidderId === input.bidderId,
    };
  }

  // -------------------------------------------------------------------------------------------------
  // Staff

  api.get(
    '/',
    {
      config: onList('view'),
      schema: {
        tags,
        summary: 'A page of auctions, with the status tab counts',
        querystring: auctionListQuerySchema,
        response: { 200: auctionListSchema, ...errors },
      },
    },
    async (request) => listAuctions(app.db, viewerOf(request), request.query),
  );

  api.post(
    '/',
    {
      config: onList('create'),
      schema: {
        tags,
        summary: 'Create an auction (a draft, or published to start at its time)',
        body: auctionBodySchema,
        response: { 201: auctionDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const row = await createAuction(app, viewer, await actorOf(app.db, request), request.body);
      if (row.status === 'scheduled') await scheduleClose(app, row);
      reply.code(201);
      return auctionDetail(app.db, viewer, row.id, { watchers: 0, publicUrl: links.url(row.id) });
    },
  );

  api.post(
    '/events',
    {
      config: onList('create'),
      schema: {
        tags,
        summary: 'Create an event: several lots whose ends are staggered, each an auction of its own',
        body: auctionEventBodySchema,
        response: { 201: auctionEventSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const actor = await actorOf(app.db, request);
      const { eventId, lots } = await createAuctionEvent(app, viewer, actor, request.body);
      for (const row of lots) if (row.status === 'scheduled') await scheduleClose(app, row);
      reply.code(201);
      return auctionEventOf(app.db, viewer, eventId);
    },
  );

  api.get(
    '/events/:id',
    {
      config: onList('view'),
      schema: {
        tags,
        summary: 'An event and its lots in the order they end',
        params: z.object({ id: z.uuid('There is no such auction event.') }),
        response: { 200: auctionEventSchema, ...errors },
      },
    },
    async (request) => auctionEventOf(app.db, viewerOf(request), request.params.id),
  );

  api.get(
    '/:id',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'One auction: its terms, live state, ledger, bidders and history',
        params: idParams,
        response: { 200: auctionDetailSchema, ...errors },
      },
    },
    async (request) =>
      auctionDetail(app.db, viewerOf(request), request.params.id, {
        watchers: watchers(request.params.id),
        publicUrl: links.url(request.params.id),
      }),
  );

  api.put(
    '/:id',
    {
      config: onList('edit'),
      schema: {
        tags,
        summary: 'Edit a draft or a scheduled auction (a live one’s terms cannot change)',
        params: idParams,
        body: auctionBodySchema,
        response: { 200: auctionDetailSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { id } = request.params;
      const row = await updateAuction(app, viewer, await actorOf(app.db, request), id, request.body);
      if (row.status === 'scheduled') await scheduleClose(app, row);
      publisher.changed(row, { now: new Date() });
      return auctionDetail(app.db, viewer, id, { watchers: watchers(id), publicUrl: links.url(id) });
    },
  );

  api.post(
    '/:id/cancel',
    {
      config: onList('edit'),
      schema: {
        tags,
        summary: 'Cancel an auction with a reason its bidders are mailed',
        params: idParams,
        body: cancelBodySchema,
        response: { 200: auctionDetailSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { id } = request.params;
      const actor = await actorOf(app.db, request);
      const row = await cancelAuction(app.db, viewer, actor, id, request.body.reason);
      publisher.changed(row, { now: new Date() });
      await mailBiddersCancelled(app, row);
      return auctionDetail(app.db, viewer, id, { watchers: watchers(id), publicUrl: links.url(id) });
    },
  );

  api.get(
    '/:id/live',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'The live state and latest bids (to start from, or catch up after a gap)',
        params: idParams,
        response: { 200: liveSnapshotSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOf(app.db, viewerOf(request), request.params.id);
      return liveSnapshot(app.db, row, watchers(row.id));
    },
  );

  api.get(
    '/:id/ledger',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'The ledger after a sequence, oldest first (maxima included)',
        params: idParams,
        querystring: ledgerQuerySchema,
        response: { 200: z.object({ result: z.array(ledgerEntrySchema) }), ...errors },
      },
    },
    async (request) => {
      const row = await auctionOf(app.db, viewerOf(request), request.params.id);
      return { result: await ledgerAfter(app.db, row.id, request.query) };
    },
  );

  api.post(
    '/:id/bids',
    {
      config: onPage('edit'),
      schema: {
        tags,
        summary: 'Bid for a customer (a registered bidder, or a new one by name and e-mail)',
        params: idParams,
        body: staffBidBodySchema,
        response: { 200: bidResultSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOf(app.db, viewerOf(request), request.params.id);
      const bidderId = await staffBidder(app.db, row.id, request.user.id, request.body);
      return bid({
        auctionId: row.id,
        bidderId,
        maxMinor: request.body.maxMinor,
        currency: request.body.currency,
        placedBy: request.user.id,
      });
    },
  );

  api.post(
    '/:id/bids/:sequence/cancel',
    {
      config: onPage('edit'),
      schema: {
        tags,
        summary: 'Cancel a bid (admins): the ledger keeps it, the state is replayed without it',
        params: bidParams,
        body: cancelBidBodySchema,
        response: { 200: liveSnapshotSchema, ...errors },
      },
    },
    async (request) => {
      if (request.user.role !== 'Admin')
        throw new HttpError(403, 'Only an admin may cancel a bid.', 'FORBIDDEN');
      const viewer = viewerOf(request);
      await auctionOf(app.db, viewer, request.params.id);
      const actor = await actorOf(app.db, request);
      const row = await cancelBid(
        app.db,
        actor,
        request.params.id,
        request.params.sequence,
        request.body.reason,
      );
      publisher.changed(row, { now: new Date() });
      await scheduleClose(app, row);
      return liveSnapshot(app.db, row, watchers(row.id));
    },
  );

  api.post(
    '/:id/offer-next',
    {
      config: onList('edit'),
      schema: {
        tags,
        summary: 'The winner did not give an address in time: offer the lot to the next bidder',
        params: idParams,
        response: { 200: auctionDetailSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const row = await auctionOf(app.db, viewer, request.params.id);
      const updated = await offerToNextBidder(app, await actorOf(app.db, request), row);
      publisher.changed(updated, { now: new Date() });
      await mailClosed(app, updated);
      return auctionDetail(app.db, viewer, row.id, {
        watchers: watchers(row.id),
        publicUrl: links.url(row.id),
      });
    },
  );

  api.post(
    '/:id/relist',
    {
      config: onList('create'),
      schema: {
        tags,
        summary: 'Relist an unsold or unpaid lot as a new draft with the same terms',
        params: idParams,
        response: { 201: auctionDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const row = await auctionOf(app.db, viewer, request.params.id);
      const copy = await relist(app, await actorOf(app.db, request), row);
      reply.code(201);
      return auctionDetail(app.db, viewer, copy.id, { watchers: 0, publicUrl: links.url(copy.id) });
    },
  );

  // -------------------------------------------------------------------------------------------------
  // The public page

  const publicRoute = (max: number) => ({ public: true, rateLimit: { max, timeWindow: 60_000 } });

  api.get(
    '/public/:token',
    {
      config: publicRoute(120),
      schema: {
        tags,
        summary: 'The auction’s public page (signed link)',
        params: tokenParams,
        response: { 200: publicAuctionSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOfToken(app.db, links, request.params.token);
      return publicAuction(app.db, row, await liveSnapshot(app.db, row, watchers(row.id)), links);
    },
  );

  api.get(
    '/public/:token/live',
    {
      config: publicRoute(240),
      schema: {
        tags,
        summary: 'The live state and latest bids (catching up after a gap or a reconnect)',
        params: tokenParams,
        response: { 200: liveSnapshotSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOfToken(app.db, links, request.params.token);
      return liveSnapshot(app.db, row, watchers(row.id));
    },
  );

  api.post(
    '/public/:token/register',
    {
      config: publicRoute(10),
      schema: {
        tags,
        summary: 'Register to bid: a six-digit code is mailed to the address',
        params: tokenParams,
        body: registerBodySchema,
        response: { 200: registrationSchema.extend({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const row = await auctionOfToken(app.db, links, request.params.token);
      const registration = await register(app.db, row, request.body);
      await app.mailer.send({
        to: registration.email,
        subject: `Your code to bid on “${row.title}”`,
        text: `Hello ${request.body.name},\n\nYour code to bid on “${row.title}” is ${registration.code}.\nIt is valid for 15 minutes.\n\nIf you did not ask for it, ignore this e-mail.\n`,
      });
      return { registrationId: registration.registrationId, message: REGISTRATION_CODE_SENT_MESSAGE };
    },
  );

  api.post(
    '/public/:token/confirm',
    {
      config: publicRoute(20),
      schema: {
        tags,
        summary: 'Confirm the mailed code: the bidder token this browser keeps',
        params: tokenParams,
        body: confirmBodySchema,
        response: { 200: bidderSessionSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOfToken(app.db, links, request.params.token);
      return confirm(app.db, row, request.body.registrationId, request.body.code);
    },
  );

  api.post(
    '/public/:token/bids',
    {
      // Counted per bidder (many bidders may share one address): ten bids a second is more than a
      // person bids, and a script is held to it.
      config: {
        public: true,
        rateLimit: {
          max: 600,
          timeWindow: 60_000,
          keyGenerator: (request: { headers: Record<string, unknown>; ip: string }) => {
            const token = request.headers[BIDDER_TOKEN_HEADER];
            return typeof token === 'string' ? `bidder:${token.slice(0, 100)}` : request.ip;
          },
        },
      },
      schema: {
        tags,
        summary: 'Bid, or set a maximum the server bids up to by the increment',
        params: tokenParams,
        body: bidBodySchema,
        response: { 200: bidResultSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOfToken(app.db, links, request.params.token);
      const token = request.headers[BIDDER_TOKEN_HEADER];
      const bidder = await bidderOfToken(app.db, row.id, typeof token === 'string' ? token : undefined);
      return bid({
        auctionId: row.id,
        bidderId: bidder.id,
        maxMinor: request.body.maxMinor,
        currency: request.body.currency,
        placedBy: null,
      });
    },
  );

  api.post(
    '/public/:token/claim',
    {
      config: publicRoute(10),
      schema: {
        tags,
        summary: 'The winner gives a shipping address: their order is made at the hammer price',
        params: tokenParams,
        body: claimBodySchema,
        response: { 200: claimResultSchema, ...errors },
      },
    },
    async (request) => {
      const row = await auctionOfToken(app.db, links, request.params.token);
      const token = request.headers[BIDDER_TOKEN_HEADER];
      const bidder = await bidderOfToken(app.db, row.id, typeof token === 'string' ? token : undefined);
      const order = await claimWin(app, row, bidder, request.body.shippingAddress);
      const [updated] = await app.db.select().from(auctions).where(eq(auctions.id, row.id));
      if (updated) publisher.changed(updated, { now: new Date() });
      return { orderNumber: order.number, message: CLAIMED_MESSAGE };
    },
  );
}
