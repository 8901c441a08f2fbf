// Auctions (issue 32, docs/auctions.md): create and edit (terms are frozen once the auction is live),
// publish, cancel with a reason, the server-paged list with status tabs, and one auction's page. A
// seller sees only their own shop's auctions (another's answer 404).
import { and, asc, desc, eq, gt, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import {
  type AuctionBody,
  type AuctionDetail,
  type AuctionList,
  type AuctionListQuery,
  type AuctionStatus,
  type AuctionTabs,
  auctionStatuses,
  type LedgerEntry,
  type LiveSnapshot,
  type PublicAuction,
} from '../../../contracts/auctions';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { auctionBidders, auctionBids, auctions, products, sellers } from '../../db/schema';
import { type Actor, readAuditPage, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import type { RouteViewer } from '../../lib/route-viewer';
import { countUpToCap, sellerNames, tabbedTotal } from '../../lib/tabbed-list';
import type { AuctionLinks } from './bidders';
import {
  type AuctionRow,
  auctionNotFound,
  databaseNow,
  liveStateOf,
  lockAuction,
  publicBidOf,
  statusAt,
} from './bids';
import { eventPlaceOf, publicEventOf } from './events';
import { listItemOf } from './list-item';
import { type AuctionApp, mustStartLater, termsFrom } from './terms';

function visible(viewer: RouteViewer): SQL | undefined {
  return viewer.isSeller
    ? eq(auctions.sellerId, viewer.sellerId ?? '00000000-0000-0000-0000-000000000000')
    : undefined;
}

export async function auctionOf(db: Db | Tx, viewer: RouteViewer, id: string): Promise<AuctionRow> {
  const [row] = await db
    .select()
    .from(auctions)
    .where(and(eq(auctions.id, id), visible(viewer)));
  if (!row) throw auctionNotFound();
  return row;
}

export async function createAuction(app: AuctionApp, viewer: RouteViewer, actor: Actor, body: AuctionBody) {
  const terms = await termsFrom(app, viewer, body);
  return app.db.transaction(async (tx) => {
    const now = await databaseNow(tx);
    if (body.publish) mustStartLater(terms.startsAt, now);
    const [row] = await tx
      .insert(auctions)
      .values({ ...terms, status: body.publish ? 'scheduled' : 'draft', createdBy: actor.id })
      .returning();
    await recordAudit(tx, {
      subject: { type: 'auction', id: row!.id },
      actor,
      action: 'created',
      note: body.publish ? 'Created and published' : 'Created as a draft',
    });
    return row!;
  });
}

/** A draft or a scheduled auction that has not started; a live one's terms cannot change. */
export async function updateAuction(
  app: AuctionApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  body: AuctionBody,
) {
  const terms = await termsFrom(app, viewer, body);
  return app.db.transaction(async (tx) => {
    await auctionOf(tx, viewer, id);
    const row = await lockAuction(tx, id);
    const now = await databaseNow(tx);
    const status = statusAt(row, now.getTime());
    if (status !== 'draft' && status !== 'scheduled')
      throw new HttpError(409, 'A live or ended auction’s terms cannot change.', 'AUCTION_FROZEN');
    if (body.publish || status === 'scheduled') mustStartLater(terms.startsAt, now);
    const [updated] = await tx
      .update(auctions)
      .set({
        ...terms,
        status: body.publish || status === 'scheduled' ? 'scheduled' : 'draft',
        version: sql`${auctions.version} + 1`,
        updatedAt: now,
      })
      .where(eq(auctions.id, id))
      .returning();
    await recordAudit(tx, {
      subject: { type: 'auction', id },
      actor,
      action: 'updated',
      note: status === 'draft' && body.publish ? 'Published' : null,
    });
    return updated!;
  });
}

/** Cancels a draft, scheduled or live auction; its bidders are told the reason (by the caller). */
export async function cancelAuction(db: Db, viewer: RouteViewer, actor: Actor, id: string, reason: string) {
  return db.transaction(async (tx) => {
    await auctionOf(tx, viewer, id);
    const row = await lockAuction(tx, id);
    if (row.status === 'ended' || row.status === 'cancelled')
      throw new HttpError(409, 'This auction has ended already.', 'AUCTION_ENDED');
    const now = await databaseNow(tx);
    const [updated] = await tx
      .update(auctions)
      .set({
        status: 'cancelled',
        cancelReason: reason,
        endedAt: now,
        version: sql`${auctions.version} + 1`,
        updatedAt: now,
      })
      .where(eq(auctions.id, id))
      .returning();
    await recordAudit(tx, { subject: { type: 'auction', id }, actor, action: 'cancelled', note: reason });
    return updated!;
  });
}

// ---------------------------------------------------------------------------------------------------
// The list

/** The stored condition of a status tab (live and scheduled split at the database's now). */
function statusCondition(status: AuctionStatus): SQL {
  if (status === 'live') return and(eq(auctions.status, 'scheduled'), lte(auctions.startsAt, sql`now()`))!;
  if (status === 'scheduled')
    return and(eq(auctions.status, 'scheduled'), sql`${auctions.startsAt} > now()`)!;
  return eq(auctions.status, status);
}

async function tabsOf(db: Db, where: SQL | undefined): Promise<AuctionTabs> {
  const result = await db.execute(sql`
    SELECT
      count(*) FILTER (WHERE status = 'draft')::integer AS draft,
      count(*) FILTER (WHERE status = 'scheduled' AND starts_at > now())::integer AS scheduled,
      count(*) FILTER (WHERE status = 'scheduled' AND starts_at <= now())::integer AS live,
      count(*) FILTER (WHERE status = 'ended')::integer AS ended,
      count(*) FILTER (WHERE status = 'cancelled')::integer AS cancelled
    FROM ${auctions} WHERE ${where ?? sql`true`}`);
  const row = rowsOf<Record<AuctionStatus, number>>(result)[0];
  return Object.fromEntries(auctionStatuses.map((s) => [s, Number(row?.[s] ?? 0)])) as AuctionTabs;
}

export async function listAuctions(
  db: Db,
  viewer: RouteViewer,
  query: AuctionListQuery,
): Promise<AuctionList> {
  const scope = and(visible(viewer), query.sellerId ? eq(auctions.sellerId, query.sellerId) : undefined);
  const pattern = query.query ? containsPattern(query.query) : null;
  const number = /^#?(\d{1,15})$/.exec(query.query)?.[1];
  const search = pattern
    ? or(
        ilike(auctions.title, pattern),
        sql`exists (select 1 from ${products} p where p.id = ${auctions.productId} and p.title ilike ${pattern})`,
        number ? eq(auctions.number, Number(number)) : undefined,
      )
    : undefined;
  const filtered = and(
    scope,
    query.currency ? eq(auctions.currency, query.currency) : undefined,
    query.eventId ? eq(auctions.eventId, query.eventId) : undefined,
    search,
  );
  const where = and(filtered, query.status ? statusCondition(query.status) : undefined);
  const [rows, tabs, counted, now] = await Promise.all([
    db
      .select({ auction: auctions, productName: products.title })
      .from(auctions)
      .leftJoin(products, eq(products.id, auctions.productId))
      .where(where)
      .orderBy(desc(auctions.startsAt), desc(auctions.id))
      .offset(query.skip)
      .limit(query.limit),
    tabsOf(db, scope),
    query.currency || query.eventId || search ? countUpToCap(db, auctions, where) : Promise.resolve(null),
    databaseNow(db),
  ]);
  const names = await sellerNames(
    db,
    rows.map((r) => r.auction.sellerId),
  );
  return {
    result: rows.map((r) => listItemOf(r.auction, r.productName, names.get(r.auction.sellerId) ?? null, now)),
    ...tabbedTotal(counted, tabs, query.status),
    tabs,
  };
}

// ---------------------------------------------------------------------------------------------------
// One auction

/** The latest bids as watchers see them, newest first. */
export async function recentBids(db: Db | Tx, auctionId: string, limit = 20) {
  const rows = await db
    .select({ entry: auctionBids, name: auctionBidders.name })
    .from(auctionBids)
    .innerJoin(auctionBidders, eq(auctionBidders.id, auctionBids.bidderId))
    .where(eq(auctionBids.auctionId, auctionId))
    .orderBy(desc(auctionBids.sequence))
    .limit(limit);
  return rows.map((r) => publicBidOf(r.entry, r.name));
}

export async function liveSnapshot(db: Db | Tx, row: AuctionRow, watchers: number) {
  const [bids, now] = await Promise.all([recentBids(db, row.id), databaseNow(db)]);
  return {
    state: liveStateOf(row, now.getTime(), watchers),
    recentBids: bids,
    serverTime: now.toISOString(),
  };
}

/** The ledger as staff see it (maxima included): the latest 500 newest first, or a page after a sequence. */
export async function fullLedger(db: Db | Tx, auctionId: string): Promise<LedgerEntry[]> {
  return ledgerRows(db, auctionId, null, 500);
}

export async function ledgerAfter(db: Db | Tx, auctionId: string, page: { after: number; limit: number }) {
  return ledgerRows(db, auctionId, page.after, page.limit);
}

async function ledgerRows(
  db: Db | Tx,
  auctionId: string,
  after: number | null,
  limit: number,
): Promise<LedgerEntry[]> {
  const rows = await db
    .select({ entry: auctionBids, name: auctionBidders.name })
    .from(auctionBids)
    .innerJoin(auctionBidders, eq(auctionBidders.id, auctionBids.bidderId))
    .where(
      and(eq(auctionBids.auctionId, auctionId), after === null ? undefined : gt(auctionBids.sequence, after)),
    )
    .orderBy(after === null ? desc(auctionBids.sequence) : asc(auctionBids.sequence))
    .limit(limit);
  return rows.map((r) => ({
    ...publicBidOf(r.entry, r.name),
    bidderId: r.entry.bidderId,
    bidderName: r.name,
    maxMinor: r.entry.maxMinor,
    placedBy: r.entry.placedBy,
    cancelReason: r.entry.cancelReason,
  }));
}

export async function auctionDetail(
  db: Db,
  viewer: RouteViewer,
  id: string,
  extras: { watchers: number; publicUrl: string | null },
): Promise<AuctionDetail> {
  const row = await auctionOf(db, viewer, id);
  const [snapshot, ledger, bidders, history, product, names, event] = await Promise.all([
    liveSnapshot(db, row, extras.watchers),
    fullLedger(db, id),
    db
      .select()
      .from(auctionBidders)
      .where(eq(auctionBidders.auctionId, id))
      .orderBy(asc(auctionBidders.createdAt))
      .limit(500),
    readAuditPage(db, { type: 'auction', id }, { skip: 0, limit: 200 }),
    db.select({ title: products.title }).from(products).where(eq(products.id, row.productId)),
    sellerNames(db, [row.sellerId]),
    eventPlaceOf(db, row),
  ]);
  const now = new Date(snapshot.serverTime);
  return {
    ...listItemOf(row, product[0]?.title ?? null, names.get(row.sellerId) ?? null, now),
    description: row.description,
    startingPriceMinor: row.startingPriceMinor,
    reserveMinor: row.reserveMinor,
    buyNowMinor: row.buyNowMinor,
    increments: row.increments,
    endsAt: row.endsAt.toISOString(),
    hardEndAt: row.hardEndAt.toISOString(),
    softCloseSeconds: row.softCloseSeconds,
    extensionSeconds: row.extensionSeconds,
    paymentHours: row.paymentHours,
    cancelReason: row.cancelReason,
    publicUrl: row.status === 'draft' ? null : extras.publicUrl,
    settlement: (row.settlement as AuctionDetail['settlement']) ?? null,
    winnerDeadline: row.winnerDeadline?.toISOString() ?? null,
    orderId: row.orderId,
    event,
    snapshot,
    ledger,
    bidders: bidders.map((b) => ({
      id: b.id,
      name: b.name,
      email: b.email,
      confirmed: b.confirmedAt !== null,
      byStaff: b.registeredBy !== null,
      createdAt: b.createdAt.toISOString(),
    })),
    history: history.result,
  };
}

/** What the public page shows: the lot, the shop and the live state (never the reserve or maxima). */
export async function publicAuction(
  db: Db,
  row: AuctionRow,
  snapshot: LiveSnapshot,
  links: AuctionLinks,
): Promise<PublicAuction> {
  const [[product], [seller], event] = await Promise.all([
    db.select({ title: products.title }).from(products).where(eq(products.id, row.productId)),
    db.select({ name: sellers.sellerName }).from(sellers).where(eq(sellers.id, row.sellerId)),
    publicEventOf(db, row, links),
  ]);
  return {
    title: row.title,
    description: row.description,
    productName: product?.title ?? null,
    quantity: row.quantity,
    sellerName: seller?.name ?? null,
    snapshot,
    settlement: (row.settlement as PublicAuction['settlement']) ?? null,
    winnerDeadline: row.winnerDeadline?.toISOString() ?? null,
    event,
  };
}
