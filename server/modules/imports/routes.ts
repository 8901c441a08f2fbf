// Catalog imports API (issue 15, SPEC §7 "Imports"), under /api/v1/imports. Every route names the
// Imports permission it needs; a seller works only on their own imports (another seller's answer 404).
// SPEC §7 lists the moves and addImportProductsApi as GET; they change data, so they are served as POST
// (a GET must be safe to repeat, prefetch or follow from a link) and, for SPEC's clients, as GET too:
// bearer-only, without a HEAD twin (server/lib/state-changing-get.ts).
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageSchema, auditQuerySchema } from '../../../contracts/audit';
import { exportDownloadPath } from '../../../contracts/exports';
import {
  applySuggestedTitlesBodySchema,
  applySuggestedTitlesResultSchema,
  batchListSchema,
  batchQuerySchema,
  batchReportQuerySchema,
  batchReportSchema,
  batchSchema,
  batchTaskAnswerSchema,
  errorSheetBodySchema,
  feedRequestBodySchema,
  IMPORT_MAX_BYTES,
  IMPORTS_ROUTE,
  importListSchema,
  importRequestListSchema,
  importRequestSchema,
  importSchema,
  listImportRequestsQuerySchema,
  listImportsQuerySchema,
  type MoveKind,
  mappingTargetListSchema,
  markInactiveBodySchema,
  markInactivePreviewSchema,
  markInactiveResultSchema,
  reprocessBatchBodySchema,
  searchBatchesQuerySchema,
  searchImportsQuerySchema,
  suggestedTitleListSchema,
  suggestedTitlesBodySchema,
  titleTemplateSchema,
  updateRequestBodySchema,
  uploadAnswerSchema,
} from '../../../contracts/imports';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import type { RouteAction } from '../../../contracts/routes';
import { taskAccepted } from '../../jobs/queue';
import { readAuditPage } from '../../lib/audit';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { STATE_CHANGING_GET_NOTE, stateChangingGet } from '../../lib/state-changing-get';
import { serveStoredFile } from '../../lib/storage/serve-stored-file';
import { allAttributes } from '../attributes/attribute-defs';
import { viewerOf } from '../products/products';
import {
  markInactive,
  markInactivePreview,
  moveBatch,
  reprocessBatch,
  resumeBatch,
  stopBatch,
  uploadCatalogSheet,
} from './batch-actions';
import { ERROR_SHEET_KIND, ERROR_SHEET_NAME, errorSheetHandler } from './error-sheet';
import { findBatch, findImport, getImport, listImports, searchBatches } from './imports';
import { mappingTargets } from './mapping';
import { MOVE_KIND, moveHandler } from './move-job';
import { batchReport } from './report';
import {
  findRequest,
  getRequest,
  importFromRequest,
  listImportRequests,
  requestFeedImport,
  requestFileImport,
  requestFileKey,
  takeRequest,
  updateRequest,
} from './requests';
import { SAMPLE_SHEET_NAME, sampleSheetCsv } from './sample-sheet';
import { applySuggestedTitles, suggestedTitles } from './suggested-titles';
import { saveTitleTemplate, titleTemplate } from './title-template';
import { VALIDATE_KIND, validateHandler } from './validate-job';

const imports = (action: RouteAction) => ({ permission: { route: IMPORTS_ROUTE, action } });
const tags = ['imports'];
const idParams = z.object({ id: z.string().uuid('There is no such import, or it is not yours.') });

