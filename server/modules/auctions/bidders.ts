// Bidders (issue 32): a customer registers on the auction's public page, reached by a signed link, with
// a name and an e-mail address confirmed by a mailed six-digit code; their browser then keeps a bidder
// token for this auction. Staff may bid on a customer's behalf (the bidder is confirmed by them).
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  type BidderSession,
  INVALID_AUCTION_LINK_MESSAGE,
  PUBLIC_AUCTION_PREFIX,
  type RegisterBody,
  WRONG_CODE_MESSAGE,
} from '../../../contracts/auctions';
import type { Db } from '../../db/client';
import { auctionBidders, auctions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { safeEqual } from '../../lib/secrets';
import type { AuctionRow } from './bids';

const CODE_LIFE_MS = 15 * 60_000;
const CODE_ATTEMPTS = 5;

export interface AuctionLinks {
  token(auctionId: string): string;
  url(auctionId: string): string;
  /** The auction a token names, or null when it is forged or malformed. */
  read(token: string): string | null;
}

/** The public page's link: the auction's id and an HMAC of it (no expiry: it is the auction's page). */
export function createAuctionLinks(secret: string, publicUrl: string): AuctionLinks {
  const sign = (id: string) => createHmac('sha256', secret).update(`auction\n${id}`).digest('base64url');
  const token = (id: string) => `${id}.${sign(id)}`;
  return {
    token,
    url: (id) => `${publicUrl}${PUBLIC_AUCTION_PREFIX}${token(id)}`,
    read(value) {
      const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(value);
      if (!match || !safeEqual(match[2]!, sign(match[1]!))) return null;
      return match[1]!;
    },
  };
}

export const invalidAuctionLink = () =>
  new HttpError(404, INVALID_AUCTION_LINK_MESSAGE, 'AUCTION_LINK_INVALID');

/** The published auction a public token names (drafts have no public page). */
export async function auctionOfToken(db: Db, links: AuctionLinks, token: string): Promise<AuctionRow> {
  const id = links.read(token);
  if (!id) throw invalidAuctionLink();
  const [row] = await db.select().from(auctions).where(eq(auctions.id, id));
  if (!row || row.status === 'draft') throw invalidAuctionLink();
  return row;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const codeHash = (bidderId: string, code: string) => sha256(`${bidderId}\n${code}`);

/**
 * Registers (or registers again) an e-mail address for the auction and returns the code to mail. A
 * new code replaces the last one; a confirmed bidder asking again gets a new code too (a new browser).
 */
export async function register(db: Db, auction: AuctionRow, body: RegisterBody) {
  if (auction.status === 'ended' || auction.status === 'cancelled')
    throw new HttpError(409, 'This auction has ended.', 'AUCTION_ENDED');
  const email = body.email.toLowerCase();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expires = new Date(Date.now() + CODE_LIFE_MS);
  const [row] = await db
    .insert(auctionBidders)
    .values({ auctionId: auction.id, name: body.name, email })
    .onConflictDoUpdate({
      target: [auctionBidders.auctionId, auctionBidders.email],
      set: { name: body.name },
    })
    .returning({ id: auctionBidders.id });
  const id = row!.id;
  await db
    .update(auctionBidders)
    .set({ codeHash: codeHash(id, code), codeExpiresAt: expires, codeAttempts: 0 })
    .where(eq(auctionBidders.id, id));
  return { registrationId: id, code, email };
}

/** Checks the code; five wrong tries spend it. Confirmed: a fresh bidder token for this browser. */
export async function confirm(
  db: Db,
  auction: AuctionRow,
  registrationId: string,
  code: string,
): Promise<BidderSession> {
  const [row] = await db
    .update(auctionBidders)
    .set({ codeAttempts: sql`${auctionBidders.codeAttempts} + 1` })
    .where(and(eq(auctionBidders.id, registrationId), eq(auctionBidders.auctionId, auction.id)))
    .returning();
  const wrong = () => new HttpError(422, WRONG_CODE_MESSAGE, 'WRONG_CODE', { code: WRONG_CODE_MESSAGE });
  if (!row?.codeHash || !row.codeExpiresAt || row.codeExpiresAt.getTime() < Date.now()) throw wrong();
  if (row.codeAttempts > CODE_ATTEMPTS) throw wrong();
  if (!safeEqual(row.codeHash, codeHash(row.id, code))) throw wrong();
  const token = randomBytes(32).toString('base64url');
  await db
    .update(auctionBidders)
    .set({
      confirmedAt: row.confirmedAt ?? new Date(),
      tokenHash: sha256(token),
      codeHash: null,
      codeExpiresAt: null,
    })
    .where(eq(auctionBidders.id, row.id));
  return { bidderId: row.id, bidderToken: token, name: row.name };
}

/** The bidder a browser's token belongs to, on this auction. */
export async function bidderOfToken(db: Db, auctionId: string, token: string | undefined) {
  const unknown = () =>
    new HttpError(401, 'Register with your e-mail address to bid on this auction.', 'BIDDER_UNKNOWN');
  if (!token || token.length > 100) throw unknown();
  const [row] = await db
    .select({ id: auctionBidders.id, name: auctionBidders.name })
    .from(auctionBidders)
    .where(and(eq(auctionBidders.auctionId, auctionId), eq(auctionBidders.tokenHash, sha256(token))));
  if (!row) throw unknown();
  return row;
}

/** Staff bidding for a customer: their bidder on this auction, registered and confirmed by the staff member. */
export async function staffBidder(
  db: Db,
  auctionId: string,
  staffUserId: string,
  who: { bidderId?: string; name?: string; email?: string },
): Promise<string> {
  if (who.bidderId) {
    const [row] = await db
      .select({ id: auctionBidders.id })
      .from(auctionBidders)
      .where(and(eq(auctionBidders.id, who.bidderId), eq(auctionBidders.auctionId, auctionId)));
    if (!row)
      throw new HttpError(422, 'Choose a bidder of this auction.', 'BIDDER_UNKNOWN', {
        bidderId: 'Choose a bidder of this auction.',
      });
    return row.id;
  }
  if (!who.name || !who.email)
    throw new HttpError(422, 'Enter the customer’s name and e-mail address.', 'BIDDER_REQUIRED', {
      name: 'Enter the customer’s name.',
    });
  const [row] = await db
    .insert(auctionBidders)
    .values({
      auctionId,
      name: who.name,
      email: who.email.toLowerCase(),
      confirmedAt: new Date(),
      registeredBy: staffUserId,
    })
    .onConflictDoUpdate({
      target: [auctionBidders.auctionId, auctionBidders.email],
      set: { confirmedAt: sql`coalesce(${auctionBidders.confirmedAt}, now())` },
    })
    .returning({ id: auctionBidders.id });
  return row!.id;
}
