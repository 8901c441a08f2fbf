import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../contracts/auth';
import { forgotPassword, getCurrentUser, refresh, resetPassword, signIn, signOut } from './auth-api';
import { ApiError, configureHttp, http } from './http';
import { makeCurrentUser } from './testing/current-user';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from './testing/fake-adapter';

const session: Session = {
  accessToken: 'tok',
  expiresIn: 900,
  user: makeCurrentUser({ email: 'admin@demo.local' }),
};

let reply: FakeReply;
let requests: RecordedRequest[];
const notifyError = vi.fn();
let token: string | null;
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  reply = { status: 200, data: session };
  token = null;
  const fake = createFakeAdapter(() => reply);
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  notifyError.mockReset();
  unconfigure = configureHttp({ getAccessToken: () => token, notifyError });
});

afterEach(() => {
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

describe('auth API', () => {
  it('signIn posts the normalised credentials without a token and validates the session', async () => {
    await expect(signIn({ email: ' Admin@Demo.Local ', password: 'Demo@12345' })).resolves.toEqual(session);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      body: { email: 'admin@demo.local', password: 'Demo@12345' },
      authorization: undefined,
    });
  });

  it('signIn failures are silent (the form shows them) and carry the server message', async () => {
    reply = { status: 401, data: { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } };
    await expect(signIn({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      message: 'Invalid email or password',
      status: 401,
    });
    reply = { status: 429, data: { message: 'Too many failed sign-in attempts. Try again in 15 minutes.' } };
    await expect(signIn({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({ status: 429 });
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('rejects invalid input before sending anything', async () => {
    await expect(signIn({ email: 'nope', password: 'x' })).rejects.toMatchObject({
      message: 'Enter a valid e-mail address',
      code: 'VALIDATION_ERROR',
    });
    await expect(resetPassword('short', 'abc')).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(0);
  });

  it('rejects an answer that does not match the contract', async () => {
    reply = { status: 200, data: { accessToken: 'tok' } };
    await expect(refresh()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('refresh and signOut post without a body (the refresh cookie authenticates)', async () => {
    await expect(refresh()).resolves.toEqual(session);
    reply = { status: 204 };
    await expect(signOut()).resolves.toBeUndefined();
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/api/v1/auth/refresh'],
      ['POST', '/api/v1/auth/signout'],
    ]);
  });

  it('forgotPassword and resetPassword return the server message', async () => {
    reply = {
      status: 200,
      data: { message: 'If an account exists for that e-mail, a reset link is on its way.' },
    };
    await expect(forgotPassword('admin@demo.local')).resolves.toEqual(reply.data);
    await expect(resetPassword('t'.repeat(32), 'NewPassw0rd')).resolves.toEqual(reply.data);
    expect(requests.map((r) => r.body)).toEqual([
      { email: 'admin@demo.local' },
      { token: 't'.repeat(32), password: 'NewPassw0rd' },
    ]);
  });

  it('getCurrentUser needs the token and validates the user', async () => {
    await expect(getCurrentUser()).rejects.toMatchObject({ code: 'TOKEN_MISSING' });
    token = 'tok';
    reply = { status: 200, data: session.user };
    await expect(getCurrentUser()).resolves.toEqual(session.user);
    expect(requests[0]).toMatchObject({ url: '/api/v1/users/byToken/current', authorization: 'Bearer tok' });
  });
});
