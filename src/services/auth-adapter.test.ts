// The adapter's behaviour beyond the statechart's paths (those run in tests/model/auth.model.test.ts).
import 'fake-indexeddb/auto';
import { webcrypto } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser, Session } from '../../contracts/auth';
import { type AuthService, type AuthTimers, startAuth } from './auth-adapter';
import { AUTH_PATHS, getCurrentUser } from './auth-api';
import { http } from './http';
import { AUTH_STORAGE_KEY, loadAuth, resetSecureStorageForTests, saveAuth } from './secure-storage';
import { BROWSER_ID_KEY, type StoredAuth } from './stored-auth';
import { resetTasks } from './tasks';
import { createFakeAdapter, type FakeReply, fakeJwt, type RecordedRequest } from './testing/fake-adapter';

vi.stubGlobal('crypto', webcrypto);

const NOW = 1_750_000_000_000;
const USER: CurrentUser = {
  id: 'u-1',
  username: 'Sam Seller',
  email: 'seller@demo.local',
  userAvatar: '/files/avatar.png',
  defaultCurrency: 'INR',
  defaultCountry: 'IN',
  defaultLanguage: 'EN',
  roles: ['Seller'],
  isAdmin: false,
  isStaff: false,
  isSeller: true,
  seller: {
    sellerId: 's-1',
    sellerCode: 'S1',
    sellerName: 'Spice Co',
    sellerAddress: '',
    logo: null,
    isNewSeller: false,
    blocked: false,
  },
};

function token(label: string, ttlSeconds = 900, issuedAt = NOW): string {
  return fakeJwt({ sub: USER.id, jti: label, iat: issuedAt / 1000, exp: issuedAt / 1000 + ttlSeconds });
}

function storedAuth(accessToken: string): StoredAuth {
  return {
    accessToken,
    twilioToken: '',
    username: USER.username,
    userAvatar: USER.userAvatar,
    roles: ['ROLE_SELLER'],
    id: USER.id,
    sellerId: 's-1',
    clientId: `bo_${'a'.repeat(32)}_${USER.id}`,
    isAdmin: false,
    isStaff: false,
    isSeller: true,
    loggedIn: true,
    tasks: {},
  };
}

const session = (accessToken: string): Session => ({ accessToken, expiresIn: 900, user: USER });

class Timers implements AuthTimers {
  private id = 0;
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  setTimeout = (callback: () => void, ms: number) => {
    this.id += 1;
    this.pending.set(this.id, { callback, ms });
    return this.id;
  };
  clearTimeout = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  runAll() {
    const timers = [...this.pending.values()];
    this.pending.clear();
    for (const timer of timers) timer.callback();
  }
}

let replies: Record<string, FakeReply[]>;
let requests: RecordedRequest[];
let timers: Timers;
let location: string;
let navigations: string[];
let service: AuthService | null;

function reply(path: string, ...answers: FakeReply[]) {
  replies[path] = [...(replies[path] ?? []), ...answers];
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(BROWSER_ID_KEY, 'a'.repeat(32));
  globalThis.indexedDB = new IDBFactory();
  resetSecureStorageForTests();
  resetTasks();
  replies = {};
  const fake = createFakeAdapter((request) => replies[request.url]?.shift() ?? { status: 404 });
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  timers = new Timers();
  location = '/sellers/general-dashboard';
  navigations = [];
  service = null;
});

afterEach(async () => {
  service?.stop();
  await service?.settled();
  http.defaults.adapter = undefined;
});

function start(): AuthService {
  service = startAuth({
    navigate: (to) => {
      location = to;
      navigations.push(to);
    },
    notify: () => {},
    getLocation: () => location,
    timers,
    now: () => NOW,
  });
  return service;
}

