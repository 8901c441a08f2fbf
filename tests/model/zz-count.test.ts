import { it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { authMachine } from '../../src/machines/auth.machine';

const A = { accessToken: 'a', twilioToken: '', username: 'u', userAvatar: null, roles: ['ROLE_ADMIN'], id: '1', sellerId: null, clientId: 'c', isAdmin: true, isStaff: false, isSeller: false, loggedIn: true, tasks: {} } as const;
const events = [
  { type: 'auth.restored', auth: { ...A, accessToken: 'restored' } },
  { type: 'auth.restored', auth: null },
  { type: 'auth.signIn', email: 'a@b.c', password: 'x', returnTo: '/x' },
  { type: 'auth.signInSucceeded', auth: { ...A, accessToken: 'signin' } },
  { type: 'auth.signInFailed', message: 'bad' },
  { type: 'auth.refreshSucceeded', auth: { ...A, accessToken: 'refreshed' } },
  { type: 'auth.refreshFailed', message: 'bad' },
  { type: 'auth.sessionRejected', message: 'bad' },
  { type: 'auth.authUpdated', auth: { ...A, accessToken: 'x', tasks: { t: { name: 'n', timestamp: 1 } } } },
  { type: 'auth.storageChanged', auth: { ...A, accessToken: 'other' } },
  { type: 'auth.storageChanged', auth: null },
] as any[];

function count(name: string, opts: any) {
  const model = createTestModel(authMachine, { events, ...opts });
  const t = Date.now();
  const sp = model.getShortestPaths();
  const simple = model.getSimplePaths();
  const steps = simple.reduce((n, p) => n + p.steps.length, 0);
  console.info(name, 'shortest', sp.length, 'simple', simple.length, 'steps', steps, 'ms', Date.now() - t);
}
it('counts', () => {
  count('value-only', { serializeState: (s: any) => JSON.stringify(s.value) });
  count('prev|event|value', { serializeState: (s: any, e: any, p: any) => `${p ? JSON.stringify(p.value) : ''}|${e?.type ?? ''}|${JSON.stringify(s.value)}` });
  count('event|value', { serializeState: (s: any, e: any) => `${e?.type ?? ''}|${JSON.stringify(s.value)}` });
  count('value+ctx', { serializeState: (s: any) => JSON.stringify({ v: s.value, c: s.context }) });
});
