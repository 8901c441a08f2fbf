import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Conservative headers on every answer, and a strict CSP on the SPA's HTML: scripts only from this
 * origin (no inline scripts), styles inline because Chakra's emotion injects them at run time.
 */
const spaPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self' ws: wss:",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      if (!request.url.startsWith('/api/docs')) reply.header('x-frame-options', 'DENY');
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html') && !request.url.startsWith('/api/docs')) {
        reply.header('content-security-policy', spaPolicy);
      }
    });
  },
  { name: 'security-headers' },
);
