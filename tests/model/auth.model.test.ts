// Model-based test of the auth statechart (ARCHITECTURE.md "Statecharts"): every path of
// `getShortestPaths()` and `getSimplePaths()` of the REAL machine runs against the REAL adapter
// (startAuth: auth API over the real `http` client, encrypted storage, refresh timer, storage events).
// Fakes sit only at the edge: the network (an axios adapter playing the server), IndexedDB
// (fake-indexeddb), the clock and timers, the router and the toaster.
import 'fake-indexeddb/auto';
import { webcrypto } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type SnapshotFrom, waitFor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { CurrentUser, Session } from '../../contracts/auth';
import { type AuthEvent, authMachine, SESSION_EXPIRED_MESSAGE } from '../../src/machines/auth.machine';
import {
  type AuthNotice,
  type AuthService,
  ENDED_USER_KEY,
  selectAuth,
  selectIsBusy,
  selectIsSignedIn,
  startAuth,
} from '../../src/services/auth-adapter';
import { AUTH_PATHS, getCurrentUser } from '../../src/services/auth-api';
import { ApiError, http, TOKEN_MISSING_MESSAGE } from '../../src/services/http';
import {
  AUTH_STORAGE_KEY,
  clearAuth,
  loadAuth,
  resetSecureStorageForTests,
  saveAuth,
  whenStorageIdle,
} from '../../src/services/secure-storage';
import { BROWSER_ID_KEY, type StoredAuth, sameStoredAuth } from '../../src/services/stored-auth';
import { resetTasks, taskStore } from '../../src/services/tasks';
import { makeCurrentUser } from '../../src/services/testing/current-user';
import {
  createFakeAdapter,
  type Deferred,
  deferred,
  type FakeReply,
  fakeJwt,
  type RecordedRequest,
} from '../../src/services/testing/fake-adapter';
import { FakeTimers } from '../../src/services/testing/fake-timers';
import { completionPaths, serializedNodeKey } from './model-paths';

vi.stubGlobal('crypto', webcrypto);

type AuthSnapshot = SnapshotFrom<typeof authMachine>;
type StateName = keyof typeof authMachine.root.states & string;

// ---------------------------------------------------------------------------------------------------
// The world at the edge

const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);
const TOKEN_TTL_S = 900;
/** The refresh timer: 60 s before `exp`. */
const REFRESH_DELAY_MS = (TOKEN_TTL_S - 60) * 1000;
const BROWSER_ID = '0123456789abcdef0123456789abcdef';
const START_PATH = '/sellers/manage-sellers';
const CREDENTIALS = { email: 'admin@demo.local', password: 'Demo@12345' };
const INVALID_CREDENTIALS = 'Invalid email or password';
const ECHO = '/api/v1/echo';
const UPLOAD = '/api/v1/imports/uploadCatalogSheet';

const ADMIN: CurrentUser = makeCurrentUser({
  id: 'u-admin',
  username: 'Asha Admin',
  email: 'admin@demo.local',
});

/** Another person at the same browser: a returnTo left by ADMIN's session is not theirs. */
const OTHER: CurrentUser = makeCurrentUser({
  id: 'u-other',
  username: 'Omar Other',
  email: 'other@demo.local',
});
const USERS = new Map([ADMIN, OTHER].map((user) => [user.id, user]));
const userOf = (id: string): CurrentUser => USERS.get(id) ?? ADMIN;

function token(label: string, userId = ADMIN.id): string {
  return fakeJwt({ sub: userId, jti: label, iat: NOW / 1000, exp: NOW / 1000 + TOKEN_TTL_S });
}

/** What the browser should store for ADMIN signed in with `label`'s token (SPEC §3 fields, by hand). */
function adminAuth(label: string, user: CurrentUser = ADMIN): StoredAuth {
  return {
    accessToken: token(label, user.id),
    twilioToken: '',
    username: user.username,
    userAvatar: null,
    roles: ['ROLE_ADMIN'],
    id: user.id,
    sellerId: null,
    clientId: `bo_${BROWSER_ID}_${user.id}`,
    isAdmin: true,
    isStaff: false,
    isSeller: false,
    loggedIn: true,
    tasks: {},
  };
}

