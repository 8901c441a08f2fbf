// CORS for the public widget API (/api/v1/queryBot/widget/{sellerCode}/…): a storefront may call it
// from its own pages. The allowed origin is echoed only when it is one of the shop's embedding sites
// (embed-origins.ts; any site while none is named); a preflight from another site gets no
// Access-Control-Allow-* headers, so the browser refuses the call. This origin's own widget page
// (/chat/{sellerCode}) sends same-origin requests and needs none of this.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmbedOriginList } from './embed-origins';

const ALLOWED_METHODS = 'GET, POST, OPTIONS';
const ALLOWED_HEADERS = 'content-type';

export function originAllowed(origin: string, sites: EmbedOriginList): boolean {
  return sites === null || sites.includes(origin.toLowerCase());
}

async function applyCors(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  if (!origin) return false;
  const sellerCode = (request.params as { sellerCode?: string }).sellerCode ?? '';
  const sites = await app.embedOrigins.forSellerCode(sellerCode).catch(() => [] as string[]);
  reply.header('vary', 'Origin');
  if (!originAllowed(origin, sites)) return false;
  reply.header('access-control-allow-origin', origin);
  return true;
}

/** Registers the CORS hook and the preflight answers inside the widget routes' plugin. */
export function widgetCors(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS') await applyCors(app, request, reply);
  });
  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    if (await applyCors(app, request, reply)) {
      reply.header('access-control-allow-methods', ALLOWED_METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', '600');
    }
    return reply.code(204).send();
  };
  for (const url of ['/:sellerCode', '/:sellerCode/*']) {
    app.options(url, { config: { public: true }, schema: { hide: true } }, preflight);
  }
}
