import type { FastifyInstance } from 'fastify';
import { stagingProductActionRoutes } from './action-routes';
import { stagingProductRoutes } from './routes';

/**
 * Staging products: the grid, search and details (routes.ts), and the actions on a selection — bulk
 * changes, exports, the report — with their background jobs (action-routes.ts). Attributes and media are
 * their own modules.
 */
export async function productsModule(app: FastifyInstance, options: { dataDir: string }) {
  await app.register(stagingProductRoutes);
  await app.register(stagingProductActionRoutes, { dataDir: options.dataDir });
}