export async function importRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  await app.register(fastifyMultipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
  app.jobs.register(VALIDATE_KIND, validateHandler({ db: app.db, storage: app.storage }));
  app.jobs.register(
    MOVE_KIND,
    moveHandler({ db: app.db, notify: (userId, input) => app.notifications.notify(userId, input) }),
  );
  app.jobs.register(
    ERROR_SHEET_KIND,
    errorSheetHandler({ db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );

  api.get(
    '/listImports',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'A page of imports, newest first, with their current batch',
        querystring: listImportsQuerySchema,
        response: { 200: importListSchema, ...errors },
      },
    },
    async (request) => listImports(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/searchImports',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'Imports whose file name or seller contains the query',
        querystring: searchImportsQuerySchema,
        response: { 200: importListSchema, ...errors },
      },
    },
    async (request) => listImports(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/getImport/:id',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'One import with its current batch',
        params: idParams,
        response: { 200: importSchema, ...errors },
      },
    },
    async (request) => getImport(app.db, viewerOf(request), request.params.id),
  );

  api.get(
    '/searchBatches',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'Batches (validation runs), newest first, by import, status or seller',
        querystring: searchBatchesQuerySchema,
        response: { 200: batchListSchema, ...errors },
      },
    },
    async (request) => searchBatches(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/getBatchReport',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'A batch’s report: exact counts, commonest errors, unmapped columns and a page of rows',
        querystring: batchReportQuerySchema,
        response: { 200: batchReportSchema, ...errors },
      },
    },
    async (request) => batchReport(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/mappingTargets',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'What a sheet column may be mapped to: the product fields and the importable attributes',
        response: { 200: mappingTargetListSchema, ...errors },
      },
    },
    async () => ({ result: mappingTargets(await allAttributes(app.db)) }),
  );

  api.post(
    '/uploadCatalogSheet',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Uploads a CSV or XLSX sheet; its validation runs as a task',
        description:
          'multipart/form-data: the text field `sellerId` (staff and admins; sellers import into their own catalogue) and optionally `requestId`, then the file. The type is decided from the content; at most 50 MB. Answers 201 with the import and `taskStatus`.',
        consumes: ['multipart/form-data'],
        response: { 201: uploadAnswerSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await uploadCatalogSheet(app, request, options.dataDir)),
  );

  api.post(
    '/reprocessBatch',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Validates the import again as a new batch, with a new mapping or blank-cell rule',
        body: reprocessBatchBodySchema,
        response: { 200: batchTaskAnswerSchema, ...errors },
      },
    },
    async (request) => reprocessBatch(app, request, request.body),
  );

  api.post(
    '/stopBatch',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Stops a running batch after the chunk it is in; it can be resumed',
        body: batchQuerySchema,
        response: { 200: batchSchema, ...errors },
      },
    },
    async (request) => stopBatch(app, request, request.body.batch),
  );

  api.post(
    '/resumeBatch',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Resumes a stopped or failed batch from its last checkpoint',
        body: batchQuerySchema,
        response: { 200: batchTaskAnswerSchema, ...errors },
      },
    },
    async (request) => resumeBatch(app, request, request.body.batch),
  );

  const moves: [string, MoveKind, string][] = [
    [
      '/moveToStaging',
      'full',
      'Creates and updates staging products from the batch’s valid rows, as previewed',
    ],
    [
      '/moveToStagingOnlyPricingAndInventory',
      'pricing',
      'Updates only price and inventory of the staging products the rows name by SKU',
    ],
    ['/mergeDuplicatesToStaging', 'duplicates', 'Merges duplicate rows into the products they duplicate'],
  ];
  for (const [url, kind, summary] of moves) {
    api.post(
      url,
      {
        config: imports('import'),
        schema: {
          tags,
          summary,
          querystring: batchQuerySchema,
          response: { 200: batchTaskAnswerSchema, ...errors },
        },
      },
      async (request) => moveBatch(app, request, request.query.batch, kind),
    );
    api.get(
      url,
      {
        ...stateChangingGet,
        config: imports('import'),
        schema: {
          tags,
          summary: `${summary} (SPEC §7's GET)`,
          description: STATE_CHANGING_GET_NOTE,
          querystring: batchQuerySchema,
          response: { 200: batchTaskAnswerSchema, ...errors },
        },
      },
      async (request) => moveBatch(app, request, request.query.batch, kind),
    );
  }

  api.get(
    '/markInactive',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'How many of the seller’s products the batch no longer contains, and how many are live',
        querystring: batchQuerySchema,
        response: { 200: markInactivePreviewSchema, ...errors },
      },
    },
    async (request) => markInactivePreview(app, request, request.query.batch),
  );

  api.post(
    '/markInactive',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Marks inactive the seller’s live products the batch does not contain (the count confirmed)',
        body: markInactiveBodySchema,
        response: { 200: markInactiveResultSchema, ...errors },
      },
    },
    async (request) => markInactive(app, request, request.body),
  );

  api.post(
    '/getSuggestedTitles',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'Titles built from the admin’s template for a page of the batch’s rows',
        body: suggestedTitlesBodySchema,
        response: { 200: suggestedTitleListSchema, ...errors },
      },
    },
    async (request) => suggestedTitles(app.db, viewerOf(request), request.body),
  );

  api.post(
    '/applySuggestedTitles',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Applies suggested titles to rows and validates the sheet again as a new batch',
        body: applySuggestedTitlesBodySchema,
        response: { 200: applySuggestedTitlesResultSchema, ...errors },
      },
    },
    async (request) => applySuggestedTitles(app, request, request.body),
  );

  api.get(
    '/titleTemplate',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'The suggested-title template',
        response: { 200: titleTemplateSchema, ...errors },
      },
    },
    async () => ({ template: await titleTemplate(app.db) }),
  );

  api.put(
    '/titleTemplate',
    {
      config: imports('edit'),
      schema: {
        tags,
        summary: 'Sets the suggested-title template (its attributes are also the duplicate keys)',
        body: titleTemplateSchema,
        response: { 200: titleTemplateSchema, ...errors },
      },
    },
    async (request) => {
      await saveTitleTemplate(app.db, request.body.template);
      return { template: request.body.template };
    },
  );

  api.post(
    '/exportBatchErrors',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Writes the batch’s rows with errors, plus an Errors column, to CSV or XLSX (a task)',
        description: `Answers 202 with \`taskStatus\`; the finished file is at ${exportDownloadPath('{taskId}')}.`,
        body: errorSheetBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { batch, upload } = await findBatch(app.db, viewerOf(request), request.body.batch);
      const job = await app.jobs.enqueue({
        kind: ERROR_SHEET_KIND,
        name: ERROR_SHEET_NAME,
        ownerId: request.user.id,
        payload: { batchId: batch.id, format: request.body.format ?? upload.format },
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );

  api.get(
    '/getImportUpdateHistory/:id',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'What happened to an import: uploads, validations, mappings, moves, stops, newest first',
        params: idParams,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      await findImport(app.db, viewerOf(request), request.params.id);
      return readAuditPage(app.db, { type: 'import', id: request.params.id }, request.query);
    },
  );

  api.get(
    '/sampleSheet',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'A sample sheet with good rows, rows with errors and duplicates, to try an import',
      },
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${SAMPLE_SHEET_NAME}"`)
        .send(sampleSheetCsv()),
  );

  // ── Import requests ──────────────────────────────────────────────────────────────────────────────

  const requestParams = z.object({
    id: z.string().uuid('There is no such import request, or it is not yours.'),
  });

  api.get(
    '/listImportRequests',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'Import requests, newest first (a seller sees their own)',
        querystring: listImportRequestsQuerySchema,
        response: { 200: importRequestListSchema, ...errors },
      },
    },
    async (request) => listImportRequests(app.db, viewerOf(request), request.query),
  );

  api.post(
    '/addImportProductsApi',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Asks staff to import products: a feed URL (JSON) or a sheet (multipart)',
        description:
          'JSON `{ feedUrl, note, sellerId? }`, or multipart/form-data with the text fields `note` and (staff) `sellerId`, then the file. SPEC §7 lists it as GET; it creates a request, so it is served as POST. Answers 201 with the request.',
        consumes: ['application/json', 'multipart/form-data'],
        response: { 201: importRequestSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (request.isMultipart())
        return reply.code(201).send(await requestFileImport(app, request, options.dataDir));
      const parsed = feedRequestBodySchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(400, issue?.message ?? 'Give the feed URL.', 'VALIDATION_ERROR', {
          [String(issue?.path[0] ?? 'feedUrl')]: issue?.message ?? 'Give the feed URL.',
        });
      }
      return reply.code(201).send(await requestFeedImport(app, request, parsed.data));
    },
  );

  // SPEC §7's GET: a feed URL in the query (a file cannot travel in a GET).
  api.get(
    '/addImportProductsApi',
    {
      ...stateChangingGet,
      config: imports('import'),
      schema: {
        tags,
        summary: 'Asks staff to import products from a feed URL (SPEC §7’s GET)',
        description: `${STATE_CHANGING_GET_NOTE} Query \`feedUrl\`, \`note\`, (staff) \`sellerId\`. Answers 201 with the request.`,
        querystring: feedRequestBodySchema,
        response: { 201: importRequestSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await requestFeedImport(app, request, request.query)),
  );

  api.post(
    '/takeImportRequest/:id',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Staff take a request (it is in progress, theirs)',
        params: requestParams,
        response: { 200: importRequestSchema, ...errors },
      },
    },
    async (request) => takeRequest(app, request, request.params.id),
  );

  api.post(
    '/updateImportRequest/:id',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Staff mark a request done or rejected, with an answer the seller reads',
        params: requestParams,
        body: updateRequestBodySchema,
        response: { 200: importRequestSchema, ...errors },
      },
    },
    async (request) => updateRequest(app, request, request.params.id, request.body),
  );

  api.post(
    '/importFromRequest/:id',
    {
      config: imports('import'),
      schema: {
        tags,
        summary: 'Staff import the request’s sheet, or fetch its feed, as an import of the seller’s',
        description: `A feed is fetched only over http(s), never from a loopback or private address, at most ${20} MB within 30 s.`,
        params: requestParams,
        response: { 201: uploadAnswerSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await importFromRequest(app, request, request.params.id, options.dataDir)),
  );

  api.get(
    '/getImportRequest/:id',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'One import request',
        params: requestParams,
        response: { 200: importRequestSchema, ...errors },
      },
    },
    async (request) => getRequest(app.db, viewerOf(request), request.params.id),
  );

  api.get(
    '/getRequestUpdateHistory/:id',
    {
      config: imports('view'),
      schema: {
        tags,
        summary: 'What happened to an import request, newest first',
        params: requestParams,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      await findRequest(app.db, viewerOf(request), request.params.id);
      return readAuditPage(app.db, { type: 'import_request', id: request.params.id }, request.query);
    },
  );

  api.get(
    '/downloadRequestFile/:id',
    {
      config: imports('view'),
      schema: { tags, summary: 'The sheet a request was sent with', params: requestParams },
    },
    async (request, reply) => {
      const row = await findRequest(app.db, viewerOf(request), request.params.id);
      const noFile = () => new HttpError(404, 'This request has no file.', 'NO_FILE');
      if (!row.storagePath || !row.fileName) throw noFile();
      return serveStoredFile(request, reply, app.storage, {
        key: requestFileKey(row.storagePath),
        contentType: 'application/octet-stream',
        fileName: row.fileName,
        disposition: 'attachment',
        cacheControl: 'private, no-store',
        notFound: noFile,
      });
    },
  );
}
