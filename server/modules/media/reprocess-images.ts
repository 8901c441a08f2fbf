// The "reprocess images" job: makes the thumb and web derivatives again from the originals, for every
// image of the selected products (after a change of derivative sizes, or when files went missing). It
// walks the images in keyset-paged batches, so memory holds one batch whatever the catalogue's size. A
// picture that cannot be read is counted and reported, never fatal. The derivatives keep their paths
// and are replaced whole, so a retried job just writes the same files again.
import { and, asc, count, eq, gt, inArray, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { productSelectionSchema } from '../../../contracts/catalog';
import { plural } from '../../../contracts/domain/format';
import type { Db } from '../../db/client';
import { productMedia, products } from '../../db/schema';
import { JobFailure, type JobHandler } from '../../jobs/worker';
import { HttpError } from '../../lib/http-error';
import { StorageUnavailableError } from '../../lib/storage/errors';
import { keyInFolder } from '../../lib/storage/keys';
import type { FileStorage } from '../../lib/storage/types';
import { selectionWhere } from '../products/selection';
import { MEDIA_FOLDER, mediaFileMissing } from './media';
import { inspectImage, writeDerivatives } from './media-images';

export const REPROCESS_IMAGES_KIND = 'catalog.reprocessImages';
export const REPROCESS_IMAGES_NAME = 'Reprocess images';
export const REPROCESS_BATCH_SIZE = 100;
/** The result names this many of the images that failed, for whoever looks into it. */
const FAILED_IDS_KEPT = 50;

/** What the route stores: the selection, and the seller it is limited to (null for staff and admins). */
export const reprocessPayloadSchema = z.object({
  sellerId: z.string().uuid().nullable(),
  selection: productSelectionSchema,
});
export type ReprocessPayload = z.input<typeof reprocessPayloadSchema>;

/** Regenerates one image's derivatives and records them (and its upright size); throws when it cannot. */
async function reprocessImage(db: Db, storage: FileStorage, image: { id: string; storagePath: string }) {
  // sharp reads paths: the original itself on disk, a temporary copy from S3.
  const local = await storage.localCopy(keyInFolder(MEDIA_FOLDER, image.storagePath));
  if (!local) throw mediaFileMissing();
  let size: { width: number; height: number };
  let derivatives: Record<string, string>;
  try {
    size = await inspectImage(local.path);
    derivatives = await writeDerivatives(storage, image.storagePath, local.path);
  } finally {
    await local.release();
  }
  await db
    .update(productMedia)
    .set({ derivatives, width: size.width, height: size.height })
    .where(eq(productMedia.id, image.id));
}

export function reprocessImagesHandler(options: {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  /** Images per batch (tests make it small to cross batch boundaries). */
  batchSize?: number;
}): JobHandler {
  const { db, storage, log, batchSize = REPROCESS_BATCH_SIZE } = options;
  return async ({ job, payload: raw, setProgress, signal }) => {
    const parsed = reprocessPayloadSchema.safeParse(raw);
    if (!parsed.success) throw new JobFailure('The selection of products is not valid.', true);
    let chosen: SQL;
    try {
      chosen = await selectionWhere(db, parsed.data, parsed.data.selection);
    } catch (error) {
      // The query was checked when the task was started; an attribute deleted since can break it.
      if (error instanceof HttpError) throw new JobFailure(error.message, true);
      throw error;
    }
    const images = and(
      eq(productMedia.kind, 'image'),
      inArray(productMedia.productId, db.select({ id: products.id }).from(products).where(chosen)),
    );
    const [counted] = await db.select({ n: count() }).from(productMedia).where(images);
    const total = counted?.n ?? 0;

    let reprocessed = 0;
    const failedIds: string[] = [];
    let after: string | null = null;
    for (;;) {
      signal.throwIfAborted();
      const batch = await db
        .select({ id: productMedia.id, storagePath: productMedia.storagePath })
        .from(productMedia)
        .where(and(images, after ? gt(productMedia.id, after) : undefined))
        .orderBy(asc(productMedia.id))
        .limit(batchSize);
      for (const image of batch) {
        signal.throwIfAborted();
        try {
          await reprocessImage(db, storage, image);
          reprocessed += 1;
        } catch (error) {
          // An outage is no fault of the image: the job fails and is retried, and redoes the same work.
          if (signal.aborted || error instanceof StorageUnavailableError) throw error;
          failedIds.push(image.id);
          log.warn({ err: error, jobId: job.id, mediaId: image.id }, 'an image could not be reprocessed');
        }
        // The count was taken at the start; images added meanwhile must not push it past 99 early.
        await setProgress(Math.min(99, ((reprocessed + failedIds.length) / Math.max(total, 1)) * 100));
      }
      if (batch.length < batchSize) break;
      after = (batch.at(-1) as { id: string }).id;
    }

    const failed = failedIds.length;
    return {
      images: reprocessed + failed,
      reprocessed,
      failed,
      failedIds: failedIds.slice(0, FAILED_IDS_KEPT),
      title: failed ? 'Images reprocessed, some could not be read' : 'Images reprocessed',
      body:
        reprocessed + failed === 0
          ? 'The selected products have no images.'
          : `${plural(reprocessed, 'image', 'images')} reprocessed${failed ? ` · ${plural(failed, 'image', 'images')} could not be read` : ''}`,
    };
  };
}
