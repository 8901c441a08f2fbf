// Auction events (issue 32): several lots of one seller created together, their scheduled ends staggered
// `gapSeconds` apart (contracts/domain/auction-rules.ts staggeredEnds), so bidders follow each close in
// turn instead of all at once (fishauctions#33). Each lot is an auction of its own with its own effective
// end and hard end: a late bid extends that lot only, and never the next one (Perfect Horse Auctions).
import { and, asc, eq, type SQL } from 'drizzle-orm';
import {
  type AuctionBody,
  type AuctionEvent,
  type AuctionEventBody,
  type EventPlace,
  PUBLIC_AUCTION_PREFIX,
  type PublicAuction,
} from '../../../contracts/auctions';
import { staggeredEnds } from '../../../contracts/domain/auction-rules';
import type { Db } from '../../db/client';
import { auctionEvents, auctions, products } from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import type { RouteViewer } from '../../lib/route-viewer';
import { sellerNames } from '../../lib/tabbed-list';
import type { AuctionLinks } from './bidders';
import { type AuctionRow, databaseNow, statusAt } from './bids';
import { listItemOf } from './list-item';
import { type AuctionApp, mustStartLater, termsFrom } from './terms';

const eventNotFound = () => new HttpError(404, 'There is no such auction event.', 'AUCTION_EVENT_NOT_FOUND');

/** The event's fields a lot's terms come from: a lot's error on them is the event's. */
const EVENT_FIELDS: Partial<Record<keyof AuctionBody, keyof AuctionEventBody>> = {
  sellerId: 'sellerId',
  currency: 'currency',
  startsAt: 'startsAt',
  endsAt: 'firstEndsAt',
  hardEndAt: 'hardEndAfterSeconds',
};

/** A lot's terms error, said of that lot (`lots.1.productId`) or of the event's own field. */
function lotError(error: unknown, index: number): unknown {
  if (!(error instanceof HttpError) || !error.fields) return error;
  const fields: Record<string, string> = {};
  let message = error.message;
  for (const [field, text] of Object.entries(error.fields)) {
    const eventField = EVENT_FIELDS[field as keyof AuctionBody];
    if (eventField) fields[eventField] = text;
    else {
      fields[`lots.${index}.${field}`] = text;
      message = `Lot ${index + 1}: ${text}`;
    }
  }
  return new HttpError(error.status, message, error.code, fields);
}

/** Creates the event and its lots in one transaction (all or none), each lot ending `gapSeconds` later. */
export async function createAuctionEvent(
  app: AuctionApp,
  viewer: RouteViewer,
  actor: Actor,
  body: AuctionEventBody,
): Promise<{ eventId: string; lots: AuctionRow[] }> {
  const ends = staggeredEnds(new Date(body.firstEndsAt).getTime(), body.lots.length, body.gapSeconds * 1000);
  const lotTerms: Awaited<ReturnType<typeof termsFrom>>[] = [];
  for (const [index, lot] of body.lots.entries()) {
    const end = ends[index]!;
    const lotBody: AuctionBody = {
      ...lot,
      sellerId: body.sellerId,
      currency: body.currency,
      startsAt: body.startsAt,
      endsAt: new Date(end).toISOString(),
      hardEndAt: new Date(end + body.hardEndAfterSeconds * 1000).toISOString(),
      softCloseSeconds: body.softCloseSeconds,
      extensionSeconds: body.extensionSeconds,
      paymentHours: body.paymentHours,
      publish: body.publish,
    };
    try {
      lotTerms.push(await termsFrom(app, viewer, lotBody));
    } catch (error) {
      throw lotError(error, index);
    }
  }
  return app.db.transaction(async (tx) => {
    const now = await databaseNow(tx);
    if (body.publish) mustStartLater(lotTerms[0]!.startsAt, now);
    const [event] = await tx
      .insert(auctionEvents)
      .values({
        title: body.title,
        sellerId: lotTerms[0]!.sellerId,
        gapSeconds: body.gapSeconds,
        createdBy: actor.id,
      })
      .returning();
    const lots = await tx
      .insert(auctions)
      .values(
        lotTerms.map((terms) => ({
          ...terms,
          eventId: event!.id,
          status: body.publish ? 'scheduled' : 'draft',
          createdBy: actor.id,
        })),
      )
      .returning();
    for (const [index, row] of lots.entries())
      await recordAudit(tx, {
        subject: { type: 'auction', id: row.id },
        actor,
        action: 'created',
        note: `Lot ${index + 1} of ${lots.length} of “${body.title}”${body.publish ? ', published' : ', as a draft'}`,
      });
    return { eventId: event!.id, lots };
  });
}

