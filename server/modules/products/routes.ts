// Staging products API (issue 14), under /api/v1/stagingProducts. Every route names the Staging
// Products permission it needs; a seller sees and changes only their own products (another seller's
// product answers 404, so ids cannot be probed).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageSchema, auditQuerySchema } from '../../../contracts/audit';
import {
  changeStatusBodySchema,
  createProductBodySchema,
  productListSchema,
  productSchema,
  searchProductsBodySchema,
  updateProductBodySchema,
} from '../../../contracts/catalog';
import { readAuditPage } from '../../lib/audit';
import { compiledResponse } from '../../lib/compiled-serializer';
import { resourceErrors as errors } from '../../lib/error-responses';
import { tellLowStock } from '../stock/low-stock';
import { listedHistoryRow, realChanges } from './product-history';
import { searchProducts } from './product-search';
import {
  changeProductStatus,
  createProduct,
  findProduct,
  productDto,
  updateProduct,
  viewerOf,
} from './products';
import {
  optionQuerySchema,
  queryFieldListSchema,
  queryFields,
  queryOptionListSchema,
  searchOptions,
} from './query-fields';

export const STAGING_PRODUCTS = '/products/staging-products';
export const PRODUCT_DETAILS = '/product/staging-products';
const staging = (action: 'view' | 'create' | 'edit' | 'delete' | 'export') => ({
  permission: { route: STAGING_PRODUCTS, action },
});
/** One product's routes answer to the details page's own permissions (SPEC §2 detail route). */
const details = (action: 'view' | 'edit') => ({ permission: { route: PRODUCT_DETAILS, action } });

const idParams = z.object({ id: z.string().uuid('There is no such product, or it is not yours.') });

export async function stagingProductRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/method/search',
    {
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary: 'A page of the products a query selects, with their total',
        description:
          'The query is the nested AND/OR tree of contracts/query-tree.ts (depth ≤ 5, ≤ 50 conditions), checked against the product fields and attributes it names and compiled to parameterised SQL. `countExact` is false when the total is above 10,000 and estimated.',
        body: searchProductsBodySchema,
        response: { 200: compiledResponse(productListSchema), ...errors },
      },
    },
    (request) => searchProducts(app.db, viewerOf(request), request.body),
  );

  api.get(
    '/method/queryFields',
    {
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary:
          'The fields a staging query may filter on: built-ins and every attribute, with short option lists',
        description:
          'Loaded by the query builder and the column chooser when they open, never by the grid itself. Sellers and categories are searched through `/method/options/{source}`.',
        response: { 200: queryFieldListSchema },
      },
    },
    async (request) => ({ result: await queryFields(app.db, viewerOf(request)) }),
  );

  api.get(
    '/method/options/:source',
    {
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary: 'Options of a searched field (sellers, categories), or labels of chosen ids',
        params: z.object({ source: z.enum(['sellers', 'categories']) }),
        querystring: optionQuerySchema,
        response: { 200: queryOptionListSchema, ...errors },
      },
    },
    async (request) => ({
      result: await searchOptions(app.db, viewerOf(request), request.params.source, request.query),
    }),
  );

  api.get(
    '/:id',
    {
      config: details('view'),
      schema: {
        tags: ['catalog'],
        summary: 'One product with every field, attribute value, image and what is missing',
        params: idParams,
        response: { 200: productSchema, ...errors },
      },
    },
    async (request) => productDto(app.db, await findProduct(app.db, viewerOf(request), request.params.id)),
  );

  api.post(
    '/',
    {
      config: staging('create'),
      schema: {
        tags: ['catalog'],
        summary: 'Adds a product as a draft; its attribute values are checked against its category',
        body: createProductBodySchema,
        response: { 201: productSchema, ...errors },
      },
    },
    async (request, reply) => {
      const row = await createProduct(app.db, request, request.body);
      return reply.code(201).send(await productDto(app.db, row));
    },
  );

  api.patch(
    '/:id',
    {
      config: details('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Edits a product (only the fields sent); `version` must be the one read, else 409',
        params: idParams,
        body: updateProductBodySchema,
        response: { 200: productSchema, ...errors },
      },
    },
    async (request) => {
      const row = await updateProduct(app.db, request, request.params.id, request.body);
      if (request.body.inventory !== undefined)
        await tellLowStock(app.db, [row.id], (userId, input) => app.notifications.notify(userId, input));
      return productDto(app.db, row);
    },
  );

  api.post(
    '/:id/status',
    {
      config: details('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Moves a product through its lifecycle (draft → in review → approved → live, …)',
        description:
          'Sellers send for review, withdraw and deactivate; staff and admins also approve, reject (with a reason), put live and reactivate. Sending for review needs every required attribute.',
        params: idParams,
        body: changeStatusBodySchema,
        response: { 200: productSchema, ...errors },
      },
    },
    async (request) =>
      productDto(app.db, await changeProductStatus(app.db, request, request.params.id, request.body)),
  );

  api.get(
    '/:id/history',
    {
      config: details('view'),
      schema: {
        tags: ['catalog'],
        summary: "A product's history: who changed what, when, each field before → after",
        params: idParams,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      const product = await findProduct(app.db, viewerOf(request), request.params.id);
      const page = await readAuditPage(
        app.db,
        { type: 'product', id: product.id },
        request.query,
        listedHistoryRow,
      );
      return {
        ...page,
        result: page.result.map((entry) => ({ ...entry, changes: realChanges(entry.changes) })),
      };
    },
  );
}
