import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, createTestApp, json, type TestApp } from '../test-support';
import { findTextProblem, MAX_INPUT_DEPTH } from './input-guard';

describe('text no route can store', () => {
  it.each([
    ['NUL', { name: 'a\u0000b' }, 'body.name', /NUL/],
    ['a lone high surrogate', { list: ['ok', '\ud800'] }, 'body.list.1', /unpaired surrogate/],
    ['a lone low surrogate', { deep: { text: 'x\udc00' } }, 'body.deep.text', /unpaired surrogate/],
    ['a NUL in a field name', { 'a\u0000': 1 }, 'body (a field name)', /NUL/],
  ])('finds %s and says where', (_label, value, path, message) => {
    expect(findTextProblem(value, 'body')).toMatchObject({ path, message: expect.stringMatching(message) });
  });

  it('lets well-formed text through, emoji and other scripts included', () => {
    expect(findTextProblem({ a: '😀 नमस्ते مرحبا', b: ['\u202e'], c: 5, d: null }, 'body')).toBeNull();
  });

  it('refuses nesting deeper than any request needs', () => {
    let value: unknown = 'leaf';
    for (let i = 0; i < MAX_INPUT_DEPTH + 1; i++) value = [value];
    expect(findTextProblem(value, 'body')).toMatchObject({ message: 'is nested too deeply' });
  });
});

describe('bad input answers 400 at one place, for every route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
  });
  afterAll(() => t.close());

  it('names the field with a NUL or an unpaired surrogate, public routes included', async () => {
    const as = await apiAs(t.app);
    const widget = await t.app.inject({ method: 'GET', url: '/api/v1/queryBot/widget/a%00b' });
    expect(widget.statusCode).toBe(400);
    expect(json(widget)).toEqual({
      message: 'params.sellerCode: contains a NUL character, which is not allowed',
      code: 'INVALID_TEXT',
    });
    const search = await as('Admin', 'GET', '/api/v1/sellers/searchSellers?query=x%00');
    expect(json(search)).toMatchObject({
      code: 'INVALID_TEXT',
      message: expect.stringContaining('query.query'),
    });
    const update = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/staff/updateStaffStatus/6c1f4a52-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
      headers: { authorization: `Bearer ${as.tokens.Admin}`, 'content-type': 'application/json' },
      payload: '{"isActive": true, "note": "\\ud800"}',
    });
    expect(update.statusCode).toBe(400);
    expect(json(update).message).toBe('body.note: is not valid Unicode text (it has an unpaired surrogate)');
  });

  it('answers a 10 KB path parameter and an unknown route without echoing the address', async () => {
    const as = await apiAs(t.app);
    const long = 'a'.repeat(10_240);
    for (const url of [
      `/api/v1/sellers/getSellersById/${long}`,
      `/api/v1/nothing/${'b'.repeat(90)}`,
      `/api/v1/${long}`,
    ]) {
      const response = await as('Admin', 'GET', url);
      expect([400, 404]).toContain(response.statusCode);
      expect(response.body.length).toBeLessThan(200);
      expect(json(response)).toEqual({ message: expect.any(String), code: expect.any(String) });
    }
  });
});