/** A seller sees only their own shop's events. */
function visibleEvent(viewer: RouteViewer): SQL | undefined {
  return viewer.isSeller
    ? eq(auctionEvents.sellerId, viewer.sellerId ?? '00000000-0000-0000-0000-000000000000')
    : undefined;
}

/** The lots of an event in the order they end (at most 100, as created). */
const lotsOf = (db: Db, eventId: string) =>
  db
    .select({ auction: auctions, productName: products.title })
    .from(auctions)
    .leftJoin(products, eq(products.id, auctions.productId))
    .where(eq(auctions.eventId, eventId))
    .orderBy(asc(auctions.endsAt), asc(auctions.id))
    .limit(100);

export async function auctionEventOf(db: Db, viewer: RouteViewer, id: string): Promise<AuctionEvent> {
  const [event] = await db
    .select()
    .from(auctionEvents)
    .where(and(eq(auctionEvents.id, id), visibleEvent(viewer)));
  if (!event) throw eventNotFound();
  const [rows, names, now] = await Promise.all([
    lotsOf(db, id),
    sellerNames(db, [event.sellerId]),
    databaseNow(db),
  ]);
  const sellerName = names.get(event.sellerId) ?? null;
  return {
    id: event.id,
    title: event.title,
    sellerId: event.sellerId,
    sellerName,
    gapSeconds: event.gapSeconds,
    createdAt: event.createdAt.toISOString(),
    lots: rows.map((r) => listItemOf(r.auction, r.productName, sellerName, now)),
  };
}

/** Where the auction stands in its event ("Lot 2 of 5"), or null when it is not a lot. */
export async function eventPlaceOf(db: Db, row: AuctionRow): Promise<EventPlace | null> {
  if (!row.eventId) return null;
  const [[event], lots] = await Promise.all([
    db.select({ title: auctionEvents.title }).from(auctionEvents).where(eq(auctionEvents.id, row.eventId)),
    lotsOf(db, row.eventId),
  ]);
  if (!event) return null;
  return {
    id: row.eventId,
    title: event.title,
    lot: lots.findIndex((lot) => lot.auction.id === row.id) + 1,
    lots: lots.length,
  };
}

/** The event's published lots for the public page, each with its own signed link. */
export async function publicEventOf(
  db: Db,
  row: AuctionRow,
  links: AuctionLinks,
): Promise<PublicAuction['event']> {
  if (!row.eventId) return null;
  const [[event], lots, now] = await Promise.all([
    db.select({ title: auctionEvents.title }).from(auctionEvents).where(eq(auctionEvents.id, row.eventId)),
    lotsOf(db, row.eventId),
    databaseNow(db),
  ]);
  if (!event) return null;
  return {
    title: event.title,
    lots: lots
      .filter((lot) => lot.auction.status !== 'draft')
      .map(({ auction }) => ({
        title: auction.title,
        url: `${PUBLIC_AUCTION_PREFIX}${links.token(auction.id)}`,
        status: statusAt(auction, now.getTime()),
        effectiveEndAt: auction.effectiveEndAt.toISOString(),
        current: auction.id === row.id,
      })),
  };
}