function sessionFor(auth: StoredAuth): Session {
  return { accessToken: auth.accessToken, expiresIn: TOKEN_TTL_S, user: userOf(auth.id) };
}

interface Held {
  request: RecordedRequest;
  reply: Deferred<FakeReply>;
}

/** The server: auth routes wait until the test answers; the rest answers at once. */
class FakeServer {
  readonly requests: RecordedRequest[] = [];
  readonly held = new Map<string, Held[]>();
  /** Live access tokens and whose they are. */
  private readonly valid = new Map<string, CurrentUser>();
  private readonly waiters = new Map<string, (() => void)[]>();
  nextTask = { taskId: 'task-x', taskName: 'Import catalogue', status: 'Pending' };

  issue(accessToken: string, user: CurrentUser = ADMIN) {
    this.valid.set(accessToken, user);
  }
  revoke(accessToken: string | undefined) {
    if (accessToken) this.valid.delete(accessToken);
  }

  respond = (request: RecordedRequest): FakeReply | Promise<FakeReply> => {
    this.requests.push(request);
    const path = request.url;
    if (path === AUTH_PATHS.signIn || path === AUTH_PATHS.refresh || path === AUTH_PATHS.signOut) {
      const reply = deferred<FakeReply>();
      this.held.set(path, [...(this.held.get(path) ?? []), { request, reply }]);
      for (const wake of this.waiters.get(path) ?? []) wake();
      this.waiters.delete(path);
      return reply.promise;
    }
    const bearer = request.authorization?.replace(/^Bearer /, '');
    if (path === AUTH_PATHS.currentUser) {
      const user = bearer ? this.valid.get(bearer) : undefined;
      return user
        ? { status: 200, data: user }
        : { status: 401, data: { message: 'Access token expired', code: 'TOKEN_EXPIRED' } };
    }
    if (path === ECHO) return { status: 200, data: { authorization: request.authorization ?? null } };
    // An import accepted before the token ran out: its answer may arrive at any time.
    if (path === UPLOAD) return { status: 200, data: { taskStatus: this.nextTask } };
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  };

  heldFor(path: string): Held[] {
    return this.held.get(path) ?? [];
  }

  /** Resolves when a request for `path` is waiting for its answer. */
  arrival(path: string): Promise<void> {
    if (this.heldFor(path).length > 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(path, [...(this.waiters.get(path) ?? []), resolve]));
  }

  answer(path: string, reply: FakeReply) {
    const [first, ...rest] = this.heldFor(path);
    expect(first, `a ${path} request is waiting`).toBeDefined();
    this.held.set(path, rest);
    first?.reply.resolve(reply);
  }

