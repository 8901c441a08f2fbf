// Public seller logos at /files/logos/<name>, streamed from the file storage. Logos are not secret
// (storefronts show them), so no token: the names are random, never reused, and the content type was
// checked on upload, so they are cached for a year and served with nosniff.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UUID_SOURCE } from '../../../contracts/domain/ids';
import { HttpError } from '../../lib/http-error';
import { serveStoredFile } from '../../lib/storage/serve-stored-file';

export const LOGOS_FOLDER = 'uploads/logos';
const LOGOS_URL = '/files/logos';

export const logoUrl = (name: string) => `${LOGOS_URL}/${name}`;

const contentTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
/** Exactly the names storeFile gives logos: a UUID and the extension of the checked type. */
const logoName = new RegExp(`^${UUID_SOURCE}\\.(png|jpg|webp)$`);

export async function sellerFileRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${LOGOS_URL}/:name`,
    {
      config: { public: true },
      schema: {
        tags: ['sellers'],
        summary: 'A seller logo (public)',
        params: z.object({ name: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const match = logoName.exec(request.params.name);
      const notFound = new HttpError(404, 'Not found', 'NOT_FOUND');
      if (!match) throw notFound;
      // Streamed even with presigned downloads: an <img> would follow a redirect on every page view.
      return serveStoredFile(request, reply, app.storage, {
        key: `${LOGOS_FOLDER}/${request.params.name}`,
        contentType: contentTypes[match[1] as string] as string,
        fileName: request.params.name,
        disposition: 'inline',
        cacheControl: 'public, max-age=31536000, immutable',
        notFound: () => notFound,
      });
    },
  );
}
