import type { FastifyInstance } from 'fastify';
import { productMediaRoutes } from './media-routes';

/** Product images and files: upload, signed links, thumbnails, and the reprocessing job. */
export async function mediaModule(app: FastifyInstance, options: { dataDir: string }) {
  await app.register(productMediaRoutes, { dataDir: options.dataDir });
}
