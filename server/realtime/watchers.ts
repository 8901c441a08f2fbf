// An auction's public page watching its topic without an account (issue 32): it connects with the
// auction's signed public token as password and a client id naming the auction, and may only read that
// auction's topic. Both the embedded broker and an external broker's HTTP hooks decide with these.
import type { BrokerUser } from '../../contracts/broker-topics';

/** The username an auction's public page connects with; its password is the auction's public token. */
export { AUCTION_WATCHER_USERNAME as WATCHER_USERNAME } from '../../contracts/auctions';

const WATCHER_CLIENT_ID = /^auction-([0-9a-f-]{36})-[\w-]{1,64}$/;

/** The auction a watcher's client id names (`auction-{auctionId}-{tab}`), or null. */
export function watchedAuctionOf(clientId: string | undefined): string | null {
  return WATCHER_CLIENT_ID.exec(clientId ?? '')?.[1] ?? null;
}

/**
 * A public page watching an auction: its token must be that auction's signed public token, and its
 * client id must name the same auction (so an external broker's ACL, which sees only the client id,
 * knows which auction it may read). Null when refused.
 */
export function decideWatcher(
  watchAuction: ((token: string) => string | null) | undefined,
  clientId: string | undefined,
  password: string | undefined,
): BrokerUser | null {
  const auctionId = password && watchAuction ? watchAuction(password) : null;
  if (!auctionId || watchedAuctionOf(clientId) !== auctionId) return null;
  return { id: `watcher:${clientId}`, role: 'Watcher', sellerId: null, auctionId };
}

/** A watcher as an external broker's ACL request names it (already authenticated by its client id). */
export function watcherOfClient(clientId: string | undefined): BrokerUser | null {
  const auctionId = watchedAuctionOf(clientId);
  return auctionId ? { id: `watcher:${clientId}`, role: 'Watcher', sellerId: null, auctionId } : null;
}
