// Where product media is served, as signed links. An <img> cannot send the bearer token the API asks
// for, so the links the API hands out carry their own proof instead (as S3's presigned URLs do): an
// HMAC of the media id, the size and an expiry, with a secret only the server knows. Only the API's
// answers mint them, and only for products the viewer may see, so a seller's links never reach
// another seller's pictures. Expiries fall on day boundaries: a picture's link stays the same for a
// day (the browser's cache keeps working) and is valid for one to two days.
import { createHmac, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../../db/client';
import { safeEqual } from '../../lib/secrets';
import { getOrCreateSetting } from '../../lib/settings';

const DAY_SECONDS = 86_400;
export type MediaSize = 'original' | 'thumb' | 'web';

/** The unsigned path of a media file: what attribute values store (links are signed when answered). */
export const mediaPath = (id: string) => `/api/v1/stagingProducts/media/${id}`;
const MEDIA_PATH = /^\/api\/v1\/stagingProducts\/media\/([0-9a-f-]{36})$/;

const signatureOf = (secret: string, id: string, size: MediaSize, expires: number) =>
  createHmac('sha256', secret).update(`${id}:${size}:${expires}`).digest('base64url');

export interface MediaSigner {
  /** The signed link of one size. */
  link(id: string, size: MediaSize): string;
  /** The original and its derivatives, signed. */
  urls(id: string): { url: string; thumbUrl: string; webUrl: string };
  /** A stored media path (an IMAGE or VIDEO attribute's value) as a signed link; other text unchanged. */
  signStoredPath(value: unknown): unknown;
  /** The signed link of a stored media path's thumbnail (an IMAGE attribute's value); else undefined. */
  thumbOfStoredPath(value: unknown): string | undefined;
}

export function createMediaSigner(secret: string, now: () => number = Date.now): MediaSigner {
  const link = (id: string, size: MediaSize) => {
    const expires = (Math.floor(now() / 1000 / DAY_SECONDS) + 2) * DAY_SECONDS;
    const query = new URLSearchParams({
      ...(size === 'original' ? {} : { size }),
      exp: String(expires),
      sig: signatureOf(secret, id, size, expires),
    });
    return `${mediaPath(id)}?${query}`;
  };
  return {
    link,
    urls: (id) => ({ url: link(id, 'original'), thumbUrl: link(id, 'thumb'), webUrl: link(id, 'web') }),
    signStoredPath(value) {
      const match = typeof value === 'string' ? MEDIA_PATH.exec(value) : null;
      return match?.[1] ? link(match[1], 'original') : value;
    },
    thumbOfStoredPath(value) {
      const match = typeof value === 'string' ? MEDIA_PATH.exec(value) : null;
      return match?.[1] ? link(match[1], 'thumb') : undefined;
    },
  };
}

/** Whether a served link's signature is the server's and has not expired. */
export function verifyMediaLink(
  secret: string,
  id: string,
  size: MediaSize,
  expires: number,
  signature: string,
  now: () => number = Date.now,
): boolean {
  if (!Number.isInteger(expires) || expires * 1000 < now()) return false;
  return safeEqual(signatureOf(secret, id, size, expires), signature);
}

/** The signing secret of this database (created once, kept in settings like the mail-link secret). */
export const mediaLinkSecret = (db: Db | Tx) =>
  getOrCreateSetting(db as Db, 'media.linkSecret', () => randomBytes(32).toString('base64url'));

const signers = new WeakMap<object, Promise<MediaSigner>>();

/** The signer of a database, read once per connection object. */
export function mediaSigner(db: Db | Tx): Promise<MediaSigner> {
  let signer = signers.get(db);
  if (!signer) {
    signer = mediaLinkSecret(db).then((secret) => createMediaSigner(secret));
    signers.set(db, signer);
    // A failed read (a closing database) is not remembered.
    signer.catch(() => signers.delete(db));
  }
  return signer;
}
