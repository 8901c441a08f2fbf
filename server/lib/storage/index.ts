// The file storage the app uses (app.storage): S3 when S3_BUCKET is set, else the data directory. The S3
// driver (the AWS SDK: about 25 MB resident) is imported only when S3_BUCKET asks for it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { redactedUrl } from '../redacted-url';
import { DiskStorage } from './disk-storage';
import type { S3Storage } from './s3-storage';
import type { FileStorage } from './types';

export { InvalidStorageKeyError, StorageConflictError, StorageUnavailableError } from './errors';
export { checkedKey, keyInFolder } from './keys';
export type { FileStorage, StoredObject, StoredObjectInfo } from './types';
export type { S3Storage };
export { DiskStorage };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every file the product writes or serves (server/lib/storage). */
    storage: FileStorage;
    /** S3_PRESIGNED_DOWNLOADS: downloads answer with a 302 to a presigned link (serveStoredFile). */
    presignedDownloads: boolean;
  }
}

export type StorageConfig = Pick<
  Config,
  | 'dataDir'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PRESIGNED_DOWNLOADS'
>;

/** The driver the configuration asks for (loadConfig has already refused a partial S3 set). */
export async function createFileStorage(config: StorageConfig): Promise<FileStorage> {
  if (!config.S3_BUCKET) return new DiskStorage(config.dataDir);
  const { S3Storage } = await import('./s3-storage');
  return new S3Storage({
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION ?? 'us-east-1',
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}

/**
 * Fails the start with a clear message when the S3 bucket does not answer: an instance that cannot
 * store files must not come up and fail every upload.
 */
export async function checkFileStorage(storage: FileStorage, config: StorageConfig): Promise<void> {
  if (!isS3(storage)) return;
  try {
    await storage.checkBucket();
  } catch (error) {
    const where = config.S3_ENDPOINT ? ` at ${redactedUrl(config.S3_ENDPOINT)}` : '';
    const reason = (error as { name?: string; message?: string }).name ?? String(error);
    throw new Error(
      `S3 file storage: the bucket "${storage.bucket}"${where} does not answer (${reason}). Check S3_ENDPOINT, S3_BUCKET, S3_REGION and the credentials, or unset S3_BUCKET to keep files under DATA_DIR.`,
    );
  }
}

function isS3(storage: FileStorage): storage is S3Storage {
  return storage.driver === 's3';
}

/** Closes the S3 driver's connections (the disk driver holds none). */
export function closeFileStorage(storage: FileStorage): void {
  if (isS3(storage)) storage.client.destroy();
}

/** Decorates `app.storage` (given, or made from the configuration) after checking it answers. */
export const storagePlugin = fp(
  async (app: FastifyInstance, options: { config: StorageConfig; storage?: FileStorage }) => {
    const storage = options.storage ?? (await createFileStorage(options.config));
    await checkFileStorage(storage, options.config);
    app.decorate('storage', storage);
    app.decorate('presignedDownloads', options.config.S3_PRESIGNED_DOWNLOADS && storage.driver === 's3');
    // A storage handed in belongs to its giver (tests share one across apps); one made here is closed here.
    if (!options.storage) app.addHook('onClose', async () => closeFileStorage(storage));
  },
  { name: 'storage' },
);
