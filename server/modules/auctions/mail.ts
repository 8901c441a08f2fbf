// The auctions' mail (issue 32), through the one mail path and the jobs queue (a mail never holds up a
// bid): "you have been outbid" (at most one per bidder every ten minutes, so a bidding war is not a mail
// storm), the cancellation with its reason to every bidder, the winner's request for a shipping address
// with the deadline, and the seller's news of how it ended.
import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AUCTION_OUTCOME_LABELS } from '../../../contracts/auctions';
import { formatMinor } from '../../../contracts/domain/currency';
import { auctionBidders, auctions, sellers } from '../../db/schema';
import type { AuctionLinks } from './bidders';
import type { AuctionRow } from './bids';

export const AUCTION_MAIL_JOB = 'auction.mail';
const OUTBID_QUIET_MINUTES = 10;

type AuctionMail =
  | { kind: 'outbid'; auctionId: string; bidderId: string }
  | { kind: 'cancelled'; auctionId: string }
  | { kind: 'closed'; auctionId: string };

async function enqueue(app: FastifyInstance, mail: AuctionMail) {
  await app.jobs.enqueue({ kind: AUCTION_MAIL_JOB, name: 'Auction mail', ownerId: null, payload: mail });
}

/** Claims the bidder's outbid mail (none in the last ten minutes) and queues it. */
export async function mailOutbid(app: FastifyInstance, auctionId: string, bidderId: string) {
  const [claimed] = await app.db
    .update(auctionBidders)
    .set({ outbidMailedAt: sql`now()` })
    .where(
      and(
        eq(auctionBidders.id, bidderId),
        or(
          sql`${auctionBidders.outbidMailedAt} IS NULL`,
          lt(auctionBidders.outbidMailedAt, sql`now() - ${OUTBID_QUIET_MINUTES} * interval '1 minute'`),
        ),
      ),
    )
    .returning({ id: auctionBidders.id });
  if (claimed) await enqueue(app, { kind: 'outbid', auctionId, bidderId });
}

export const mailBiddersCancelled = (app: FastifyInstance, row: AuctionRow) =>
  enqueue(app, { kind: 'cancelled', auctionId: row.id });
export const mailClosed = (app: FastifyInstance, row: AuctionRow) =>
  enqueue(app, { kind: 'closed', auctionId: row.id });

export function registerAuctionMail(app: FastifyInstance, links: AuctionLinks) {
  app.jobs.register(AUCTION_MAIL_JOB, async ({ payload }) => {
    const mail = payload as AuctionMail;
    const [row] = await app.db.select().from(auctions).where(eq(auctions.id, mail.auctionId));
    if (!row) return { sent: 0 };
    const url = links.url(row.id);
    const price = (minor: number | null) => (minor === null ? '' : formatMinor(minor, row.currency));
    if (mail.kind === 'outbid') {
      const [bidder] = await app.db.select().from(auctionBidders).where(eq(auctionBidders.id, mail.bidderId));
      if (!bidder || row.status !== 'scheduled') return { sent: 0 };
      await app.mailer.send({
        to: bidder.email,
        subject: `You have been outbid on “${row.title}”`,
        text: `Hello ${bidder.name},\n\nSomeone has bid more than your maximum on “${row.title}”. The price is now ${price(row.priceMinor)}.\nTo stay in, bid again before the auction ends:\n\n${url}\n`,
      });
      return { sent: 1 };
    }
    if (mail.kind === 'cancelled') {
      const bidders = await app.db
        .select({ name: auctionBidders.name, email: auctionBidders.email })
        .from(auctionBidders)
        .where(and(eq(auctionBidders.auctionId, row.id), isNotNull(auctionBidders.confirmedAt)));
      for (const bidder of bidders)
        await app.mailer.send({
          to: bidder.email,
          subject: `The auction “${row.title}” is cancelled`,
          text: `Hello ${bidder.name},\n\nThe auction “${row.title}” has been cancelled: ${row.cancelReason ?? ''}\nNo bid on it will be charged.\n`,
        });
      return { sent: bidders.length };
    }
    let sent = 0;
    if (row.outcome === 'sold' && row.leaderBidderId) {
      const [winner] = await app.db
        .select()
        .from(auctionBidders)
        .where(eq(auctionBidders.id, row.leaderBidderId));
      if (winner) {
        await app.mailer.send({
          to: winner.email,
          subject: `You won “${row.title}”`,
          text: `Hello ${winner.name},\n\nYou won “${row.title}” at ${price(row.priceMinor)}.\nGive your shipping address by ${row.winnerDeadline?.toUTCString() ?? ''} to receive your order:\n\n${url}\n`,
        });
        sent++;
      }
    }
    const [seller] = await app.db
      .select({ name: sellers.sellerName, email: sellers.email })
      .from(sellers)
      .where(eq(sellers.id, row.sellerId));
    if (seller) {
      const outcome =
        AUCTION_OUTCOME_LABELS[row.outcome as keyof typeof AUCTION_OUTCOME_LABELS] ?? row.outcome;
      await app.mailer.send({
        to: seller.email,
        subject: `Your auction “${row.title}” has ended: ${outcome}`,
        text: `Hello ${seller.name},\n\nThe auction “${row.title}” (#${row.number}) has ended: ${outcome}${row.outcome === 'sold' ? ` at ${price(row.priceMinor)}` : ''}.\n`,
      });
      sent++;
    }
    return { sent };
  });
}
