// The auth statechart. Pure (ARCHITECTURE.md "Statecharts"): no invoke, no after, no spawn. Every
// effect is a named action with a no-op default that the adapter (src/services/auth-adapter.ts)
// provides; every input from the outside world (storage, network answers, timers, other tabs) is a
// namespaced `auth.*` event that the adapter sends in.
import { assign, setup } from 'xstate';
import type { StoredAuth } from '../lib/stored-auth-schema';

export interface AuthContext {
  /** The signed-in user's stored auth (SPEC §3); null when signed out. */
  auth: StoredAuth | null;
  /** What to tell the user on the sign-in page: a failed sign-in or an expired session. */
  error: string | null;
  /** Where to go after signing in (the protected page the user was sent away from). */
  returnTo: string | null;
  /**
   * Whose session last ended in this tab (signed out, expired, or signed out by another tab): a
   * returnTo is that user's place. Another user signing in lands on their own home instead, so nobody
   * is taken to the previous user's page. Null until a session ends here (a deep link opened signed
   * out belongs to whoever signs in).
   */
  endedUserId: string | null;
}

export type AuthEvent =
  /** Storage was read at start-up: the decrypted auth, or null. */
  /**
   * Storage was read at start-up: the decrypted auth, or null; and whose session last ended in this tab
   * before the page was (re)loaded (the adapter keeps it per tab across reloads).
   */
  | { type: 'auth.restored'; auth: StoredAuth | null; endedUserId?: string | null }
  /** The sign-in form was submitted. `returnTo` comes from the sign-in URL. */
  | { type: 'auth.signIn'; email: string; password: string; returnTo?: string | null }
  | { type: 'auth.signInSucceeded'; auth: StoredAuth }
  | { type: 'auth.signInFailed'; message: string }
  /** The refresh timer fired: the access token expires soon. */
  | { type: 'auth.tokenExpiring' }
  /** The API answered 401 to a request: refresh silently. */
  | { type: 'auth.unauthorized' }
  | { type: 'auth.refreshSucceeded'; auth: StoredAuth }
  | { type: 'auth.refreshFailed'; message: string }
  /** The API still answered 401 with a freshly refreshed token: the session is over. */
  | { type: 'auth.sessionRejected'; message: string }
  | { type: 'auth.signOut' }
  /** The server answered the sign-out (or could not be reached: signing out locally always succeeds). */
  | { type: 'auth.signedOut' }
  /** The stored auth changed while signed in (e.g. the tasks map). */
  | { type: 'auth.authUpdated'; auth: StoredAuth }
  /** Another tab wrote or removed the stored auth. */
  | { type: 'auth.storageChanged'; auth: StoredAuth | null };

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

