// Effective settings, kept per instance: mail, security headers, the bot and every request's defaults
// read them, so they must not cost a query each time. Every write to setting_sections fires a trigger that
// sends `pg_notify` (migration 0023), delivered at commit to every instance on the same PostgreSQL and
// in-process on PGlite: the marketplace's change (empty payload) forgets everything, since every seller
// inherits it; a seller's forgets that seller. A lost listening connection forgets everything too.
import type { AllSettings } from '../../../contracts/settings';
import type { Database } from '../../db/client';
import { readEffectiveSettings } from './read';
import type { SecretBox } from './secret-box';

export const SETTINGS_CHANGED_CHANNEL = 'mp_settings_changed';
const MAX_CACHED_SELLERS = 5_000;

export type SettingsListener = (sellerId: string | null) => void;

export interface SettingsService {
  /** The effective settings of the marketplace (null) or of a seller, from memory when known. */
  effective(sellerId: string | null): Promise<AllSettings>;
  /** Hears every change this instance learns of (after its cache forgot the scope). */
  onChange(listener: SettingsListener): () => void;
  /** Forgets a scope now (the code that saved calls it after commit; the notification follows). */
  forget(sellerId: string | null): void;
  /** Seals and opens the secrets, which the effective settings hold sealed (secret-box.ts). */
  secrets: SecretBox;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    settings: SettingsService;
  }
}

export async function createSettingsService(
  database: Pick<Database, 'db' | 'listen'>,
  options: { secrets: SecretBox; maxSellers?: number },
): Promise<SettingsService> {
  const maxSellers = options.maxSellers ?? MAX_CACHED_SELLERS;
  const cache = new Map<string, Promise<AllSettings>>();
  const listeners = new Set<SettingsListener>();
  // Bumped by every forget: a read that a change overtook is answered but not kept.
  let generation = 0;
  const key = (sellerId: string | null) => sellerId ?? '';

  const forget = (sellerId: string | null) => {
    generation++;
    if (sellerId === null) cache.clear();
    else cache.delete(key(sellerId));
    for (const listener of listeners) {
      try {
        listener(sellerId);
      } catch {
        // A listener's failure must not stop the others from hearing the change.
      }
    }
  };
  const stopListening = await database.listen(
    SETTINGS_CHANGED_CHANNEL,
    (payload) => forget(payload === '' ? null : payload),
    () => forget(null),
    { ownWritesAtOnce: true },
  );

  return {
    effective(sellerId) {
      const found = cache.get(key(sellerId));
      if (found) return found;
      const startedAt = generation;
      const read = readEffectiveSettings(database.db, sellerId);
      cache.set(key(sellerId), read);
      read.then(
        () => {
          if (generation !== startedAt && cache.get(key(sellerId)) === read) cache.delete(key(sellerId));
        },
        () => {
          if (cache.get(key(sellerId)) === read) cache.delete(key(sellerId));
        },
      );
      if (cache.size > maxSellers) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined && oldest !== '') cache.delete(oldest);
      }
      return read;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    forget,
    secrets: options.secrets,
    close: stopListening,
  };
}
