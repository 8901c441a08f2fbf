// What the staging grid does with a selection or a query (issue 14): count it for a confirmation,
// change status, assign a category, add or remove tags (issue 16), delete, report, export. Under /api/v1/stagingProducts/method/…;
// every route names the Staging Products action it needs and scopes a seller to their own products.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bulkCategoryBodySchema,
  bulkDeleteBodySchema,
  bulkResultSchema,
  bulkStatusBodySchema,
  bulkTagsBodySchema,
} from '../../../contracts/catalog';
import {
  catalogReportSchema,
  exportProductsBodySchema,
  reportBodySchema,
  selectionBodySchema,
  selectionCountSchema,
} from '../../../contracts/catalog-actions';
import { apiErrorSchema } from '../../../contracts/errors';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import { taskAccepted } from '../../jobs/queue';
import { actorOf } from '../sellers/history';
import { bulkAssignCategory, bulkChangeStatus, bulkDelete, bulkTags } from './bulk';
import { viewerOf } from './products';
import { PRODUCTS_EXPORT_KIND, productsExportHandler, productsExportPayload } from './products-export';
import { catalogReport } from './report';
import { STAGING_PRODUCTS } from './routes';
import { countSelection, selectionWhere } from './selection';

const staging = (action: 'view' | 'edit' | 'delete' | 'export') => ({
  permission: { route: STAGING_PRODUCTS, action },
});
const errors = { 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** Removes deleted products' files; a file already gone is fine, a path outside DATA_DIR is never touched. */
async function removeFiles(
  dataDir: string,
  files: { storagePath: string; derivatives: Record<string, string> }[],
) {
  const root = path.resolve(dataDir);
  const paths = files.flatMap((file) => [file.storagePath, ...Object.values(file.derivatives)]);
  await Promise.all(
    paths.map((relative) => {
      const full = path.resolve(root, relative);
      return full.startsWith(`${root}${path.sep}`) ? rm(full, { force: true }) : undefined;
    }),
  );
}

export async function stagingProductActionRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(PRODUCTS_EXPORT_KIND, productsExportHandler({ db: app.db, dataDir: options.dataDir }));

  api.post(
    '/method/countSelection',
    {
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary: 'How many products a selection holds, exactly (up to the bulk limit), for a confirmation',
        body: selectionBodySchema,
        response: { 200: selectionCountSchema, ...errors },
      },
    },
    async (request) =>
      countSelection(app.db, await selectionWhere(app.db, viewerOf(request), request.body.selection)),
  );

  api.post(
    '/method/bulkStatus',
    {
      config: staging('edit'),
      schema: {
        tags: ['catalog'],
        summary:
          'Moves the selected products to a status; products the lifecycle does not allow are reported',
        body: bulkStatusBodySchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const where = await selectionWhere(app.db, viewer, request.body.selection);
      return bulkChangeStatus(app.db, viewer, await actorOf(app.db, request), where, request.body);
    },
  );

  api.post(
    '/method/bulkCategory',
    {
      config: staging('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Moves the selected products to a category (values outside its attribute set are dropped)',
        body: bulkCategoryBodySchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const where = await selectionWhere(app.db, viewerOf(request), request.body.selection);
      return bulkAssignCategory(app.db, await actorOf(app.db, request), where, request.body.categoryId);
    },
  );

  api.post(
    '/method/bulkTags',
    {
      config: staging('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Adds tags to the selected products, or removes them',
        description:
          'Tags added must be tags of the draft tree (400 naming the first that is not); at most 50 tags at once, and a product carries at most 50. Products that already carry every tag (or none of the tags to remove), or that would carry more than 50, are left alone and reported.',
        body: bulkTagsBodySchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const where = await selectionWhere(app.db, viewerOf(request), request.body.selection);
      return bulkTags(app.db, await actorOf(app.db, request), where, request.body);
    },
  );

  api.post(
    '/method/bulkDelete',
    {
      config: staging('delete'),
      schema: {
        tags: ['catalog'],
        summary: 'Deletes the selected products with their images and history',
        body: bulkDeleteBodySchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const where = await selectionWhere(app.db, viewerOf(request), request.body.selection);
      const { result, files } = await bulkDelete(app.db, where);
      await removeFiles(options.dataDir, files).catch((error) =>
        request.log.warn({ err: error }, 'some files of deleted products could not be removed'),
      );
      return result;
    },
  );

  api.post(
    '/method/report',
    {
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary: 'The report of a query: counts by status, category, seller, completeness; what is missing',
        body: reportBodySchema,
        response: { 200: catalogReportSchema, ...errors },
      },
    },
    async (request) =>
      catalogReport(app.db, await selectionWhere(app.db, viewerOf(request), { ...request.body })),
  );

  api.post(
    '/method/export',
    {
      config: staging('export'),
      schema: {
        tags: ['catalog'],
        summary:
          'Exports the products a query selects, with the chosen columns and attributes, to CSV or XLSX',
        description:
          'Answers 202 with `taskStatus` at once. When the file is written, the owner is notified with a link to `/api/v1/exports/{taskId}/download`.',
        body: exportProductsBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      // Checked now, so a query that names an unknown attribute is refused before a job starts.
      await selectionWhere(app.db, viewer, { query: request.body.query, search: request.body.search });
      const job = await app.jobs.enqueue({
        kind: PRODUCTS_EXPORT_KIND,
        name: 'Products export',
        ownerId: request.user.id,
        payload: productsExportPayload(request.body, viewer.sellerId),
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );
}
