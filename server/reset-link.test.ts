import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_LINK_INVALID_MESSAGE } from '../contracts/auth';
import { createTestApp, type TestApp } from './test-support';

// A reset link that cannot work answers one way, whatever is wrong with it: 400 RESET_INVALID with the
// text the reset page shows (never a bare "Invalid input" about the token's length).
describe('POST /api/v1/auth/reset-password with a broken link', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  const reset = (token: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, password: 'N3w-password!' },
    });

  it.each([
    ['empty', ''],
    ['short', 'abc'],
    ['with foreign characters', 'not a token <script>'],
    ['well formed but unknown', 'Zm9vYmFyYmF6cXV1eGZvb2JhcmJhenF1dXhmb29iYXI'],
  ])('%s token', async (_, token) => {
    const response = await reset(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: RESET_LINK_INVALID_MESSAGE, code: 'RESET_INVALID' });
  });

  it('an absurdly long token is refused with the same words', async () => {
    const response = await reset('a'.repeat(5000));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(RESET_LINK_INVALID_MESSAGE);
  });

  it('a missing token is a malformed request', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { password: 'N3w-password!' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});
