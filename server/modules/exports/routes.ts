import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoDay } from '../../../contracts/domain/format';
import { exportFileFormats, sellersExportBodySchema } from '../../../contracts/exports';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import { findOwnJob, taskAccepted } from '../../jobs/queue';
import { taskNotFound } from '../../jobs/routes';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { serveStoredFile } from '../../lib/storage/serve-stored-file';
import { manage } from '../sellers/access';
import { SETTINGS_HISTORY_EXPORT_KIND, settingsHistoryExportHandler } from '../settings/history-export';
import { exportContentTypes, exportFileStem, exportStorageKey } from './export-job';
import {
  SELLERS_EXPORT_KIND,
  SELLERS_EXPORT_NAME,
  type SellersExportPayload,
  sellersExportHandler,
} from './sellers-export';

/**
 * Exports (issue 4): a long action answered at once with `taskStatus`; a background job writes the
 * file and the completion notification carries the download link. Starting an export needs the list's
 * `export` action (routeActions: an admin grants it apart from `view`, and the Export menu shows only
 * with it); downloading is for the user who started it.
 */
export async function exportRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(
    SELLERS_EXPORT_KIND,
    sellersExportHandler({ db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );
  app.jobs.register(
    SETTINGS_HISTORY_EXPORT_KIND,
    settingsHistoryExportHandler({ db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );

  api.post(
    '/sellers',
    {
      // Manage Sellers' `export` action, the same one that shows the Export menu.
      config: manage('export'),
      schema: {
        tags: ['exports'],
        summary: 'Exports the sellers the list shows (its tab filters, search and order) to CSV or XLSX',
        description:
          'Answers 202 with `taskStatus` at once. When the file is written, the owner is notified on the broker with a link to `/api/v1/exports/{taskId}/download`.',
        body: sellersExportBodySchema,
        response: { 202: taskAcceptedSchema, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const payload: SellersExportPayload = request.body;
      const job = await app.jobs.enqueue({
        kind: SELLERS_EXPORT_KIND,
        name: SELLERS_EXPORT_NAME,
        ownerId: request.user.id,
        payload,
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );

  api.get(
    '/:taskId/download',
    {
      schema: {
        tags: ['exports'],
        summary: 'Downloads the file of a finished export (only the user who started it)',
        // No response schema: the answer is the file itself (errors are `{ message, code }` as always).
        params: z.object({ taskId: z.string().uuid('Task not found') }),
      },
    },
    async (request, reply) => {
      const job = await findOwnJob(app.db, request.user.id, request.params.taskId);
      const stem = job && exportFileStem(job.kind);
      if (!job || !stem) throw taskNotFound();
      if (job.status === 'Failed') {
        throw new HttpError(
          409,
          'This export failed, so there is no file. Start a new export.',
          'EXPORT_FAILED',
        );
      }
      const format = z.enum(exportFileFormats).safeParse(job.result?.format);
      if (job.status !== 'Completed' || !format.success) {
        throw new HttpError(
          409,
          `This export is not finished yet (${job.progress}% done). The download link arrives in a notification when it is.`,
          'EXPORT_NOT_READY',
        );
      }
      const day = isoDay(job.finishedAt ?? job.createdAt);
      // Any instance serves it: the file is in the shared storage, not on the disk of the one that wrote it.
      return serveStoredFile(
        request,
        reply,
        app.storage,
        {
          key: exportStorageKey(job.id, format.data),
          contentType: exportContentTypes[format.data],
          fileName: `${stem}-${day}.${format.data}`,
          disposition: 'attachment',
          cacheControl: 'private, no-store',
          notFound: () =>
            new HttpError(404, 'The file of this export is no longer available.', 'EXPORT_GONE'),
        },
        { presigned: app.presignedDownloads },
      );
    },
  );
}