/** Only a path inside this app is a place to return to (no `//evil.example`, no `https://…`). */
export function safeReturnTo(path: string | null | undefined): string | null {
  if (!path?.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  if (path === '/signin' || path.startsWith('/signin?')) return null;
  return path;
}

function eventAuth(event: AuthEvent): StoredAuth | null {
  return 'auth' in event ? event.auth : null;
}

/** The returnTo for the user now signing in: only theirs (see `endedUserId`), otherwise none. */
function returnToFor(context: AuthContext, userId: string | undefined): string | null {
  if (context.endedUserId !== null && context.endedUserId !== userId) return null;
  return context.returnTo;
}

type SignInEvent = Extract<AuthEvent, { type: 'auth.signIn' }>;
type StorageChangedEvent = Extract<AuthEvent, { type: 'auth.storageChanged' }>;

/**
 * What a signed-out browser (signedOut, expired) answers: the user signs in, or another tab signed in
 * and this one follows (leaving the sign-in page if it is on it).
 */
const signedOutTransitions = {
  'auth.signIn': {
    target: 'signingIn',
    actions: [
      'rememberReturnTo',
      'clearError',
      {
        type: 'requestSignIn',
        params: ({ event }: { event: SignInEvent }) => ({ email: event.email, password: event.password }),
      },
    ],
  },
  'auth.storageChanged': {
    guard: 'hasAuth',
    target: 'signedIn',
    actions: [
      'storeAuth',
      'clearError',
      {
        type: 'scheduleRefresh',
        params: ({ event }: { event: StorageChangedEvent }) => ({
          accessToken: event.auth?.accessToken ?? '',
        }),
      },
      {
        type: 'redirectAfterSignIn',
        params: ({ context, event }: { context: AuthContext; event: StorageChangedEvent }) => ({
          returnTo: returnToFor(context, event.auth?.id),
        }),
      },
      'clearReturnTo',
      'clearEndedSession',
    ],
  },
} as const;

/** Another tab refreshed or updated the auth: adopt it (it is already stored) and time its refresh. */
const adoptOtherTabAuth = [
  'storeAuth',
  {
    type: 'scheduleRefresh',
    params: ({ event }: { event: StorageChangedEvent }) => ({ accessToken: event.auth?.accessToken ?? '' }),
  },
] as const;

/** Another tab signed out: so does this one (the stored auth is already gone). */
const followOtherTabSignOut = {
  target: 'signedOut',
  actions: [
    'cancelRefresh',
    'rememberEndedSession',
    'forgetAuth',
    { type: 'redirectToSignIn', params: { withReturnTo: false } },
  ],
} as const;

/** The session is over (the server refused it, or its refresh failed): forget it and say so. */
const endExpiredSession = {
  target: 'expired',
  actions: [
    'cancelRefresh',
    'rememberEndedSession',
    'forgetAuth',
    'clearStoredAuth',
    { type: 'setError', params: { message: SESSION_EXPIRED_MESSAGE } },
    { type: 'notifySessionExpired', params: { message: SESSION_EXPIRED_MESSAGE } },
    { type: 'redirectToSignIn', params: { withReturnTo: true } },
  ],
} as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actions: {
    // Context only (pure).
    storeAuth: assign({ auth: ({ event }) => eventAuth(event) }),
    forgetAuth: assign({ auth: null }),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    rememberReturnTo: assign({
      returnTo: ({ event }) => (event.type === 'auth.signIn' ? safeReturnTo(event.returnTo) : null),
    }),
    clearReturnTo: assign({ returnTo: null }),
    /** A reload keeps whose session ended here: the returnTo in the address is still theirs. */
    restoreEndedSession: assign({
      endedUserId: ({ event }) => (event.type === 'auth.restored' ? (event.endedUserId ?? null) : null),
    }),
    /** Someone signed in: the ended session's returnTo has been used (or refused). */
    clearEndedSession: assign({ endedUserId: null }),
    /** Before forgetting the auth: the returnTo to come belongs to this user. */
    rememberEndedSession: assign({
      endedUserId: ({ context }) => context.auth?.id ?? context.endedUserId,
    }),
    // Effects: no-ops here, provided by the adapter with `authMachine.provide({ actions })`.
    /** Encrypt and store `context.auth`. */
    persistAuth: () => {},
    /** Remove the stored auth. */
    clearStoredAuth: () => {},
    /** Call the sign-in API; answer with auth.signInSucceeded / auth.signInFailed. */
    requestSignIn: (_, _params: { email: string; password: string }) => {},
    /** Call the refresh API; answer with auth.refreshSucceeded / auth.refreshFailed. */
    requestRefresh: () => {},
    /** Call the sign-out API; answer with auth.signedOut whatever happens. */
    requestSignOut: () => {},
    /** (Re)arm the timer that sends auth.tokenExpiring shortly before the token's `exp`. */
    scheduleRefresh: (_, _params: { accessToken: string }) => {},
    cancelRefresh: () => {},
    /** Go to /signin unless already on a public page; with the current page as returnTo if asked. */
    redirectToSignIn: (_, _params: { withReturnTo: boolean }) => {},
    /** Leave the sign-in page (if that is where the user is) for `returnTo`, or the dashboard. */
    redirectAfterSignIn: (_, _params: { returnTo: string | null }) => {},
    notifySessionExpired: (_, _params: { message: string }) => {},
  },
  guards: {
    /** The event carries a signed-in user's auth. */
    hasAuth: ({ event }) => eventAuth(event)?.loggedIn === true,
  },
}).createMachine({
  id: 'auth',
  context: { auth: null, error: null, returnTo: null, endedUserId: null },
  initial: 'restoring',
  states: {
    restoring: {
      tags: ['busy'],
      on: {
        'auth.restored': [
          {
            guard: 'hasAuth',
            target: 'signedIn',
            actions: [
              'storeAuth',
              {
                type: 'scheduleRefresh',
                params: ({ event }) => ({ accessToken: event.auth?.accessToken ?? '' }),
              },
            ],
          },
          {
            target: 'signedOut',
            actions: [
              'forgetAuth',
              'restoreEndedSession',
              { type: 'redirectToSignIn', params: { withReturnTo: true } },
            ],
          },
        ],
      },
    },
    signedOut: { on: signedOutTransitions },
    signingIn: {
      tags: ['busy'],
      on: {
        'auth.signInSucceeded': {
          target: 'signedIn',
          actions: [
            'storeAuth',
            'clearError',
            'persistAuth',
            { type: 'scheduleRefresh', params: ({ event }) => ({ accessToken: event.auth.accessToken }) },
            {
              type: 'redirectAfterSignIn',
              params: ({ context, event }) => ({ returnTo: returnToFor(context, event.auth.id) }),
            },
            'clearReturnTo',
            'clearEndedSession',
          ],
        },
        'auth.signInFailed': {
          target: 'signedOut',
          actions: [{ type: 'setError', params: ({ event }) => ({ message: event.message }) }],
        },
      },
    },
    signedIn: {
      tags: ['authenticated'],
      on: {
        'auth.tokenExpiring': { target: 'refreshing', actions: ['requestRefresh'] },
        'auth.unauthorized': { target: 'refreshing', actions: ['cancelRefresh', 'requestRefresh'] },
        'auth.authUpdated': { actions: ['storeAuth', 'persistAuth'] },
        'auth.storageChanged': [{ guard: 'hasAuth', actions: adoptOtherTabAuth }, followOtherTabSignOut],
        'auth.sessionRejected': endExpiredSession,
        'auth.signOut': { target: 'signingOut' },
      },
    },
    refreshing: {
      // Still signed in: the current token stays in use until the refresh answers.
      tags: ['authenticated'],
      on: {
        'auth.refreshSucceeded': {
          target: 'signedIn',
          actions: [
            'storeAuth',
            'persistAuth',
            { type: 'scheduleRefresh', params: ({ event }) => ({ accessToken: event.auth.accessToken }) },
          ],
        },
        'auth.refreshFailed': endExpiredSession,
        // A task generated while the refresh runs must not be lost.
        'auth.authUpdated': { actions: ['storeAuth', 'persistAuth'] },
        'auth.storageChanged': [
          { guard: 'hasAuth', target: 'signedIn', actions: adoptOtherTabAuth },
          followOtherTabSignOut,
        ],
        'auth.signOut': { target: 'signingOut' },
      },
    },
    // Like signedOut, but the sign-in page explains that the session ended.
    expired: { on: signedOutTransitions },
    signingOut: {
      tags: ['busy'],
      // Local state goes first: even if the server cannot be reached, nothing of the session remains
      // in this browser, and the other tabs sign out at once (they see the entry disappear). Whose
      // session ended is noted at once too: a page opened before the server answers is already signed
      // out, and its returnTo must not go to the next user.
      entry: ['rememberEndedSession', 'cancelRefresh', 'clearStoredAuth', 'requestSignOut'],
      on: {
        'auth.signedOut': {
          target: 'signedOut',
          actions: [
            'forgetAuth',
            'clearError',
            'clearReturnTo',
            { type: 'redirectToSignIn', params: { withReturnTo: false } },
          ],
        },
      },
    },
  },
});

export type AuthMachine = typeof authMachine;
export type AuthStateValue =
  | 'restoring'
  | 'signedOut'
  | 'signingIn'
  | 'signedIn'
  | 'refreshing'
  | 'expired'
  | 'signingOut';