  releaseAll(reply: FakeReply) {
    for (const path of [...this.held.keys()]) while (this.heldFor(path).length > 0) this.answer(path, reply);
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function outcome(promise: Promise<unknown>): Promise<Outcome> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

class World {
  readonly server = new FakeServer();
  readonly timers = new FakeTimers();
  readonly notices: AuthNotice[] = [];
  location = START_PATH;
  /** The stored auth the real system should hold, built by the test from what the server issued. */
  expected: StoredAuth | null = null;
  /** What a previous visit left in storage. */
  stored: StoredAuth | null = null;
  /** A request that got 401 and waits for the refresh it started. */
  waitingCall: Promise<Outcome> | null = null;
  service!: AuthService;
  private seq = 0;
  previousState: string | null = null;
  lastEvent: string | null = null;
  /** The returnTo the sign-in form sent (the page the user was sent away from), until it is used. */
  returnTo: string | null = null;
  /** Whose session ended last in this tab: only that user is taken back to `returnTo`. */
  endedUserId: string | null = null;

  /** A session ended (expired, signed out here or in another tab): note whose it was. */
  sessionEnded() {
    if (this.expected) this.endedUserId = this.expected.id;
  }

  /** Someone signed in from the sign-in page: the page they must land on. */
  landingFor(userId: string): string {
    const { returnTo } = this;
    const owed = returnTo !== null && (this.endedUserId === null || this.endedUserId === userId);
    this.returnTo = null;
    this.endedUserId = null;
    return owed ? returnTo : '/';
  }

  label(kind: string) {
    this.seq += 1;
    return `${kind}-${this.seq}`;
  }

  get actorState(): string {
    return String(this.service.actor.getSnapshot().value);
  }

  /**
   * Waits for the adapter's effects. While a request is held at the server on purpose (the state under
   * test is waiting for it), only the storage writes are waited for.
   */
  async settle() {
    const held = [...this.server.held.values()].some((list) => list.length > 0);
    if (held) await whenStorageIdle();
    else await this.service.settled();
  }

  async finishWaitingCall(expectSuccess: boolean) {
    if (!this.waitingCall) return;
    const result = await this.waitingCall;
    this.waitingCall = null;
    if (expectSuccess) {
      expect(result).toMatchObject({ ok: true, value: userOf(this.expected?.id ?? '') });
      // The retry carried the new token.
      const retried = this.server.requests.filter((r) => r.url === AUTH_PATHS.currentUser).at(-1);
      expect(retried?.authorization).toBe(`Bearer ${this.expected?.accessToken}`);
    } else {
      expect(result.ok).toBe(false);
      expect((result as { error: unknown }).error).toMatchObject({ status: 401 });
    }
  }

  /** A refresh still in flight when the state was left another way: the server refuses it. */
  async releaseStaleRefresh(expectRetrySuccess: boolean) {
    if (this.server.heldFor(AUTH_PATHS.refresh).length > 0) {
      this.server.answer(AUTH_PATHS.refresh, {
        status: 401,
        data: { message: 'Refresh token reused', code: 'TOKEN_REUSED' },
      });
      await this.settle();
    }
    await this.finishWaitingCall(expectRetrySuccess);
  }
}

let world: World;

async function createWorld(firstEvent: AuthEvent | undefined): Promise<World> {
  const w = new World();
  localStorage.clear();
  sessionStorage.clear();
  localStorage.setItem(BROWSER_ID_KEY, BROWSER_ID);
  if (firstEvent?.type === 'auth.restored' && firstEvent.endedUserId) {
    // This tab was reloaded after a session ended in it.
    sessionStorage.setItem(ENDED_USER_KEY, firstEvent.endedUserId);
  }
  globalThis.indexedDB = new IDBFactory();
  resetSecureStorageForTests();
  resetTasks();
  http.defaults.adapter = createFakeAdapter(w.server.respond).adapter;
  if (firstEvent?.type === 'auth.restored' && firstEvent.auth) {
    // A previous visit left a signed-in session (with a task still running) in storage.
    const restored: StoredAuth = {
      ...adminAuth('restored'),
      tasks: { 'task-0': { name: 'Export sellers', timestamp: NOW - 60_000 } },
    };
    w.server.issue(restored.accessToken);
    await saveAuth(restored);
    w.stored = restored;
  }
  // A page load: the key is read back from IndexedDB.
  resetSecureStorageForTests();
  w.service = startAuth({
    navigate: (to) => {
      w.location = to;
    },
    notify: (notice) => {
      w.notices.push(notice);
    },
    getLocation: () => w.location,
    timers: w.timers,
    now: () => NOW,
  });
  return w;
}

async function destroyWorld(w: World) {
  w.service.stop();
  // Requests still waiting (the path ended in signingIn, refreshing or signingOut) fail; the stopped
  // adapter ignores their outcome (and would only warn about the sign-out).
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    w.server.releaseAll({ status: 401, data: { message: 'Gone', code: 'GONE' } });
    await w.service.settled();
    await whenStorageIdle();
  } finally {
    warn.mockRestore();
  }
}

// ---------------------------------------------------------------------------------------------------
// The model: the machine itself, with sample payloads for the events that carry one

const SAMPLE = adminAuth('sample');
const SAMPLE_EVENTS: AuthEvent[] = [
  { type: 'auth.restored', auth: SAMPLE },
  { type: 'auth.restored', auth: null },
  // A reload of the tab after the admin's session ended in it (the returnTo in the address is theirs).
  { type: 'auth.restored', auth: null, endedUserId: ADMIN.id },
  { type: 'auth.signIn', ...CREDENTIALS, returnTo: START_PATH },
  { type: 'auth.signInSucceeded', auth: SAMPLE },
  // Someone else signs in at this browser.
  { type: 'auth.signInSucceeded', auth: adminAuth('sample', OTHER) },
  { type: 'auth.signInFailed', message: INVALID_CREDENTIALS },
  { type: 'auth.refreshSucceeded', auth: SAMPLE },
  { type: 'auth.refreshFailed', message: 'Refresh token expired' },
  { type: 'auth.sessionRejected', message: SESSION_EXPIRED_MESSAGE },
  { type: 'auth.authUpdated', auth: SAMPLE },
  { type: 'auth.storageChanged', auth: SAMPLE },
  { type: 'auth.storageChanged', auth: null },
];

/**
 * A node of the graph: the state value plus the context fields the tests compare (error, returnTo).
 * The auth itself is left out on purpose: the tokens differ on every path, so the model only says
 * whether there is one, and the test follows what the fake server issued (`World.expected`).
 */
const valueKey = (snapshot: AuthSnapshot) =>
  JSON.stringify([
    snapshot.value,
    snapshot.context.error,
    snapshot.context.returnTo,
    snapshot.context.endedUserId,
    // Who is signed in: where a later sign-in lands depends on it.
    snapshot.context.auth?.id ?? null,
  ]);

/**
 * A self-transition leads to a marked copy of its state, so that the transitions which stay in their
 * state (authUpdated, storageChanged while signed in) are on paths too.
 */
function serializeNode(snapshot: AuthSnapshot, event?: { type: string }, previous?: AuthSnapshot): string {
  return previous && event && valueKey(previous) === valueKey(snapshot)
    ? `${valueKey(snapshot)}~${event.type}`
    : valueKey(snapshot);
}

const model = createTestModel(authMachine, {
  events: SAMPLE_EVENTS,
  // Only events that do something (a guard may refuse one). An update of the signed-in session (a
  // refresh, a task, another tab's refresh) is the same user's: never someone else's auth.
  //
  // The other person keeps the graph small (its simple paths grow fast with every branch): they sign in
  // only where it matters, right after the admin's session ended here, and then only sign out again.
  filterEvents: (snapshot, event) =>
    snapshot.can(event) &&
    !(
      event.type === 'auth.signInSucceeded' &&
      event.auth.id === OTHER.id &&
      snapshot.context.endedUserId !== ADMIN.id
    ) &&
    !(
      snapshot.context.auth?.id === OTHER.id &&
      event.type !== 'auth.signOut' &&
      event.type !== 'auth.signedOut'
    ) &&
    !(
      event.type !== 'auth.signInSucceeded' &&
      'auth' in event &&
      event.auth &&
      snapshot.context.auth &&
      event.auth.id !== snapshot.context.auth.id
    ),
  serializeState: serializeNode,
});

// ---------------------------------------------------------------------------------------------------
// How each event happens in the real system

const eventExecutors: Record<AuthEvent['type'], (event: AuthEvent) => Promise<void>> = {
  // Storage was seeded before start (see createWorld): the restore reads and decrypts it.
  'auth.restored': async (event) => {
    world.expected = world.stored;
    if (event.type === 'auth.restored' && !event.auth) world.endedUserId = event.endedUserId ?? null;
    await world.service.ready;
    await world.settle();
  },
  // The sign-in form sends the event; the request reaches the server.
  'auth.signIn': async (event) => {
    world.returnTo = event.type === 'auth.signIn' ? (event.returnTo ?? null) : null;
    const arrived = world.server.arrival(AUTH_PATHS.signIn);
    world.service.actor.send(event);
    await arrived;
  },
  // The user in the event signs in; they land where the returnTo says only if it is theirs.
  'auth.signInSucceeded': async (event) => {
    const user = userOf(eventAuthId(event));
    const auth = adminAuth(world.label('signin'), user);
    world.server.issue(auth.accessToken, user);
    world.expected = auth;
    const landing = world.landingFor(user.id);
    world.server.answer(AUTH_PATHS.signIn, { status: 200, data: sessionFor(auth) });
    await world.settle();
    expect(world.location, 'where the user lands after signing in').toBe(landing);
  },
  'auth.signInFailed': async () => {
    world.server.answer(AUTH_PATHS.signIn, {
      status: 401,
      data: { message: INVALID_CREDENTIALS, code: 'INVALID_CREDENTIALS' },
    });
    await world.settle();
  },
  // The refresh timer fires (60 s before exp).
  'auth.tokenExpiring': async () => {
    const arrived = world.server.arrival(AUTH_PATHS.refresh);
    world.timers.fireOnly();
    await arrived;
  },
  // The token stopped working: an API call answers 401 and the http client asks for a refresh.
  'auth.unauthorized': async () => {
    const arrived = world.server.arrival(AUTH_PATHS.refresh);
    world.server.revoke(world.expected?.accessToken);
    world.waitingCall = outcome(getCurrentUser());
    await arrived;
  },
  'auth.refreshSucceeded': async () => {
    const previous = world.expected;
    expect(previous).not.toBeNull();
    const auth: StoredAuth = { ...(previous as StoredAuth), accessToken: token(world.label('refresh')) };
    world.server.issue(auth.accessToken);
    world.expected = auth;
    world.server.answer(AUTH_PATHS.refresh, { status: 200, data: sessionFor(auth) });
    await world.settle();
    await world.finishWaitingCall(true);
  },
  'auth.refreshFailed': async () => {
    world.server.answer(AUTH_PATHS.refresh, {
      status: 401,
      data: { message: 'Refresh token expired', code: 'TOKEN_EXPIRED' },
    });
    world.sessionEnded();
    world.expected = null;
    await world.settle();
    await world.finishWaitingCall(false);
  },
  // The one retry of a request (after a refresh) is refused too: e.g. the account was disabled.
  'auth.sessionRejected': async () => {
    world.server.revoke(world.expected?.accessToken);
    const result = await outcome(http.get(AUTH_PATHS.currentUser, { _retried: true }));
    expect(result).toMatchObject({ ok: false, error: { status: 401 } });
    world.sessionEnded();
    world.expected = null;
    await world.settle();
  },
  'auth.signOut': async () => {
    const arrived = world.server.arrival(AUTH_PATHS.signOut);
    // Whose session ended is kept in the tab before the server answers (see the signingOut checks).
    world.sessionEnded();
    world.service.actor.send({ type: 'auth.signOut' });
    await arrived;
    await world.releaseStaleRefresh(false);
  },
  // A deliberate sign-out: to the sign-in page with no returnTo, whatever page was open.
  'auth.signedOut': async () => {
    world.server.answer(AUTH_PATHS.signOut, { status: 204 });
    world.returnTo = null;
    world.expected = null;
    await world.settle();
    expect(world.location).toBe('/signin');
  },
  // A response carries taskStatus: the task lands in the stored tasks map.
  'auth.authUpdated': async () => {
    const taskId = world.label('task');
    world.server.nextTask = { taskId, taskName: 'Import catalogue', status: 'Pending' };
    await http.post(UPLOAD, { batch: taskId });
    const previous = world.expected as StoredAuth;
    world.expected = {
      ...previous,
      tasks: { ...previous.tasks, [taskId]: { name: 'Import catalogue', timestamp: NOW } },
    };
    await world.settle();
  },
  // Another tab of this browser wrote (signed in / refreshed) or removed (signed out) the entry.
  'auth.storageChanged': async (event) => {
    const from = world.actorState;
    const auth = 'auth' in event ? event.auth : null;
    let written: StoredAuth | null = null;
    let landing: string | null = null;
    if (auth) {
      const label = world.label('other-tab');
      written = world.expected
        ? { ...world.expected, accessToken: token(label, world.expected.id) }
        : adminAuth(label);
      world.server.issue(written.accessToken, userOf(written.id));
      // Signed in by another tab while this one was signed out: it leaves the sign-in page.
      if (from === 'signedOut' || from === 'expired') landing = world.landingFor(written.id);
      await saveAuth(written);
    } else {
      if (from === 'signedIn' || from === 'refreshing') world.sessionEnded();
      await clearAuth();
    }
    world.expected = written;
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: AUTH_STORAGE_KEY,
        newValue: localStorage.getItem(AUTH_STORAGE_KEY),
        storageArea: localStorage,
      }),
    );
    await waitFor(world.service.actor, (snapshot) => sameStoredAuth(snapshot.context.auth, written), {
      timeout: 2000,
    });
    if (from === 'refreshing') await world.releaseStaleRefresh(written !== null);
    await world.settle();
    if (landing !== null) expect(world.location, 'where the other tab’s sign-in lands').toBe(landing);
  },
};

