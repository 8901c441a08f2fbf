// The auth data the browser keeps (SPEC §3 "Auth data") and how it is built from a sign-in or
// refresh answer. Pure: no storage, no network (secure-storage.ts encrypts and stores it).
import type { Session } from '../../contracts/auth';
import { roleFlags, toStoredRoles } from '../../contracts/roles';
import type { StoredAuth, StoredTasks } from '../lib/stored-auth-schema';

// The schema lives in its own module, loaded only when stored auth is read or written: zod is not
// part of the entry chunk (see secure-storage.ts).
export type { StoredAuth, StoredTask, StoredTasks } from '../lib/stored-auth-schema';

/** localStorage key of the per-browser random id (not secret, so it is kept in plain text). */
export const BROWSER_ID_KEY = 'mp-browser-id';

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** A random id created once per browser profile and kept in localStorage. */
export function getBrowserId(storage: Storage = localStorage): string {
  const existing = storage.getItem(BROWSER_ID_KEY);
  if (existing && /^[0-9a-f]{32}$/.test(existing)) return existing;
  const id = randomId();
  storage.setItem(BROWSER_ID_KEY, id);
  return id;
}

/**
 * The MQTT client id: stable per browser (the broker keeps a non-clean session per client id, SPEC §9
 * "clean session false") and scoped to the user, so a second account signed in on the same browser can
 * never resume the first account's broker session and its subscriptions.
 */
export function clientIdFor(userId: string, storage: Storage = localStorage): string {
  return `bo_${getBrowserId(storage)}_${userId}`;
}

/**
 * Builds the stored auth from a sign-in or refresh answer. Roles are mapped as SPEC §6 (Admin →
 * ROLE_ADMIN, …; isSeller = ROLE_SELLER and not ROLE_ADMIN). When `previous` belongs to the same user
 * (a refresh), its tasks and voice token are kept; a different user starts clean.
 */
export function toStoredAuth(
  session: Session,
  previous?: StoredAuth | null,
  storage: Storage = localStorage,
): StoredAuth {
  const { user } = session;
  const roles = toStoredRoles(user.roles);
  const same = previous && previous.id === user.id ? previous : null;
  return {
    accessToken: session.accessToken,
    twilioToken: same?.twilioToken ?? '',
    username: user.username,
    userAvatar: user.userAvatar,
    roles,
    id: user.id,
    sellerId: user.seller?.sellerId ?? null,
    clientId: same?.clientId ?? clientIdFor(user.id, storage),
    ...roleFlags(roles),
    loggedIn: true,
    tasks: same ? { ...same.tasks } : {},
  };
}

/** The claims of a JWT, without verifying it (the server verifies; the client only needs the times). */
export function decodeJwtClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const claims: unknown = JSON.parse(json);
    return claims && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Epoch milliseconds at which the access token expires (its `exp` claim), or null when unknown. */
export function getTokenExpiry(token: string): number | null {
  const exp = decodeJwtClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
}

/** The longest a proactive refresh runs ahead of expiry. */
export const REFRESH_LEAD_MS = 60_000;

/**
 * When to refresh proactively: 60 s before `exp`, but never earlier than half-way through the token's
 * life (a 30 s token would otherwise be refreshed in a tight loop). Null when the token has no `exp`
 * (then only a 401 triggers a refresh).
 */
export function getRefreshAt(token: string): number | null {
  const claims = decodeJwtClaims(token);
  const exp = claims?.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  const iat = claims?.iat;
  const lifetime = typeof iat === 'number' && iat < exp ? (exp - iat) * 1000 : Number.POSITIVE_INFINITY;
  return exp * 1000 - Math.min(REFRESH_LEAD_MS, lifetime / 2);
}

/** True when two stored auths hold the same values (field order and task order do not matter). */
export function sameStoredAuth(a: StoredAuth | null, b: StoredAuth | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const { tasks: aTasks, roles: aRoles, ...aRest } = a;
  const { tasks: bTasks, roles: bRoles, ...bRest } = b;
  const keys = Object.keys(aRest) as (keyof typeof aRest)[];
  if (keys.some((key) => aRest[key] !== bRest[key])) return false;
  if (aRoles.length !== bRoles.length || aRoles.some((role, i) => role !== bRoles[i])) return false;
  return sameTasks(aTasks, bTasks);
}

/** True when both maps hold the same ids with the same name and timestamp. */
export function sameTasks(a: StoredTasks, b: StoredTasks): boolean {
  const ids = Object.keys(a);
  if (ids.length !== Object.keys(b).length) return false;
  return ids.every((id) => {
    const x = a[id];
    const y = b[id];
    return !!x && !!y && x.name === y.name && x.timestamp === y.timestamp;
  });
}
