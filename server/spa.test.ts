import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-support';

// The SPA's history fallback: every page path answers index.html. HEAD (link checkers, uptime probes,
// `curl -I`) must answer exactly like GET, without the body; unknown API routes stay 404 either way.
describe('SPA pages answer HEAD like GET', () => {
  let t: TestApp;
  let staticDir: string;
  const html = '<!doctype html><html><body><div id="root"></div></body></html>';

  beforeAll(async () => {
    staticDir = await mkdtemp(path.join(os.tmpdir(), 'mp-spa-'));
    await writeFile(path.join(staticDir, 'index.html'), html);
    await mkdir(path.join(staticDir, 'assets'));
    await writeFile(path.join(staticDir, 'assets', 'app-abc123.js'), 'console.log(1);');
    t = await createTestApp({ seed: false, env: { STATIC_DIR: staticDir } });
  });
  afterAll(async () => {
    await t.close();
    await rm(staticDir, { recursive: true, force: true });
  });

  it.each(['/', '/signin', '/sellers/manage-sellers', '/chat/SEL-1000001', '/calls/call-history?x=1'])(
    '%s',
    async (url) => {
      const get = await t.app.inject({ method: 'GET', url });
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(get.statusCode).toBe(200);
      expect(get.body).toBe(html);
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      for (const name of ['content-type', 'content-length', 'cache-control', 'x-frame-options']) {
        expect(head.headers[name], name).toBe(get.headers[name]);
      }
      expect(head.headers['cache-control']).toBe('no-cache');
    },
  );

  it('hashed assets answer HEAD with their long cache', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/app-abc123.js' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['cache-control']).toContain('immutable');
  });

  it.each([
    ['GET', '/api/v1/no-such-route'],
    ['HEAD', '/api/v1/no-such-route'],
    ['HEAD', '/missing-file.js'],
  ] as const)('%s %s stays 404', async (method, url) => {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    if (method === 'GET') expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('other methods on a page path stay 404', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/sellers/manage-sellers' });
    expect(response.statusCode).toBe(404);
  });
});
