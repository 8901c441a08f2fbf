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

/**
 * The storefront help-chat widget (`/chat/{sellerCode}`, served as the SPA's index.html by the history
 * fallback) is made to be framed: `public/widget.js` opens it in an iframe on the seller's own site,
 * whose origin we cannot know in advance. Only these pages may be framed, by anyone; every other page
 * keeps `frame-ancestors 'none'` and X-Frame-Options DENY (clickjacking of the back-office). The chat
 * page holds no sign-in and acts only on its own chat, so framing it exposes nothing.
 */
export function isFramablePath(url: string): boolean {
  return /^\/chat\/[^/?#]+\/?(?:[?#]|$)/.test(url);
}
const framablePolicy = spaPolicy.replace("frame-ancestors 'none'", 'frame-ancestors *');

export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      const framable = isFramablePath(request.url);
      if (!request.url.startsWith('/api/docs') && !framable) reply.header('x-frame-options', 'DENY');
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html') && !request.url.startsWith('/api/docs')) {
        reply.header('content-security-policy', framable ? framablePolicy : spaPolicy);
      }
    });
  },
  { name: 'security-headers' },
);
