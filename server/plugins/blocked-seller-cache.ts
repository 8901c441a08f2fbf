// Whether a seller is blocked, kept per instance: the blocked-seller guard asks on every API request of
// a seller, and would otherwise run a statement on `sellers` before the request's own.
//
// Every write that can change the answer (`blocked` or `is_new_seller`, a deleted seller) fires a
// trigger that sends `pg_notify` with the seller's id (migration 0022): delivered at commit to every
// instance listening on the same database. This instance hears its own writes before their commit
// returns (`ownWritesAtOnce`), so an approved renewal lets the seller in on their very next request,
// whichever code path wrote it. An instance that may have missed notifications (its listening
// connection was lost) forgets every seller.
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sellers } from '../db/schema';

export const SELLER_ACCESS_CHANGED_CHANNEL = 'mp_seller_access_changed';
const MAX_CACHED_SELLERS = 50_000;

export interface BlockedSellerCache {
  /** Whether the seller is blocked and not new (SPEC §4), from memory when this instance knows it. */
  isBlocked(sellerId: string): Promise<boolean>;
  /** Forgets the seller (every seller without an id): the next question reads the database. */
  forget(sellerId?: string): void;
  close(): Promise<void>;
}

/** Reads the seller's flags: undefined when there is no such seller. */
async function readBlocked(db: Database['db'], sellerId: string): Promise<boolean | undefined> {
  const [seller] = await db
    .select({ blocked: sellers.blocked, isNewSeller: sellers.isNewSeller })
    .from(sellers)
    .where(eq(sellers.id, sellerId));
  return seller ? seller.blocked && !seller.isNewSeller : undefined;
}

export async function createBlockedSellerCache(
  database: Pick<Database, 'db' | 'listen'>,
  options: { maxSellers?: number } = {},
): Promise<BlockedSellerCache> {
  const maxSellers = options.maxSellers ?? MAX_CACHED_SELLERS;
  const cache = new Map<string, boolean>();
  const inFlight = new Map<string, Promise<boolean>>();
  // Bumped by every forget: a read that a change overtook is answered but not kept.
  let generation = 0;

  const forget = (sellerId?: string) => {
    generation++;
    if (sellerId) {
      cache.delete(sellerId);
      inFlight.delete(sellerId);
    } else {
      cache.clear();
      inFlight.clear();
    }
  };
  const stopListening = await database.listen(
    SELLER_ACCESS_CHANGED_CHANNEL,
    (sellerId) => forget(sellerId || undefined),
    () => forget(),
    { ownWritesAtOnce: true },
  );

  return {
    isBlocked(sellerId) {
      const cached = cache.get(sellerId);
      if (cached !== undefined) return Promise.resolve(cached);
      const pending = inFlight.get(sellerId);
      if (pending) return pending;
      const startedAt = generation;
      const read = readBlocked(database.db, sellerId)
        .then((blocked) => {
          // An unknown seller is not kept: a seller added later under that id starts unknown too.
          if (blocked !== undefined && generation === startedAt) {
            if (cache.size >= maxSellers) {
              const oldest = cache.keys().next().value;
              if (oldest !== undefined) cache.delete(oldest);
            }
            cache.set(sellerId, blocked);
          }
          return blocked ?? false;
        })
        .finally(() => {
          if (inFlight.get(sellerId) === read) inFlight.delete(sellerId);
        });
      inFlight.set(sellerId, read);
      return read;
    },
    forget,
    close: stopListening,
  };
}
