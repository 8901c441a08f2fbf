// The enquiry form's signed token: GET /api/v1/enquiry/{sellerCode} hands one out with the form, and the
// POST must bring it back. It carries the shop and the moment the form was issued, signed (HMAC-SHA256)
// with a key derived from the mail links' secret (mail-links/links.ts: MAIL_LINK_SECRET, else one kept
// in the database), so every instance checks every other's tokens. A submit without one (a bot that runs
// no JavaScript), with a forged or another shop's, or with one older than TOKEN_MAX_AGE_MS is refused; so
// is one sent sooner than MIN_FILL_MS after the form was issued (no person fills a form in 3 s).
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/secrets';

/** A person needs longer than this to fill the form; a script posting at once does not. */
export const MIN_FILL_MS = 3_000;
/** A form left open longer than this is reloaded (the page fetches a fresh token and keeps the fields). */
export const TOKEN_MAX_AGE_MS = 2 * 60 * 60_000;

export type TokenCheck =
  | { ok: true; issuedAt: number }
  | { ok: false; reason: 'missing' | 'forged' | 'expired' | 'too-fast' };

export interface FormTokens {
  /** A token for the shop's form, issued at `issuedAt` (now unless given: tests age a token this way). */
  issue(sellerId: string, issuedAt?: number): string;
  check(token: string, sellerId: string, now?: number): TokenCheck;
}

export function createFormTokens(secret: string, clock: () => number = Date.now): FormTokens {
  // A key of its own: an enquiry token can never pass as a mail link's signature, nor the reverse.
  const key = createHmac('sha256', secret).update('enquiry-form-token').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    issue(sellerId, issuedAt = clock()) {
      const payload = `${sellerId}.${Math.floor(issuedAt).toString(36)}`;
      return `${payload}.${sign(payload)}`;
    },
    check(token, sellerId, now = clock()) {
      if (!token) return { ok: false, reason: 'missing' };
      const parts = token.split('.');
      if (parts.length !== 3) return { ok: false, reason: 'forged' };
      const [shop, time, signature] = parts as [string, string, string];
      if (shop !== sellerId || !safeEqual(signature, sign(`${shop}.${time}`)))
        return { ok: false, reason: 'forged' };
      const issuedAt = Number.parseInt(time, 36);
      if (!Number.isFinite(issuedAt)) return { ok: false, reason: 'forged' };
      const age = now - issuedAt;
      if (age > TOKEN_MAX_AGE_MS || age < -60_000) return { ok: false, reason: 'expired' };
      if (age < MIN_FILL_MS) return { ok: false, reason: 'too-fast' };
      return { ok: true, issuedAt };
    },
  };
}