function eventAuthId(event: AuthEvent): string {
  return ('auth' in event && event.auth?.id) || ADMIN.id;
}

// ---------------------------------------------------------------------------------------------------
// What each state means in the real system

const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();

function pathname(location: string) {
  return location.split('?')[0];
}

async function protectedRequestIsCancelled() {
  const result = await outcome(http.get(ECHO));
  expect(result.ok).toBe(false);
  const error = (result as { error: unknown }).error;
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).message).toBe(TOKEN_MISSING_MESSAGE);
}

async function noStoredAuth() {
  await whenStorageIdle();
  expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
}

async function common(expectedModel: AuthSnapshot) {
  const real = world.service.actor.getSnapshot();
  expect(real.value).toEqual(expectedModel.value);
  expect(real.context.error).toBe(expectedModel.context.error);
  expect(real.context.returnTo).toBe(expectedModel.context.returnTo);
  expect(real.context.endedUserId).toBe(expectedModel.context.endedUserId);
  // What a reload of the tab would restore (nothing is written while restoring).
  if (!real.matches('restoring'))
    expect(sessionStorage.getItem(ENDED_USER_KEY)).toBe(expectedModel.context.endedUserId);
  expect(real.context.auth === null).toBe(expectedModel.context.auth === null);
  expect(sameStoredAuth(real.context.auth, world.expected), 'auth as issued by the server').toBe(true);
  // Auth failures are shown by the machine (form error, session-expired notice), never as error toasts.
  expect(world.notices.filter((n) => n.type === 'error')).toEqual([]);

  const state = String(real.value);
  visitedStates.add(state);
  if (world.previousState !== null && world.lastEvent !== null) {
    executedTransitions.add(`${world.previousState}|${world.lastEvent}|${state}`);
  }
  world.previousState = state;
  world.lastEvent = null;
}

