// Product media (issue 14): the pictures and videos of staging products. A seller (or staff for a
// seller) uploads a file first; it belongs to that seller and to no product until a product claims it
// (products.ts: `imageIds`, IMAGE/VIDEO attribute values). Images are checked by sharp and get WebP
// derivatives at once; unclaimed uploads are removed after a day by a periodic sweep. Every file lives in
// the file storage (app.storage): the disk under DATA_DIR, or S3 shared by every instance.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type MediaSize,
  PRODUCT_IMAGE_MAX_BYTES,
  PRODUCT_IMAGE_TYPES,
  PRODUCT_VIDEO_MAX_BYTES,
  PRODUCT_VIDEO_TYPES,
  type ProductMedia,
} from '../../../contracts/product-media';
import type { Db } from '../../db/client';
import { productMedia, sellers } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { createPeriodicSweep, type PeriodicSweep } from '../../lib/periodic-sweep';
import { scratchDir } from '../../lib/scratch';
import { InvalidStorageKeyError } from '../../lib/storage/errors';
import { keyInFolder } from '../../lib/storage/keys';
import type { FileStorage } from '../../lib/storage/types';
import { receiveUploadedFile, type SniffedType } from '../../lib/uploads';
import { can } from '../permissions/service';
import { STAGING_PRODUCTS } from '../products/routes';
import { sellerNotFound } from '../sellers/repository';
import {
  DERIVATIVE_TYPE,
  type DerivativeName,
  derivativeNames,
  derivativePathOf,
  inspectImage,
  writeDerivatives,
} from './media-images';
import { type MediaSigner, mediaSigner } from './media-urls';

/** Originals (`<uuid>.<ext>`) and their derivatives (`<uuid>-thumb.webp`, …): storage keys under this. */
export const MEDIA_FOLDER = 'uploads/product-media';
/** An upload no product has claimed within this time is removed. */
export const UNCLAIMED_MEDIA_TTL_MS = 24 * 3600 * 1000;

type MediaRow = typeof productMedia.$inferSelect;

const imageTypes: readonly SniffedType[] = PRODUCT_IMAGE_TYPES;
const uploadLimits = {
  maxBytes: PRODUCT_VIDEO_MAX_BYTES,
  accepted: [...PRODUCT_IMAGE_TYPES, ...PRODUCT_VIDEO_TYPES],
  maxBytesOf: Object.fromEntries(PRODUCT_IMAGE_TYPES.map((type) => [type, PRODUCT_IMAGE_MAX_BYTES])),
};

export function productMediaDto(row: MediaRow, signer: MediaSigner): ProductMedia {
  const urls = signer.urls(row.id);
  const isImage = row.kind === 'image';
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.fileName,
    mimeType: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    url: urls.url,
    thumbUrl: isImage ? urls.thumbUrl : null,
    webUrl: isImage ? urls.webUrl : null,
  };
}

/**
 * Uploading is part of adding a product and of editing one, so either action of Staging Products
 * allows it. A route names one action in `config.permission` (it asks for `view`); this checks the rest.
 */
export async function assertMayChangeMedia(request: FastifyRequest): Promise<void> {
  const permissions = await request.permissions();
  if (can(permissions, STAGING_PRODUCTS, 'create') || can(permissions, STAGING_PRODUCTS, 'edit')) return;
  throw new HttpError(403, 'You do not have permission to create or edit Staging Products.', 'FORBIDDEN');
}

const notYourSeller = () =>
  new HttpError(403, 'You can only upload media for your own products.', 'FORBIDDEN', {
    sellerId: 'You can only upload media for your own products.',
  });

const sellerIdField = z.string().uuid();

/**
 * Whose media an upload becomes, as far as it is known before the file is read: a seller's own (they
 * may not name another), or the seller staff named in the query (which must exist). Undefined when
 * staff send it as a form field instead, read with the file.
 */
async function sellerBeforeReading(
  db: Db,
  request: FastifyRequest,
  requested: string | undefined,
): Promise<string | undefined> {
  if (request.user.role === 'Seller') {
    const own = request.user.sellerId;
    if (!own || (requested && requested !== own)) throw notYourSeller();
    return own;
  }
  if (requested) await assertSellerExists(db, requested);
  return requested;
}

