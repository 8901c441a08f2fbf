// SPEC §7 names a few calls that change data as GET (markSellerFree, the import moves). They are served
// with the SPEC's method beside the safe one, and made as safe as a GET that changes data can be: the
// auth gate reads the access token from the Authorization header only (server/plugins/auth.ts), never a
// cookie, so a prefetch, a crawler or a followed link cannot trigger one; there is no HEAD twin that
// would run it too; and no cache keeps the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const STATE_CHANGING_GET_NOTE =
  'Served as GET because SPEC §7 names it so; it changes data. It needs the bearer token in the Authorization header (no cookie is read), so a prefetch or a followed link cannot trigger it.';

export const stateChangingGet = {
  exposeHeadRoute: false,
  onSend: async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
  },
};
