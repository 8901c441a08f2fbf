// The auth adapter: the ONE long-lived auth actor with its real effects. The statechart
// (src/machines/auth.machine.ts) decides; this module does (API calls, encrypted storage, the refresh
// timer, navigation, toasts) and turns what happens outside (answers, timers, 401s, other tabs) into
// `auth.*` events.
import { type Actor, createActor, type SnapshotFrom, waitFor } from 'xstate';
import { isPublicPath } from '../../contracts/routes';
import {
  type AuthMachine,
  authMachine,
  SESSION_EXPIRED_MESSAGE,
  safeReturnTo,
} from '../machines/auth.machine';
import { ApiError, getErrorMessage } from './api-error';

// The API layer (auth-api with axios and zod) loads with the first call: the sign-in page renders
// without it. A chunk that cannot be fetched is a network failure like any other: transient, retried,
// worded the same.
const authApi = () =>
  import('./auth-api').catch((cause: unknown) => {
    throw new ApiError({ message: 'Network Error', status: 0, code: 'ERR_NETWORK', cause });
  });

import { configureHttp, withRefreshLock } from './http-handlers';
import { AUTH_STORAGE_KEY, clearAuth, loadAuth, saveAuth, whenStorageIdle } from './secure-storage';
import { getRefreshAt, type StoredAuth, sameStoredAuth, sameTasks, toStoredAuth } from './stored-auth';
import { handleTaskResponse, replaceTasks, resetTasks, taskStore } from './tasks';

export type AuthActor = Actor<AuthMachine>;
export type AuthSnapshot = SnapshotFrom<AuthMachine>;

/** What the adapter asks the app to show; structurally a subset of the toaster's `notify` options. */
export interface AuthNotice {
  type: 'error' | 'warning' | 'info' | 'success';
  title: string;
  description?: string;
}

export interface AuthTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface StartAuthOptions {
  /** The router's navigate (wouter's `navigate(to, { replace })`). */
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /** Shows a toast. */
  notify: (notice: AuthNotice) => void;
  /** The current path and query; defaults to `window.location`. */
  getLocation?: () => string;
  /** Timers and clock (tests pass fakes); default to the globals. */
  timers?: AuthTimers;
  now?: () => number;
  /** Where `storage` events come from; defaults to `window`. */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Per-tab storage that survives a reload (whose session ended here); defaults to sessionStorage. */
  tabStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

/** sessionStorage key: the id of the user whose session last ended in this tab (see AuthContext). */
export const ENDED_USER_KEY = 'mp-auth-ended-user';

function defaultTabStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage disabled: the rule then holds until the next reload only
  }
}

export interface AuthService {
  actor: AuthActor;
  /** Resolves once the stored auth has been restored (the actor has left `restoring`). */
  ready: Promise<void>;
  /** Resolves once every effect started so far (API calls, storage writes) has finished. */
  settled: () => Promise<void>;
  /** Stops the actor, the timer and the listeners, and unplugs the http client. */
  stop: () => void;
}

// Selectors for `useSelector(actor, …)`.
/** Signed in, including while a refresh runs in the background. */
export const selectIsSignedIn = (snapshot: AuthSnapshot): boolean => snapshot.hasTag('authenticated');
/** Restoring, signing in or signing out: the UI waits. */
export const selectIsBusy = (snapshot: AuthSnapshot): boolean => snapshot.hasTag('busy');
export const selectIsRestoring = (snapshot: AuthSnapshot): boolean => snapshot.matches('restoring');
export const selectIsSigningOut = (snapshot: AuthSnapshot): boolean => snapshot.matches('signingOut');
export const selectAuth = (snapshot: AuthSnapshot): StoredAuth | null => snapshot.context.auth;
export const selectAuthError = (snapshot: AuthSnapshot): string | null => snapshot.context.error;
export const selectReturnTo = (snapshot: AuthSnapshot): string | null => snapshot.context.returnTo;
/** Changes when another user signs in: the app drops its data cache on change. */
export const selectUserId = (snapshot: AuthSnapshot): string | null => snapshot.context.auth?.id ?? null;

const MAX_TIMER_MS = 2 ** 31 - 1;
/** Transient refresh failures (no answer, 5xx) are retried after these pauses before giving up. */
const REFRESH_RETRY_DELAYS_MS = [1000, 2000];

