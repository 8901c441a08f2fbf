// Security headers on every answer, with @fastify/helmet: a strict Content-Security-Policy (scripts
// only from this origin, no inline scripts; inline styles because Chakra's emotion injects them at run
// time), no framing, no MIME sniffing, same-origin referrers and isolation, HSTS behind https. The
// same rules hold for the SPA, the API and its documentation at /api/docs (whose Swagger UI runs with
// them as they are). Helmet computes the headers once, at start: @fastify/helmet ran helmet's whole
// middleware again on every request (rebuilding it and reparsing the policy), a few per cent of a list
// page's CPU for headers that never change (issue 28).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

const directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  // MQTT.js keeps its keepalive timer in a dedicated worker it builds from a blob: URL. A worker's
  // timers are not throttled in a background tab (the main thread's are, to once a minute), and a
  // back-office tab mostly waits in the background for notifications, calls and chat requests: with
  // throttled timers its PINGREQ would come too late and the broker would drop the connection. Only
  // script of this origin can make a blob: URL (script-src 'self', no inline script), so this lets
  // nobody run code that could not run already.
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'", 'ws:', 'wss:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/** The policy as a header value, with `frame-ancestors` as given. */
function policy(frameAncestors: string, https: boolean): string {
  const parts = Object.entries({ ...directives, 'frame-ancestors': [frameAncestors] }).map(
    ([name, values]) => `${name} ${values.join(' ')}`,
  );
  if (https) parts.push('upgrade-insecure-requests');
  return parts.join('; ');
}

/**
 * The storefront help-chat widget (`/chat/{sellerCode}`) and enquiry form (`/enquiry/{sellerCode}`),
 * served as the SPA's index.html by the history fallback, are made to be framed: `public/widget.js` and
 * `public/enquiry.js` open them in an iframe on the seller's own site.
 * Only these pages may be framed, by the sites Settings → Website names (the marketplace's and the
 * shop's `embedOrigins`; by any site while none is named, see settings-website/embed-origins.ts);
 * every other page keeps `frame-ancestors 'none'` and X-Frame-Options DENY (clickjacking of the
 * back-office).
 */
export function isFramablePath(url: string): boolean {
  return /^\/(?:chat|enquiry)\/[^/?#]+\/?(?:[?#]|$)/.test(url);
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const FRAMABLE_CODE = /^\/(?:chat|enquiry)\/([^/?#]+)/;

/** The sites that may frame one shop's chat page; `null` for any site. */
export type FrameAncestorsOf = (sellerCode: string) => Promise<readonly string[] | null>;

/** The widget's loader script is included by storefronts on other origins. */
const CROSS_ORIGIN_SCRIPTS = new Set(['/widget.js', '/enquiry.js']);

/** The headers helmet sets with these options, read once from a response that records them. */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

export const securityHeaders = fp(
  async (app: FastifyInstance, options: { https?: boolean; frameAncestors?: FrameAncestorsOf } = {}) => {
    const https = options.https ?? false;
    const frameAncestorsOf: FrameAncestorsOf = options.frameAncestors ?? (async () => null);
    // One policy string per distinct list of sites (few): a framable page costs a Map lookup, and the
    // list itself is cached per seller code by the caller.
    const framablePolicies = new Map<string, string>();
    const framablePolicy = (sites: readonly string[] | null) => {
      const value = sites === null ? '*' : ["'self'", ...sites].join(' ');
      let found = framablePolicies.get(value);
      if (found === undefined) {
        found = policy(value, https);
        if (framablePolicies.size > 1_000) framablePolicies.clear();
        framablePolicies.set(value, found);
      }
      return found;
    };
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: https ? { ...directives, 'upgrade-insecure-requests': [] } : directives,
      },
      // Cross-origin isolation would stop the storefront widget's iframe and script; nothing here needs it.
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      // Over plain http (a laptop, a LAN) browsers ignore it anyway; behind https it pins https.
      hsts: https ? { maxAge: 180 * 24 * 3600, includeSubDomains: false } : false,
    });
    app.addHook('onRequest', async (_request, reply) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
    });

    app.addHook('onSend', async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (isFramablePath(request.url)) {
        reply.raw.removeHeader('x-frame-options');
        const code = FRAMABLE_CODE.exec(path)?.[1] ?? '';
        // Settings unreadable (database down): this origin only, never anyone.
        const sites = await frameAncestorsOf(safeDecode(code)).catch(() => [] as string[]);
        reply.header('content-security-policy', framablePolicy(sites));
      }
      if (CROSS_ORIGIN_SCRIPTS.has(path)) reply.header('cross-origin-resource-policy', 'cross-origin');
      // API answers are one user's data: no browser or proxy keeps a copy (the docs' assets may be cached).
      if (path.startsWith('/api/') && !path.startsWith('/api/docs'))
        reply.header('cache-control', 'no-store');
    });
  },
  { name: 'security-headers' },
);