async function assertSellerExists(db: Db, sellerId: string): Promise<void> {
  const [row] = await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, sellerId));
  if (!row) throw sellerNotFound();
}

/** The seller named in the form (staff and admins); 400 when there is none or it is not an id. */
async function sellerFromForm(
  db: Db,
  request: FastifyRequest,
  field: string | undefined,
  known: string | undefined,
): Promise<string> {
  if (known) {
    if (field && field !== known) {
      if (request.user.role === 'Seller') throw notYourSeller();
      throw new HttpError(400, 'The query and the form name different sellers.', 'SELLER_MISMATCH');
    }
    return known;
  }
  if (!field) {
    throw new HttpError(400, 'Choose the seller the media is for.', 'SELLER_REQUIRED', {
      sellerId: 'Choose the seller the media is for.',
    });
  }
  if (!sellerIdField.safeParse(field).success) {
    throw new HttpError(400, 'sellerId must be a seller id', 'BAD_REQUEST', {
      sellerId: 'sellerId must be a seller id',
    });
  }
  await assertSellerExists(db, field);
  return field;
}

/**
 * Removes stored files by their keys (never anything outside the media folder). Best effort: a file
 * that cannot be removed now (the store is down) is an orphan, never a row without its file.
 */
export async function removeMediaFiles(storage: FileStorage, keys: Iterable<string>): Promise<void> {
  await Promise.all(
    [...keys].map(async (key) => {
      try {
        await storage.delete(keyInFolder(MEDIA_FOLDER, key));
      } catch {
        // A key outside the folder was never ours to remove; an outage leaves an orphan file.
      }
    }),
  );
}

/**
 * One upload: who and for which seller first, then the file (streamed to local scratch space, type by
 * content, size by type), then for an image the pixel check and the derivatives, then the original and
 * the derivatives put into the storage, and only then the row. Any failure on the way removes what was
 * stored: a refused upload, or one the store could not take (503), leaves neither a row nor a file.
 */
export async function uploadProductMedia(
  deps: { db: Db; storage: FileStorage; dataDir: string },
  request: FastifyRequest,
  query: { sellerId?: string },
): Promise<ProductMedia> {
  const { db, storage } = deps;
  await assertMayChangeMedia(request);
  const knownSeller = await sellerBeforeReading(db, request, query.sellerId);
  const scratch = { dataDir: scratchDir(deps.dataDir), folder: 'product-media' };
  const file = await receiveUploadedFile(request, scratch, uploadLimits);
  const local = path.join(scratch.dataDir, file.relativePath);
  const key = path.posix.join(MEDIA_FOLDER, file.name);
  const stored: string[] = [];
  try {
    const sellerId = await sellerFromForm(db, request, file.fields.sellerId, knownSeller);
    const isImage = imageTypes.includes(file.mimeType);
    let size: { width: number; height: number } | null = null;
    if (isImage) size = await inspectImage(local);
    stored.push(key);
    await storage.put(key, createReadStream(local), { contentType: file.mimeType });
    let derivatives: Record<string, string> = {};
    if (isImage) {
      stored.push(...derivativeKeysOf(key));
      derivatives = await writeDerivatives(storage, key, local);
    }
    const row = await db.transaction(async (tx) => {
      // Shared lock: a seller deleted meanwhile fails here with a clear 404 rather than a foreign key.
      const [seller] = await tx
        .select({ id: sellers.id })
        .from(sellers)
        .where(eq(sellers.id, sellerId))
        .for('share');
      if (!seller) throw sellerNotFound();
      const [inserted] = await tx
        .insert(productMedia)
        .values({
          sellerId,
          kind: isImage ? 'image' : 'video',
          fileName: file.fileName,
          mimeType: file.mimeType,
          size: file.size,
          width: size?.width ?? null,
          height: size?.height ?? null,
          storagePath: key,
          derivatives,
          uploadedBy: request.user.id,
        })
        .returning();
      return inserted as MediaRow;
    });
    return productMediaDto(row, await mediaSigner(db));
  } catch (error) {
    await removeMediaFiles(storage, stored);
    throw error;
  } finally {
    await rm(local, { force: true });
  }
}

const derivativeKeysOf = (key: string) => derivativeNames.map((name) => derivativePathOf(key, name));