const stateChecks: Record<StateName, (snapshot: AuthSnapshot) => Promise<void>> = {
  restoring: async (snapshot) => {
    await common(snapshot);
    expect(selectIsBusy(world.service.actor.getSnapshot())).toBe(true);
    expect(selectIsSignedIn(world.service.actor.getSnapshot())).toBe(false);
    await protectedRequestIsCancelled();
  },
  signedOut: async (snapshot) => {
    await common(snapshot);
    const real = world.service.actor.getSnapshot();
    expect(selectIsSignedIn(real)).toBe(false);
    expect(selectIsBusy(real)).toBe(false);
    await noStoredAuth();
    await protectedRequestIsCancelled();
    expect(world.timers.pending.size).toBe(0);
    expect(taskStore.getSnapshot().tasks).toEqual({});
    expect(pathname(world.location)).toBe('/signin');
  },
  signingIn: async (snapshot) => {
    await common(snapshot);
    expect(selectIsBusy(world.service.actor.getSnapshot())).toBe(true);
    const held = world.server.heldFor(AUTH_PATHS.signIn);
    expect(held).toHaveLength(1);
    expect(held[0]?.request.body).toEqual(CREDENTIALS);
    expect(held[0]?.request.authorization).toBeUndefined();
    expect(pathname(world.location)).toBe('/signin');
  },
  signedIn: async (snapshot) => {
    await common(snapshot);
    const real = world.service.actor.getSnapshot();
    const auth = selectAuth(real);
    expect(selectIsSignedIn(real)).toBe(true);
    expect(selectIsBusy(real)).toBe(false);
    expect(auth?.loggedIn).toBe(true);
    // The stored entry decrypts to the auth in use.
    await whenStorageIdle();
    expect(sameStoredAuth(await loadAuth(), auth)).toBe(true);
    // The http client sends its bearer (and the default params).
    const { data } = await http.get(ECHO);
    expect(data).toEqual({ authorization: `Bearer ${auth?.accessToken}` });
    expect(world.server.requests.at(-1)?.params).toMatchObject({
      defaultCountry: 'IN',
      defaultCurrency: 'INR',
    });
    // One refresh timer, 60 s before exp.
    expect(world.timers.delays()).toEqual([REFRESH_DELAY_MS]);
    expect(taskStore.getSnapshot().tasks).toEqual(auth?.tasks);
    expect(pathname(world.location)).not.toBe('/signin');
  },
  refreshing: async (snapshot) => {
    await common(snapshot);
    const real = world.service.actor.getSnapshot();
    expect(selectIsSignedIn(real)).toBe(true);
    expect(world.server.heldFor(AUTH_PATHS.refresh)).toHaveLength(1);
    expect(world.timers.pending.size).toBe(0);
    // The current token stays in use until the refresh answers.
    const { data } = await http.get(ECHO);
    expect(data).toEqual({ authorization: `Bearer ${selectAuth(real)?.accessToken}` });
  },
  expired: async (snapshot) => {
    await common(snapshot);
    expect(world.service.actor.getSnapshot().context.error).toBe(SESSION_EXPIRED_MESSAGE);
    expect(selectIsSignedIn(world.service.actor.getSnapshot())).toBe(false);
    await noStoredAuth();
    await protectedRequestIsCancelled();
    expect(world.notices.at(-1)).toEqual({ type: 'warning', title: SESSION_EXPIRED_MESSAGE });
    expect(world.timers.pending.size).toBe(0);
    expect(taskStore.getSnapshot().tasks).toEqual({});
    expect(pathname(world.location)).toBe('/signin');
  },
  signingOut: async (snapshot) => {
    await common(snapshot);
    expect(selectIsBusy(world.service.actor.getSnapshot())).toBe(true);
    expect(selectIsSignedIn(world.service.actor.getSnapshot())).toBe(false);
    // Local state is gone before the server answers.
    await noStoredAuth();
    expect(world.server.heldFor(AUTH_PATHS.signOut)).toHaveLength(1);
    expect(world.timers.pending.size).toBe(0);
  },
};

