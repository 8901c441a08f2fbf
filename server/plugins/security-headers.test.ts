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

  it('API answers keep X-Frame-Options DENY and are never cached', async () => {
    const headers = await headersOf('/api/v1/ping');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it("lets storefronts load the widget's script, and nothing else cross-origin", async () => {
    expect((await headersOf('/widget.js'))['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await headersOf('/signin'))['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('lets MQTT.js run its keepalive timer in a blob: worker, and nothing foreign', async () => {
    const csp = String((await headersOf('/signin'))['content-security-policy']);
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('matches the chat page path only', () => {
    expect(isFramablePath('/chat/S1#x')).toBe(true);
    expect(isFramablePath('/chat//')).toBe(false);
    expect(isFramablePath('/api/v1/queryBot/widget/S1')).toBe(false);
  });
});

describe('the API documentation', () => {
  it('is served under the same framing and CSP rules as the app, and its answers are not cached', async () => {
    const { createTestApp } = await import('../test-support');
    // No demo data: the headers do not depend on it, and seeding is most of an app's start-up.
    const t = await createTestApp({ seed: false, jobs: { enabled: false } });
    try {
      for (const url of ['/api/docs', '/api/docs/static/index.html']) {
        const response = await t.app.inject({ method: 'GET', url });
        const final =
          response.statusCode === 302
            ? await t.app.inject({ method: 'GET', url: String(response.headers.location) })
            : response;
        expect(final.headers['x-frame-options'], url).toBe('DENY');
        expect(final.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
        expect(final.headers['content-security-policy'], url).toContain("script-src 'self'");
      }
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.headers['cache-control']).toBe('no-store');
    } finally {
      await t.close();
    }
  });
});

describe('behind https', () => {
  it('pins https (HSTS) and upgrades insecure requests', async () => {
    const app = Fastify();
    await app.register(securityHeaders, { https: true });
    app.get('/x', async () => 'ok');
    const headers = (await app.inject({ method: 'GET', url: '/x' })).headers;
    expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
    await app.close();
  });
});