const mediaNotFound = () =>
  new HttpError(404, 'There is no such media, or it is not yours.', 'MEDIA_NOT_FOUND');

/** The media, if the viewer may see it (a seller: their own seller's only; 404 otherwise, never 403). */
/** The media a verified signed link names (the link was minted for someone who may see it). */
export async function findLinkedMedia(db: Db, id: string): Promise<MediaRow> {
  const [row] = await db.select().from(productMedia).where(eq(productMedia.id, id));
  if (!row) throw mediaNotFound();
  return row;
}

export interface MediaFile {
  /** The storage key to serve. */
  key: string;
  mimeType: string;
  /** What was found: a derivative, or the original when the derivative is missing. */
  variant: MediaSize;
  /** The name the browser may save it under. */
  fileName: string;
}

/** Whether the key is a stored file of the media folder (a key of anything else is just absent). */
async function isStored(storage: FileStorage, key: string): Promise<boolean> {
  try {
    return await storage.exists(keyInFolder(MEDIA_FOLDER, key));
  } catch (error) {
    if (error instanceof InvalidStorageKeyError) return false;
    throw error;
  }
}

/**
 * The file to serve for `size`: the derivative when it exists, else the original (an image whose
 * derivatives are being made, or a video, which has none). 404 when even the original is gone, 503
 * when the store does not answer.
 */
export async function findMediaFile(
  storage: FileStorage,
  row: MediaRow,
  size: MediaSize,
): Promise<MediaFile> {
  const derivative = size === 'original' ? undefined : row.derivatives[size as DerivativeName];
  if (derivative && (await isStored(storage, derivative))) {
    const stem = path.parse(row.fileName).name || 'image';
    return { key: derivative, mimeType: DERIVATIVE_TYPE, variant: size, fileName: `${stem}-${size}.webp` };
  }
  if (!(await isStored(storage, row.storagePath))) throw mediaFileMissing();
  return { key: row.storagePath, mimeType: row.mimeType, variant: 'original', fileName: row.fileName };
}

export const mediaFileMissing = () =>
  new HttpError(404, 'The file of this media is missing.', 'FILE_NOT_FOUND');

/**
 * Removes uploads no product claimed within `olderThanMs` (rows and files), at most `batchSize` ×
 * `maxBatches` per call so a sweep never runs long. Several instances may sweep at once: each row is
 * taken by one of them (SKIP LOCKED) and a row a product is claiming right now is left alone.
 */
export async function sweepUnclaimedMedia(
  db: Db,
  storage: FileStorage,
  options: { olderThanMs?: number; batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const { olderThanMs = UNCLAIMED_MEDIA_TTL_MS, batchSize = 200, maxBatches = 10 } = options;
  const unclaimed = and(
    isNull(productMedia.productId),
    lt(productMedia.createdAt, sql`now() - ${olderThanMs} * interval '1 millisecond'`),
  );
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const due = db
      .select({ id: productMedia.id })
      .from(productMedia)
      .where(unclaimed)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const rows = await db
      .delete(productMedia)
      .where(and(inArray(productMedia.id, due), unclaimed))
      .returning({ storagePath: productMedia.storagePath, derivatives: productMedia.derivatives });
    // Rows first, then files: a crash in between leaves an orphan file, never a row without its file.
    await removeMediaFiles(
      storage,
      rows.flatMap((row) => [row.storagePath, ...Object.values(row.derivatives)]),
    );
    removed += rows.length;
    if (rows.length < batchSize) break;
  }
  return removed;
}

export const MEDIA_SWEEP_INTERVAL_MS = 3600 * 1000;

/**
 * The periodic sweep of unclaimed uploads (like the video calls' sweep): once when the server is up,
 * then every hour, on every instance; `close` waits for a sweep in progress before the database closes.
 */
export function createMediaSweeper(options: {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): PeriodicSweep {
  return createPeriodicSweep({
    name: 'the product media sweep',
    everyMs: options.intervalMs ?? MEDIA_SWEEP_INTERVAL_MS,
    runAtStart: true,
    log: options.log,
    run: async () => {
      const removed = await sweepUnclaimedMedia(options.db, options.storage);
      if (removed) options.log.info({ removed }, 'removed unclaimed product media');
    },
  });
}