describe('auth adapter', () => {
  it('restores an expired token and refreshes it at once', async () => {
    await saveAuth(storedAuth(token('old', 900, NOW - 3_600_000)));
    reply(AUTH_PATHS.refresh, { status: 200, data: session(token('new')) });
    const auth = start();
    await auth.ready;
    expect(auth.actor.getSnapshot().value).toBe('signedIn');
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([0]);
    timers.runAll();
    await auth.settled();
    expect(auth.actor.getSnapshot().context.auth?.accessToken).toBe(token('new'));
    expect((await loadAuth())?.accessToken).toBe(token('new'));
    expect(navigations).toEqual([]);
  });

  it('refreshes a short-lived token half-way through its life, not in a loop', async () => {
    await saveAuth(storedAuth(token('short', 30)));
    const auth = start();
    await auth.ready;
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([15_000]);
  });

  it('retries a refresh that failed for want of a network, then succeeds', async () => {
    await saveAuth(storedAuth(token('t1')));
    reply(
      AUTH_PATHS.refresh,
      { fail: 'network' },
      { status: 503 },
      { status: 200, data: session(token('t2')) },
    );
    const auth = start();
    await auth.ready;
    timers.runAll(); // the refresh timer
    await vi.waitFor(() => expect(timers.pending.size).toBe(1)); // 1 s pause
    timers.runAll();
    await vi.waitFor(() => expect(requests.filter((r) => r.url === AUTH_PATHS.refresh)).toHaveLength(2));
    await vi.waitFor(() => expect(timers.pending.size).toBe(1)); // 2 s pause
    timers.runAll();
    await vi.waitFor(() => expect(auth.actor.getSnapshot().value).toBe('signedIn'));
    await auth.settled();
    expect(auth.actor.getSnapshot().context.auth?.accessToken).toBe(token('t2'));
  });

  it('adopts the token another tab stored while this one waited for the refresh lock', async () => {
    await saveAuth(storedAuth(token('t1')));
    const auth = start();
    await auth.ready;
    // Another tab rotated the cookie and stored its new token; no storage event has arrived yet.
    await saveAuth(storedAuth(token('other-tab')));
    timers.runAll();
    await auth.settled();
    expect(requests.filter((r) => r.url === AUTH_PATHS.refresh)).toHaveLength(0);
    expect(auth.actor.getSnapshot().context.auth?.accessToken).toBe(token('other-tab'));
  });

  it('signs out locally even when the server cannot be reached', async () => {
    await saveAuth(storedAuth(token('t1')));
    reply(AUTH_PATHS.signOut, { fail: 'network' });
    const auth = start();
    await auth.ready;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    auth.actor.send({ type: 'auth.signOut' });
    await auth.settled();
    warn.mockRestore();
    expect(auth.actor.getSnapshot().value).toBe('signedOut');
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
    expect(location).toBe('/signin');
  });

  it('a 401 while signed out sends a protected page to sign-in, with the page to come back to', async () => {
    reply('/record/api/v1/users/u-1', { status: 401, data: { message: 'No', code: 'UNAUTHORIZED' } });
    const auth = start();
    await auth.ready;
    expect(navigations).toEqual(['/signin?returnTo=%2Fsellers%2Fgeneral-dashboard']);
    location = '/sellers/help-chats?chatId=7';
    await expect(http.get('/record/api/v1/users/u-1')).rejects.toMatchObject({ status: 401 });
    expect(navigations.at(-1)).toBe(`/signin?returnTo=${encodeURIComponent('/sellers/help-chats?chatId=7')}`);
  });

  it('stays on a public page when restoring finds nobody signed in', async () => {
    location = '/unsubscribe?email=x';
    const auth = start();
    await auth.ready;
    expect(auth.actor.getSnapshot().value).toBe('signedOut');
    expect(navigations).toEqual([]);
  });

  it('ignores storage events for other keys', async () => {
    await saveAuth(storedAuth(token('t1')));
    const auth = start();
    await auth.ready;
    window.dispatchEvent(new StorageEvent('storage', { key: 'color-theme', newValue: 'dark' }));
    await auth.settled();
    expect(auth.actor.getSnapshot().value).toBe('signedIn');
  });

  it('maps the sign-in answer to the stored auth (SPEC §3, §6) and keeps it encrypted', async () => {
    reply(AUTH_PATHS.signIn, { status: 200, data: session(token('signin')) });
    location = '/signin';
    const auth = start();
    await auth.ready;
    auth.actor.send({
      type: 'auth.signIn',
      email: 'seller@demo.local',
      password: 'Demo@12345',
      returnTo: null,
    });
    await auth.settled();
    expect(auth.actor.getSnapshot().context.auth).toEqual(storedAuth(token('signin')));
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).not.toContain('Sam Seller');
    expect(navigations.at(-1)).toBe('/');
    reply(AUTH_PATHS.currentUser, { status: 200, data: USER });
    await expect(getCurrentUser()).resolves.toEqual(USER);
    expect(requests.at(-1)?.authorization).toBe(`Bearer ${token('signin')}`);
  });
});
