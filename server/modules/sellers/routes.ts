import type { FastifyInstance } from 'fastify';

/** Seller management (/sellers/manage-sellers): list, search, create, edit, lifecycle, documents, logo. */
export async function sellerRoutes(_app: FastifyInstance) {}