const testParams = {
  states: stateChecks,
  events: Object.fromEntries(
    Object.entries(eventExecutors).map(([type, exec]) => [
      type,
      async (step: { event: { type: string } }) => {
        world.lastEvent = type;
        await exec(step.event as AuthEvent);
      },
    ]),
  ),
};

// ---------------------------------------------------------------------------------------------------

type ModelEvent = AuthEvent | { type: 'xstate.init' };
interface ModelPath {
  state: AuthSnapshot;
  steps: { state: AuthSnapshot; event: ModelEvent }[];
  weight: number;
}

function describePath(path: ModelPath): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const name = event.type.replace(/^auth\./, '');
      if (!('auth' in event)) return name;
      const ended = 'endedUserId' in event && event.endedUserId ? ', after a session ended here' : '';
      return `${name}(${event.auth ? (event.auth.id === OTHER.id ? 'other user' : 'auth') : 'null'}${ended})`;
    });
  return `${String(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

async function runPath(path: ModelPath) {
  const first = path.steps.map((step) => step.event).find((event) => event.type !== 'xstate.init');
  world = await createWorld(first as AuthEvent | undefined);
  try {
    await model.testPath(path as Parameters<typeof model.testPath>[0], testParams);
  } finally {
    await destroyWorld(world);
  }
}

const transitionId = (from: AuthSnapshot, event: ModelEvent, to: AuthSnapshot) =>
  `${String(from.value)}|${event.type}|${String(to.value)}`;

function transitionsOf(path: ModelPath): string[] {
  return path.steps
    .slice(1)
    .map((step, i) => transitionId(path.steps[i]?.state as AuthSnapshot, step.event, step.state));
}

const shortestPaths = model.getShortestPaths() as ModelPath[];
const simplePaths = model.getSimplePaths() as ModelPath[];

// A simple path never enters a node twice, so a transition back into a state the path already went
// through (refreshing → signedIn after a refresh, expired → signedIn) is on none of them.
const extraPaths = completionPaths<AuthSnapshot, ModelEvent>(
  model,
  (from, event, to) => transitionId(from, event, to),
  new Set([...shortestPaths, ...simplePaths].flatMap(transitionsOf)),
  serializedNodeKey(serializeNode),
);

// Paths the graph search cannot give (a simple path never re-enters the signed-in node it started from):
// the other person's session ends and the admin signs in again, from a sign-out and from an expiry; and
// the admin comes back after their own expired session. Each lands where the returnTo owner rule says.
const OTHER_AUTH = adminAuth('sample', OTHER);
const returnToPaths = (
  [
    [
      { type: 'auth.restored', auth: SAMPLE },
      { type: 'auth.signOut' },
      { type: 'auth.signedOut' },
      { type: 'auth.signIn', ...CREDENTIALS, returnTo: START_PATH },
      { type: 'auth.signInSucceeded', auth: OTHER_AUTH },
      { type: 'auth.signOut' },
      { type: 'auth.signedOut' },
      { type: 'auth.signIn', ...CREDENTIALS, returnTo: START_PATH },
      { type: 'auth.signInSucceeded', auth: SAMPLE },
    ],
    [
      { type: 'auth.restored', auth: SAMPLE },
      { type: 'auth.sessionRejected', message: SESSION_EXPIRED_MESSAGE },
      { type: 'auth.signIn', ...CREDENTIALS, returnTo: START_PATH },
      { type: 'auth.signInSucceeded', auth: SAMPLE },
    ],
    [
      { type: 'auth.restored', auth: SAMPLE },
      { type: 'auth.sessionRejected', message: SESSION_EXPIRED_MESSAGE },
      { type: 'auth.signIn', ...CREDENTIALS, returnTo: START_PATH },
      { type: 'auth.signInSucceeded', auth: OTHER_AUTH },
    ],
  ] satisfies AuthEvent[][]
).flatMap((events) => model.getPathsFromEvents(events) as ModelPath[]);

describe('auth statechart × real adapter', () => {
  afterAll(() => {
    http.defaults.adapter = undefined;
  });

  const groups: [string, ModelPath[]][] = [
    ['shortest paths', shortestPaths],
    ['simple paths', simplePaths],
    ['transitions back into a visited state', extraPaths],
    ['a returnTo and whose it is', returnToPaths],
  ];
  for (const [name, paths] of groups) {
    describe(`${name} (${paths.length})`, () => {
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        await runPath(path);
      });
    });
  }

  it('the executed paths reach every state and take every transition of the machine', () => {
    const states = Object.keys(authMachine.root.states);
    const transitions = new Set<string>();
    for (const node of Object.values(authMachine.root.states)) {
      for (const [eventType, candidates] of node.transitions) {
        for (const candidate of candidates) {
          const target = candidate.target?.[0]?.key ?? node.key;
          const id = `${node.key}|${eventType}|${target}`;
          // Guarded candidates of one event are told apart by their targets.
          expect(transitions.has(id), `${id} is unique`).toBe(false);
          transitions.add(id);
        }
      }
    }
    expect(states.length).toBeGreaterThan(0);
    expect([...visitedStates].sort()).toEqual([...states].sort());
    expect([...executedTransitions].sort()).toEqual([...transitions].sort());
  });
});
