// What the staging grid does with a selection or a query (issue 14): count it for a confirmation,
// change status, assign a category, add or remove tags (issue 16), delete, report, export. Under /api/v1/stagingProducts/method/…;
// every route names the Staging Products action it needs and scopes a seller to their own products.
// A bulk action over up to BULK_LIMIT products runs in its request and answers its result (200); a
// larger one, up to BULK_JOB_LIMIT, runs as a task (bulk-job.ts) and answers 202 with `taskStatus`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bulkCategoryBodySchema,
  bulkDeleteBodySchema,
  bulkResultSchema,
  bulkStatusBodySchema,
  bulkTagsBodySchema,
  type ProductSelection,
} from '../../../contracts/catalog';
import {
  catalogReportSchema,
  exportProductsBodySchema,
  reportBodySchema,
  selectionBodySchema,
  selectionCountSchema,
} from '../../../contracts/catalog-actions';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import { taskAccepted } from '../../jobs/queue';
import { resourceErrors as errors } from '../../lib/error-responses';
import { actorOf } from '../users/actor';
import {
  BULK_JOB_KIND,
  type BulkJobAction,
  bulkJobHandler,
  checkBulkAction,
  queueBulkJob,
  removeProductFiles,
  runBulkAction,
} from './bulk-job';
import { viewerOf } from './products';
import { PRODUCTS_EXPORT_KIND, productsExportHandler, productsExportPayload } from './products-export';
import { catalogReport } from './report';
import { STAGING_PRODUCTS } from './routes';
import { bulkSelectionSize, countSelection, selectionWhere } from './selection';

const staging = (action: 'view' | 'edit' | 'delete' | 'export') => ({
  permission: { route: STAGING_PRODUCTS, action },
});
/** A bulk action answers its result, or (over BULK_LIMIT products) the task that runs it. */
const bulkAnswers = { 200: bulkResultSchema, 202: taskAcceptedSchema, ...errors };
const bulkDescription =
  'Up to 10,000 products: done in the request, answering the result. Up to 1,000,000: answers 202 with `taskStatus` at once and runs as a background task in batches, each batch re-reading the query (products are visited once each, in id order); its owner is notified with "N changed, M skipped" when it is done. More: 400.';

export async function stagingProductActionRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(
    PRODUCTS_EXPORT_KIND,
    productsExportHandler({ db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );
  app.jobs.register(
    BULK_JOB_KIND,
    bulkJobHandler({ db: app.db, storage: app.storage, log: app.log.child({ module: 'bulk-job' }) }),
  );

  /** Runs a bulk action in the request, or queues it as a task when the selection is over BULK_LIMIT. */
  async function bulk(
    request: FastifyRequest & { body: { selection: ProductSelection } },
    reply: FastifyReply,
    action: BulkJobAction,
  ) {
    const viewer = viewerOf(request);
    const actor = await actorOf(app.db, request);
    const where = await selectionWhere(app.db, viewer, request.body.selection);
    const size = await bulkSelectionSize(app.db, where);
    if (!size.asJob) {
      const { result, files } = await runBulkAction(app.db, viewer, actor, where, action);
      await removeProductFiles(app.storage, files).catch((error) =>
        request.log.warn({ err: error }, 'some files of deleted products could not be removed'),
      );
      return reply.send(result);
    }
    await checkBulkAction(app.db, viewer, actor, action);
    const job = await queueBulkJob(app.db, {
      viewer,
      actor,
      selection: request.body.selection,
      action,
      total: size.count,
    });
    app.jobs.worker.wake();
    return reply.code(202).send(taskAccepted(job));
  }

  api.post(
    '/method/countSelection',
    {
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary:
          'How many products a selection holds, exactly (up to 1,000,000), for a confirmation; `asJob`: a bulk action on it runs as a task',
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
        description: bulkDescription,
        body: bulkStatusBodySchema,
        response: bulkAnswers,
      },
    },
    async (request, reply) => {
      const { selection: _selection, ...body } = request.body;
      return bulk(request, reply, { kind: 'status', ...body });
    },
  );

  api.post(
    '/method/bulkCategory',
    {
      config: staging('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Moves the selected products to a category (values outside its attribute set are dropped)',
        description: bulkDescription,
        body: bulkCategoryBodySchema,
        response: bulkAnswers,
      },
    },
    async (request, reply) => bulk(request, reply, { kind: 'category', categoryId: request.body.categoryId }),
  );

  api.post(
    '/method/bulkTags',
    {
      config: staging('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Adds tags to the selected products, or removes them',
        description: `Tags added must be tags of the draft tree (400 naming the first that is not); at most 50 tags at once, and a product carries at most 50. Products that already carry every tag (or none of the tags to remove), or that would carry more than 50, are left alone and reported. ${bulkDescription}`,
        body: bulkTagsBodySchema,
        response: bulkAnswers,
      },
    },
    async (request, reply) =>
      bulk(request, reply, { kind: 'tags', mode: request.body.mode, tagIds: request.body.tagIds }),
  );

  api.post(
    '/method/bulkDelete',
    {
      config: staging('delete'),
      schema: {
        tags: ['catalog'],
        summary: 'Deletes the selected products with their images and history',
        description: bulkDescription,
        body: bulkDeleteBodySchema,
        response: bulkAnswers,
      },
    },
    async (request, reply) => bulk(request, reply, { kind: 'delete' }),
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
