import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { StoredAuth } from '../lib/stored-auth-schema';
import { authMachine, SESSION_EXPIRED_MESSAGE, safeReturnTo } from './auth.machine';

const auth: StoredAuth = {
  accessToken: 'tok',
  twilioToken: '',
  username: 'Asha',
  userAvatar: null,
  roles: ['ROLE_ADMIN'],
  id: 'u-1',
  sellerId: null,
  clientId: 'bo_x_u-1',
  isAdmin: true,
  isStaff: false,
  isSeller: false,
  loggedIn: true,
  tasks: {},
};

function start() {
  const effects: string[] = [];
  const record =
    (name: string) =>
    (_: unknown, params?: unknown): void => {
      effects.push(params === undefined ? name : `${name} ${JSON.stringify(params)}`);
    };
  const actions = Object.fromEntries(
    [
      'persistAuth',
      'clearStoredAuth',
      'requestSignIn',
      'requestRefresh',
      'requestSignOut',
      'scheduleRefresh',
      'cancelRefresh',
      'redirectToSignIn',
      'redirectAfterSignIn',
      'notifySessionExpired',
    ].map((name) => [name, vi.fn(record(name))]),
  );
  const actor = createActor(authMachine.provide({ actions })).start();
  return { actor, effects };
}

describe('auth statechart', () => {
  it('is pure: no invocations, delays or spawned children', () => {
    for (const node of Object.values(authMachine.root.states)) {
      expect(node.invoke).toEqual([]);
      expect(node.after).toEqual([]);
    }
    expect(Object.keys(authMachine.root.states).sort()).toEqual(
      ['expired', 'refreshing', 'restoring', 'signedIn', 'signedOut', 'signingIn', 'signingOut'].sort(),
    );
  });

  it('runs with its no-op default effects', () => {
    const actor = createActor(authMachine).start();
    actor.send({ type: 'auth.restored', auth });
    actor.send({ type: 'auth.signOut' });
    actor.send({ type: 'auth.signedOut' });
    expect(actor.getSnapshot().value).toBe('signedOut');
  });

  it('signs in: request, store, schedule the refresh, leave the sign-in page', () => {
    const { actor, effects } = start();
    actor.send({ type: 'auth.restored', auth: null });
    actor.send({ type: 'auth.signIn', email: 'a@b.co', password: 'pw', returnTo: '/tags/manage-tags' });
    expect(actor.getSnapshot().value).toBe('signingIn');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'auth.signInSucceeded', auth });
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(actor.getSnapshot().context).toEqual({ auth, error: null, returnTo: null, endedUserId: null });
    expect(effects).toEqual([
      'redirectToSignIn {"withReturnTo":true}',
      'requestSignIn {"email":"a@b.co","password":"pw"}',
      'persistAuth',
      'scheduleRefresh {"accessToken":"tok"}',
      'redirectAfterSignIn {"returnTo":"/tags/manage-tags"}',
    ]);
  });

  it('a failed refresh expires the session: stored auth cleared, notice, back to sign-in', () => {
    const { actor, effects } = start();
    actor.send({ type: 'auth.restored', auth });
    actor.send({ type: 'auth.unauthorized' });
    actor.send({ type: 'auth.unauthorized' });
    expect(actor.getSnapshot().value).toBe('refreshing');
    actor.send({ type: 'auth.refreshFailed', message: 'Refresh token expired' });
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context).toEqual({
      auth: null,
      error: SESSION_EXPIRED_MESSAGE,
      returnTo: null,
      endedUserId: 'u-1',
    });
    expect(effects.filter((e) => e === 'requestRefresh')).toHaveLength(1);
    expect(effects.slice(-4)).toEqual([
      'cancelRefresh',
      'clearStoredAuth',
      `notifySessionExpired {"message":"${SESSION_EXPIRED_MESSAGE}"}`,
      'redirectToSignIn {"withReturnTo":true}',
    ]);
    actor.send({ type: 'auth.signIn', email: 'a@b.co', password: 'pw' });
    expect(actor.getSnapshot().value).toBe('signingIn');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('ignores restored auth that is not signed in', () => {
    const { actor } = start();
    actor.send({ type: 'auth.restored', auth: { ...auth, loggedIn: false } });
    expect(actor.getSnapshot().value).toBe('signedOut');
  });

  it('signing out clears local state first, whatever the server says', () => {
    const { actor, effects } = start();
    actor.send({ type: 'auth.restored', auth });
    effects.length = 0;
    actor.send({ type: 'auth.signOut' });
    expect(effects).toEqual(['cancelRefresh', 'clearStoredAuth', 'requestSignOut']);
    // Whose session ended is known before the server answers: a page opened meanwhile is theirs.
    expect(actor.getSnapshot().context.endedUserId).toBe('u-1');
    actor.send({ type: 'auth.signedOut' });
    expect(actor.getSnapshot().context).toEqual({
      auth: null,
      error: null,
      returnTo: null,
      endedUserId: 'u-1',
    });
  });

  it('a returnTo belongs to the user whose session ended: another user lands on their own home', () => {
    const other: StoredAuth = { ...auth, id: 'u-2', accessToken: 'tok-2' };
    const signInAgain = (who: StoredAuth) => {
      const { actor, effects } = start();
      actor.send({ type: 'auth.restored', auth });
      actor.send({ type: 'auth.sessionRejected', message: SESSION_EXPIRED_MESSAGE });
      actor.send({
        type: 'auth.signIn',
        email: 'a@b.co',
        password: 'pw',
        returnTo: '/sellers/manage-sellers',
      });
      actor.send({ type: 'auth.signInSucceeded', auth: who });
      expect(actor.getSnapshot().context.endedUserId).toBeNull();
      return effects.filter((e) => e.startsWith('redirectAfterSignIn')).at(-1);
    };
    expect(signInAgain(auth)).toBe('redirectAfterSignIn {"returnTo":"/sellers/manage-sellers"}');
    expect(signInAgain(other)).toBe('redirectAfterSignIn {"returnTo":null}');
  });
});

describe('safeReturnTo', () => {
  it('accepts paths inside the app only', () => {
    expect(safeReturnTo('/sellers/manage-sellers?tab=2')).toBe('/sellers/manage-sellers?tab=2');
    for (const bad of [
      null,
      undefined,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'x',
      '/signin',
      '/signin?returnTo=/',
    ]) {
      expect(safeReturnTo(bad)).toBeNull();
    }
  });
});
