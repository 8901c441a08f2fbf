// Which sites may embed a shop's chat widget (frame-ancestors of /chat/{sellerCode}) and call the
// widget's public API from their pages (CORS): the marketplace's `website.embedOrigins` plus the shop's
// own. Asked on every widget page and API request, so the answer per seller code is kept in memory and
// forgotten when the settings change (app.settings.onChange: on every instance, at commit).
//
// An empty list (neither the marketplace nor the shop named a site) keeps the widget open to any site:
// the widget exists to be put on storefronts, a new marketplace has named none yet, and the chat page
// holds no sign-in and acts only on its own chat, so framing it exposes nothing. Once one site is
// named, only the named sites (and this origin) may embed it.
import type { FastifyInstance } from 'fastify';
import { findSellerByCode } from '../help-chats/repository';

/** The sites allowed, or `null` for "any site" (no site named). */
export type EmbedOriginList = readonly string[] | null;

export interface EmbedOrigins {
  forSellerCode(sellerCode: string): Promise<EmbedOriginList>;
}

const MAX_CACHED_CODES = 5_000;

declare module 'fastify' {
  interface FastifyInstance {
    embedOrigins: EmbedOrigins;
  }
}

export function createEmbedOrigins(app: Pick<FastifyInstance, 'db' | 'settings'>): EmbedOrigins {
  const cache = new Map<string, Promise<{ sellerId: string | null; origins: EmbedOriginList }>>();
  app.settings.onChange((sellerId) => {
    if (sellerId === null) cache.clear();
    else
      for (const [code, entry] of cache)
        void entry.then((found) => found.sellerId === sellerId && cache.delete(code));
  });

  const load = async (sellerCode: string) => {
    const seller = await findSellerByCode(app.db, sellerCode);
    const sellerId = seller?.id ?? null;
    const marketplace = (await app.settings.effective(null)).website.embedOrigins;
    // An unknown code gets the marketplace's list: its page only says the chat is not available.
    const own = sellerId === null ? [] : (await app.settings.effective(sellerId)).website.embedOrigins;
    const origins = [...new Set([...marketplace, ...own])];
    return { sellerId, origins: origins.length === 0 ? null : origins };
  };

  return {
    async forSellerCode(sellerCode) {
      const key = sellerCode.toLowerCase();
      let entry = cache.get(key);
      if (!entry) {
        entry = load(key);
        cache.set(key, entry);
        entry.catch(() => cache.delete(key));
        if (cache.size > MAX_CACHED_CODES) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      return (await entry).origins;
    },
  };
}
