// Product media API (issue 14), beside the staging products routes under /api/v1/stagingProducts:
// upload (`POST /media`), serve (`GET /media/:id?size=`) and the "reprocess images" task
// (`POST /method/reprocessImages`). The static `media` and `method` segments never clash with `/:id`.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { selectionBodySchema } from '../../../contracts/catalog-actions';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import {
  PRODUCT_VIDEO_MAX_BYTES,
  productMediaParamsSchema,
  productMediaQuerySchema,
  productMediaSchema,
  uploadProductMediaQuerySchema,
} from '../../../contracts/product-media';
import { taskAccepted } from '../../jobs/queue';
import { errorResponses, uploadErrors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { serveStoredFile } from '../../lib/storage/serve-stored-file';
import { viewerOf } from '../products/products';
import { STAGING_PRODUCTS } from '../products/routes';
import { selectionWhere } from '../products/selection';
import {
  createMediaSweeper,
  findLinkedMedia,
  findMediaFile,
  mediaFileMissing,
  uploadProductMedia,
} from './media';
import { mediaLinkSecret, verifyMediaLink } from './media-urls';
import {
  REPROCESS_IMAGES_KIND,
  REPROCESS_IMAGES_NAME,
  type ReprocessPayload,
  reprocessImagesHandler,
} from './reprocess-images';

const staging = (action: 'view' | 'edit') => ({ permission: { route: STAGING_PRODUCTS, action } });

/**
 * A browser keeps a served file this long before asking again (with its ETag, answered 304 when it is
 * unchanged). Short, because a reprocess replaces derivatives under the same URL.
 */
const MEDIA_MAX_AGE_SECONDS = 3600;

export async function productMediaRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const { storage } = app;
  const { dataDir } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  await app.register(fastifyMultipart, { limits: { fileSize: PRODUCT_VIDEO_MAX_BYTES, files: 1 } });
  const log = app.log.child({ module: 'product-media' });
  app.jobs.register(REPROCESS_IMAGES_KIND, reprocessImagesHandler({ db: app.db, storage, log }));

  const sweeper = createMediaSweeper({ db: app.db, storage, log });
  // Uploads nobody claimed: looked for once the server is up, then every hour, without delaying the
  // start; stopped before the database closes.
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('preClose', async () => sweeper.close());

  api.post(
    '/media',
    {
      // Upload is part of adding and of editing a product: `view` here, create-or-edit in the handler.
      config: staging('view'),
      schema: {
        tags: ['catalog'],
        summary: 'Upload a product image (JPEG, PNG, WebP ≤ 10 MB) or video (MP4, WebM ≤ 50 MB)',
        description:
          'Multipart, one file; the type is read from the content. Images are decoded (at most 50 megapixels) and get WebP derivatives `thumb` (160 px) and `web` (1200 px), EXIF-rotated and without metadata. Staff and admins name the seller with `sellerId` (query or a form field before the file). The upload belongs to no product until one claims it through `imageIds` or an IMAGE/VIDEO attribute; unclaimed uploads are removed after 24 hours.',
        consumes: ['multipart/form-data'],
        querystring: uploadProductMediaQuerySchema,
        response: { 201: productMediaSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const media = await uploadProductMedia({ db: app.db, storage, dataDir }, request, request.query);
      return reply.code(201).send(media);
    },
  );

  api.get(
    '/media/:id',
    {
      // Public: an <img> sends no token. The link's signature is the permission (media-urls.ts): only
      // the API's answers mint links, for products the viewer may see.
      config: { public: true },
      // The API answers `no-store` (security-headers.ts); a picture the lists show again and again is
      // the exception: the owner's browser keeps it briefly, revalidated by ETag. Route hooks run after
      // the app's, so this has the last word, and only on a served file (errors stay `no-store`).
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 200 || reply.statusCode === 206 || reply.statusCode === 304)
          reply.header('cache-control', `private, max-age=${MEDIA_MAX_AGE_SECONDS}`);
        return payload;
      },
      schema: {
        tags: ['catalog'],
        summary: 'A product image or video: the original, or the `thumb` or `web` derivative of an image',
        description:
          'Opened through the signed links the API answers (`exp`, `sig`): an <img> sends no token. A link that is not signed by this server, or has expired, answers 403. A missing derivative falls back to the original. Supports ETag (If-None-Match → 304) and one byte range.',
        // No response schema: the answer is the file itself (errors are `{ message, code }` as always).
        params: productMediaParamsSchema,
        querystring: productMediaQuerySchema,
      },
    },
    async (request, reply) => {
      const { size, exp, sig } = request.query;
      const secret = await mediaLinkSecret(app.db);
      if (!sig || !verifyMediaLink(secret, request.params.id, size, Number(exp), sig)) {
        throw new HttpError(
          403,
          'This picture link has expired. Reload the page to see it.',
          'MEDIA_LINK_INVALID',
        );
      }
      const row = await findLinkedMedia(app.db, request.params.id);
      const file = await findMediaFile(storage, row, request.query.size);
      // A private cache is still shared by whoever signs in on that browser next.
      reply.header('vary', 'authorization');
      return serveStoredFile(
        request,
        reply,
        storage,
        {
          key: file.key,
          contentType: file.mimeType,
          fileName: file.fileName,
          disposition: 'inline',
          cacheControl: `private, max-age=${MEDIA_MAX_AGE_SECONDS}`,
          notFound: mediaFileMissing,
        },
        { presigned: app.presignedDownloads },
      );
    },
  );

  api.post(
    '/method/reprocessImages',
    {
      config: staging('edit'),
      schema: {
        tags: ['catalog'],
        summary: 'Regenerates the thumb and web derivatives of the selected products’ images',
        description:
          'Answers 202 with `taskStatus` at once; a background job does the work, reports progress on `/api/v1/tasks/{taskId}` and ends with a notification saying how many images were reprocessed and how many could not be read. A seller’s selection covers their own products only.',
        body: selectionBodySchema,
        response: { 202: taskAcceptedSchema, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const { sellerId } = viewerOf(request);
      const { selection } = request.body;
      // A query that does not fit is refused here (400), not by a failed task later.
      await selectionWhere(app.db, { sellerId }, selection);
      const payload: ReprocessPayload = { sellerId, selection };
      const job = await app.jobs.enqueue({
        kind: REPROCESS_IMAGES_KIND,
        name: REPROCESS_IMAGES_NAME,
        ownerId: request.user.id,
        payload,
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );
}
