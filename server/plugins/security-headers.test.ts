import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFramablePath, securityHeaders } from './security-headers';

// The SPA's history fallback answers every page path with index.html; this app does the same, so the
// headers are checked exactly as the browser receives them for each path.
describe('framing: only the storefront chat widget may be embedded', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(securityHeaders);
    app.get('/api/v1/ping', async () => ({ ok: true }));
    app.setNotFoundHandler((_request, reply) =>
      reply.type('text/html; charset=utf-8').send('<!doctype html><div id="root"></div>'),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const headersOf = async (url: string) => (await app.inject({ method: 'GET', url })).headers;

  it.each(['/chat/SELLER-1', '/chat/SELLER-1/', '/chat/abc?embed=1'])(
    '%s may be framed by any site',
    async (url) => {
      const headers = await headersOf(url);
      expect(headers['x-frame-options']).toBeUndefined();
      expect(headers['content-security-policy']).toContain('frame-ancestors *');
      expect(headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
      // The rest of the policy is unchanged: still no inline or foreign scripts.
      expect(headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it.each(['/signin', '/', '/sellers/help-chats', '/chat', '/chatting/x', '/chat/a/b', '/x/chat/a'])(
    '%s may not be framed',
    async (url) => {
      const headers = await headersOf(url);
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    },
  );

  it('API answers keep X-Frame-Options DENY', async () => {
    expect((await headersOf('/api/v1/ping'))['x-frame-options']).toBe('DENY');
  });

  it('matches the chat page path only', () => {
    expect(isFramablePath('/chat/S1#x')).toBe(true);
    expect(isFramablePath('/chat//')).toBe(false);
    expect(isFramablePath('/api/v1/queryBot/widget/S1')).toBe(false);
  });
});
