import type { FastifyInstance } from 'fastify';
import { attributeRoutes } from './attribute-routes';

/** Attribute definitions, their values' rules, and the completeness recompute job they trigger. */
export async function attributesModule(app: FastifyInstance) {
  await app.register(attributeRoutes);
}
