import { describe, expect, it } from 'vitest';
import type { CurrentUser, Session } from '../../contracts/auth';
import { storedAuthSchema } from '../lib/stored-auth-schema';
import {
  BROWSER_ID_KEY,
  clientIdFor,
  getRefreshAt,
  getTokenExpiry,
  type StoredAuth,
  sameStoredAuth,
  toStoredAuth,
} from './stored-auth';
import { makeCurrentUser } from './testing/current-user';
import { fakeJwt } from './testing/fake-adapter';

const user = makeCurrentUser;

function session(overrides: Partial<CurrentUser> = {}, accessToken = 'tok'): Session {
  return { accessToken, expiresIn: 900, user: user(overrides) };
}

const sellerBlock = {
  sellerId: 's-9',
  sellerCode: 'S9',
  sellerName: 'Spice Co',
  sellerAddress: '',
  logo: null,
  isNewSeller: false,
  blocked: false,
};

describe('toStoredAuth', () => {
  it('holds exactly the SPEC §3 auth fields', () => {
    const auth = toStoredAuth(session());
    expect(Object.keys(auth).sort()).toEqual(
      [
        'accessToken',
        'twilioToken',
        'username',
        'userAvatar',
        'roles',
        'id',
        'sellerId',
        'clientId',
        'isAdmin',
        'isStaff',
        'isSeller',
        'loggedIn',
        'tasks',
      ].sort(),
    );
    expect(auth).toMatchObject({
      accessToken: 'tok',
      twilioToken: '',
      username: 'Asha Rao',
      id: 'u-1',
      loggedIn: true,
      tasks: {},
    });
  });

  it.each([
    ['Admin', ['ROLE_ADMIN'], { isAdmin: true, isStaff: false, isSeller: false }],
    ['Staff', ['ROLE_STAFF'], { isAdmin: false, isStaff: true, isSeller: false }],
    ['Seller', ['ROLE_SELLER'], { isAdmin: false, isStaff: false, isSeller: true }],
  ] as const)('maps the %s role as SPEC §6', (role, roles, flags) => {
    const auth = toStoredAuth(session({ roles: [role], seller: role === 'Seller' ? sellerBlock : null }));
    expect(auth.roles).toEqual(roles);
    expect(auth).toMatchObject(flags);
    expect(auth.sellerId).toBe(role === 'Seller' ? 's-9' : null);
  });

  it('isSeller is false for a seller who is also an admin', () => {
    expect(toStoredAuth(session({ roles: ['Seller', 'Admin'] }))).toMatchObject({
      isAdmin: true,
      isSeller: false,
    });
  });

  it('gives a stable client id per browser, scoped to the user', () => {
    localStorage.removeItem(BROWSER_ID_KEY);
    const first = toStoredAuth(session()).clientId;
    expect(first).toMatch(/^bo_[0-9a-f]{32}_u-1$/);
    expect(toStoredAuth(session()).clientId).toBe(first);
    expect(clientIdFor('u-2')).toBe(first.replace(/_u-1$/, '_u-2'));
    localStorage.removeItem(BROWSER_ID_KEY);
    expect(toStoredAuth(session()).clientId).not.toBe(first);
  });

  it('keeps tasks, voice token and client id of the same user on refresh, not of another user', () => {
    const previous: StoredAuth = {
      ...toStoredAuth(session()),
      twilioToken: 'voice',
      clientId: 'bo_fixed_u-1',
      tasks: { t: { name: 'Export', timestamp: 1 } },
    };
    const refreshed = toStoredAuth(session({}, 'tok-2'), previous);
    expect(refreshed).toEqual({ ...previous, accessToken: 'tok-2' });
    const other = toStoredAuth(session({ id: 'u-2' }, 'tok-3'), previous);
    expect(other).toMatchObject({ twilioToken: '', tasks: {}, id: 'u-2' });
    expect(other.clientId).not.toBe('bo_fixed_u-1');
  });
});

describe('storedAuthSchema', () => {
  it('accepts stored auth and rejects extra fields such as expiresAt', () => {
    const auth = toStoredAuth(session());
    expect(storedAuthSchema.safeParse(auth).success).toBe(true);
    expect(storedAuthSchema.safeParse({ ...auth, expiresAt: 1 }).success).toBe(false);
    expect(storedAuthSchema.safeParse({ ...auth, roles: ['Admin'] }).success).toBe(false);
  });

  it('sameStoredAuth ignores key order', () => {
    const auth = {
      ...toStoredAuth(session()),
      tasks: { a: { name: 'A', timestamp: 1 }, b: { name: 'B', timestamp: 2 } },
    };
    const reordered = { ...auth, tasks: { b: { name: 'B', timestamp: 2 }, a: { name: 'A', timestamp: 1 } } };
    expect(sameStoredAuth(auth, reordered)).toBe(true);
    expect(sameStoredAuth(auth, { ...auth, accessToken: 'x' })).toBe(false);
    expect(sameStoredAuth(auth, null)).toBe(false);
    expect(sameStoredAuth(null, null)).toBe(true);
  });
});

describe('token times', () => {
  it('reads the expiry from the JWT exp claim', () => {
    expect(getTokenExpiry(fakeJwt({ sub: 'u', exp: 2000, iat: 1100 }))).toBe(2_000_000);
    expect(getTokenExpiry('not-a-jwt')).toBeNull();
    expect(getTokenExpiry(fakeJwt({ sub: 'u' }))).toBeNull();
  });

  it('refreshes 60 s before exp, or half-way through a short-lived token', () => {
    expect(getRefreshAt(fakeJwt({ exp: 1900, iat: 1000 }))).toBe(1_840_000);
    expect(getRefreshAt(fakeJwt({ exp: 1030, iat: 1000 }))).toBe(1_015_000);
    expect(getRefreshAt(fakeJwt({ exp: 1900 }))).toBe(1_840_000);
    expect(getRefreshAt('opaque')).toBeNull();
  });
});