function pathOf(location: string): string {
  return location.split(/[?#]/)[0] ?? '';
}

function isTransient(error: unknown): boolean {
  return error instanceof ApiError && !error.cancelled && (error.status === 0 || error.status >= 500);
}

/**
 * Creates and starts the auth actor with its effects, registers it with the http client and restores
 * the stored auth. Call once (the app keeps the result for its whole life).
 */
export function startAuth(options: StartAuthOptions): AuthService {
  const { navigate, notify } = options;
  const getLocation = options.getLocation ?? (() => `${window.location.pathname}${window.location.search}`);
  const timers: AuthTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
  const now = options.now ?? Date.now;
  const events = options.events ?? window;
  const tabStorage = options.tabStorage === undefined ? defaultTabStorage() : options.tabStorage;

  let stopped = false;
  let refreshTimer: unknown = null;
  const pending = new Set<Promise<unknown>>();

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    const forget = () => pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  // Declared before the actor: actions run during `start()` and only reach it through these.
  let actor: AuthActor;
  const send = (event: Parameters<AuthActor['send']>[0]) => {
    if (!stopped) actor.send(event);
  };
  const currentAuth = () => actor.getSnapshot().context.auth;

  function cancelTimer() {
    if (refreshTimer !== null) timers.clearTimeout(refreshTimer);
    refreshTimer = null;
  }

  function redirectToSignIn(withReturnTo: boolean) {
    const here = getLocation();
    const path = pathOf(here);
    // SPEC §2/§8: to sign-in, unless already on it (or on another public page).
    if (isPublicPath(path)) return;
    const returnTo = withReturnTo && path !== '/' ? safeReturnTo(here) : null;
    navigate(returnTo ? `/signin?returnTo=${encodeURIComponent(returnTo)}` : '/signin', { replace: true });
  }

  async function callRefresh(): Promise<StoredAuth> {
    for (let attempt = 0; ; attempt++) {
      try {
        const session = await (await authApi()).refresh();
        // Read the previous auth now, not before the call: tasks added meanwhile are kept.
        return toStoredAuth(session, currentAuth());
      } catch (error) {
        const delay = REFRESH_RETRY_DELAYS_MS[attempt];
        if (delay === undefined || !isTransient(error) || stopped) throw error;
        await new Promise<void>((resolve) => timers.setTimeout(resolve, delay));
        if (stopped) throw error;
      }
    }
  }

  async function refreshSession(): Promise<StoredAuth> {
    return withRefreshLock(async () => {
      // While this tab waited for the lock, another one may have refreshed: its token is in storage,
      // and presenting our (now rotated) cookie again would be pointless.
      const mine = currentAuth();
      const stored = await loadAuth();
      const storedRefreshAt = stored ? getRefreshAt(stored.accessToken) : null;
      if (
        mine &&
        stored &&
        stored.id === mine.id &&
        stored.accessToken !== mine.accessToken &&
        storedRefreshAt !== null &&
        storedRefreshAt > now()
      ) {
        return stored;
      }
      return callRefresh();
    });
  }

  const machine = authMachine.provide({
    actions: {
      persistAuth: ({ context }) => {
        if (context.auth)
          track(saveAuth(context.auth).catch((error) => console.warn('Could not store auth', error)));
      },
      clearStoredAuth: () => {
        track(clearAuth());
      },
      requestSignIn: (_, { email, password }) => {
        track(
          authApi()
            .then((api) => api.signIn({ email, password }))
            .then(
              (session) => send({ type: 'auth.signInSucceeded', auth: toStoredAuth(session) }),
              (error: unknown) => send({ type: 'auth.signInFailed', message: getErrorMessage(error) }),
            ),
        );
      },
      requestRefresh: () => {
        track(
          refreshSession().then(
            (auth) => send({ type: 'auth.refreshSucceeded', auth }),
            (error: unknown) => send({ type: 'auth.refreshFailed', message: getErrorMessage(error) }),
          ),
        );
      },
      requestSignOut: () => {
        // Under the refresh lock: a refresh still in flight rotates the cookie first, and the sign-out
        // then revokes the newest refresh token rather than an already rotated one.
        track(
          withRefreshLock(async () => (await authApi()).signOut())
            .catch((error: unknown) => console.warn('Sign-out request failed; signed out locally', error))
            .finally(() => send({ type: 'auth.signedOut' })),
        );
      },
      scheduleRefresh: (_, { accessToken }) => {
        cancelTimer();
        const refreshAt = getRefreshAt(accessToken);
        if (refreshAt === null) return;
        const delay = Math.min(Math.max(0, refreshAt - now()), MAX_TIMER_MS);
        refreshTimer = timers.setTimeout(() => {
          refreshTimer = null;
          send({ type: 'auth.tokenExpiring' });
        }, delay);
      },
      cancelRefresh: () => cancelTimer(),
      redirectToSignIn: (_, { withReturnTo }) => redirectToSignIn(withReturnTo),
      redirectAfterSignIn: (_, { returnTo }) => {
        if (pathOf(getLocation()) === '/signin') navigate(safeReturnTo(returnTo) ?? '/', { replace: true });
      },
      notifySessionExpired: (_, { message }) => notify({ type: 'warning', title: message }),
    },
  });

  actor = createActor(machine);

  // Whose session ended here outlives a reload of the tab: a returnTo left in the address stays theirs.
  let keptEndedUserId: string | null = tabStorage?.getItem(ENDED_USER_KEY) ?? null;
  const keepEndedUser = (id: string | null) => {
    if (id === keptEndedUserId || actor.getSnapshot().matches('restoring')) return;
    keptEndedUserId = id;
    try {
      if (id === null) tabStorage?.removeItem(ENDED_USER_KEY);
      else tabStorage?.setItem(ENDED_USER_KEY, id);
    } catch (error) {
      console.warn('Could not keep the ended session in this tab', error);
    }
  };

  // The stored tasks map mirrors the task store, in both directions.
  const actorSubscription = actor.subscribe((snapshot) => {
    keepEndedUser(snapshot.context.endedUserId);
    const tasks = snapshot.context.auth?.tasks;
    if (!tasks) resetTasks();
    else if (!sameTasks(tasks, taskStore.getSnapshot().tasks)) replaceTasks(tasks);
  });
  const unsubscribeTasks = taskStore.subscribe(() => {
    const snapshot = actor.getSnapshot();
    const auth = snapshot.context.auth;
    if (!auth || !snapshot.hasTag('authenticated')) return;
    const { tasks } = taskStore.getSnapshot();
    if (!sameTasks(tasks, auth.tasks)) send({ type: 'auth.authUpdated', auth: { ...auth, tasks } });
  });

  const unconfigureHttp = configureHttp({
    getAccessToken: () => currentAuth()?.accessToken ?? null,
    async refresh() {
      const snapshot = actor.getSnapshot();
      if (snapshot.matches('signedIn')) send({ type: 'auth.unauthorized' });
      else if (!snapshot.matches('refreshing')) return null;
      const done = await waitFor(actor, (s) => !s.matches('refreshing'));
      return done.matches('signedIn') ? (done.context.auth?.accessToken ?? null) : null;
    },
    onUnauthorized() {
      const snapshot = actor.getSnapshot();
      // A fresh token was refused too: the session is over (the machine clears the stored auth).
      if (snapshot.matches('signedIn'))
        send({ type: 'auth.sessionRejected', message: SESSION_EXPIRED_MESSAGE });
      // Already signed out here (the stored auth is gone, or belongs to another tab's new session).
      else if (snapshot.matches('signedOut') || snapshot.matches('expired')) redirectToSignIn(true);
    },
    onTask: (body) => {
      handleTaskResponse(body, now());
    },
    notifyError: (message) => notify({ type: 'error', title: message }),
  });

  // Another tab signed in, refreshed, updated tasks or signed out.
  const onStorage = (event: Event) => {
    const { key, newValue } = event as StorageEvent;
    if (key !== AUTH_STORAGE_KEY && key !== null) return;
    track(
      (async () => {
        const auth = newValue === null ? null : await loadAuth();
        if (!sameStoredAuth(auth, currentAuth())) send({ type: 'auth.storageChanged', auth });
      })(),
    );
  };
  events.addEventListener('storage', onStorage);

  actor.start();

  const ready = track(
    (async () => {
      let auth: StoredAuth | null = null;
      try {
        auth = await loadAuth();
      } catch (error) {
        console.warn('Could not read the stored auth', error);
      }
      // A token that is expired or about to expire is refreshed at once by the refresh timer.
      send({ type: 'auth.restored', auth, endedUserId: keptEndedUserId });
    })(),
  );

  return {
    actor,
    ready,
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await whenStorageIdle();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      cancelTimer();
      events.removeEventListener('storage', onStorage);
      unsubscribeTasks();
      actorSubscription.unsubscribe();
      unconfigureHttp();
      actor.stop();
    },
  };
}
