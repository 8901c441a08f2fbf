// Public seller logos at /files/logos/<name>. Logos are not secret (storefronts show them), so no token:
// the names are random, never reused, and the content type was checked on upload, so they are cached
// for a year and served with nosniff.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UUID_SOURCE } from '../../../contracts/domain/ids';
import { HttpError } from '../../lib/http-error';

export const LOGOS_FOLDER = 'uploads/logos';
const LOGOS_URL = '/files/logos';

export const logoUrl = (name: string) => `${LOGOS_URL}/${name}`;

const contentTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
/** Exactly the names storeFile gives logos: a UUID and the extension of the checked type. */
const logoName = new RegExp(`^${UUID_SOURCE}\\.(png|jpg|webp)$`);

export async function sellerFileRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const folder = path.join(options.dataDir, LOGOS_FOLDER);
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
      const file = path.join(folder, request.params.name);
      const size = await stat(file).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      );
      if (size === null) throw notFound;
      return reply
        .header('content-type', contentTypes[match[1] as string] as string)
        .header('content-length', size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file));
    },
  );
}
