// The S3 driver: one bucket that every instance shares, reached through the AWS SDK with any
// S3-compatible endpoint. Timeouts are short so a store that is down answers 503 in seconds instead of
// holding the request; anything but "no such object" from the store is StorageUnavailableError.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition } from '../file-responses';
import { StorageConflictError, StorageUnavailableError } from './errors';
import { checkedKey, checkedPrefix } from './keys';
import type { FileStorage, PutOptions, SignedLinkOptions, StoredObject, StoredObjectInfo } from './types';

export interface S3StorageOptions {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** How long to wait for a connection, and for each answer (ms). */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** Multipart part size (S3's minimum): memory per upload is about this times the queue size. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

type SdkError = { name?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (error: unknown) => (error as SdkError | null)?.$metadata?.httpStatusCode;
const isAbsent = (error: unknown) => {
  const name = (error as SdkError | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
};
const isConflict = (error: unknown) =>
  statusOf(error) === 412 || (error as SdkError | null)?.name === 'PreconditionFailed';

export class S3Storage implements FileStorage {
  readonly driver = 's3' as const;
  readonly bucket: string;
  readonly client: S3Client;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Checksums only where S3 demands them: several S3-compatible stores reject the SDK's default
      // CRC32 headers, and TLS already guards the bytes in transit.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // One retry: a store that is down must fail the request in seconds, not after a backoff series.
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: options.connectionTimeoutMs ?? 2000,
        requestTimeout: options.requestTimeoutMs ?? 10_000,
      },
    });
  }

  /** Whether the bucket answers (HeadBucket): the start checks it and stops with a clear message. */
  async checkBucket(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ size: number }> {
    checkedKey(key);
    // The body's own failure (an upload cut short) is the caller's to see, not a store outage.
    let sourceError: unknown = null;
    let size = 0;
    let payload: Buffer | Readable;
    if (Buffer.isBuffer(body)) {
      payload = body;
      size = body.length;
    } else {
      body.once('error', (error) => {
        sourceError = error;
      });
      payload = body.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done(null, chunk);
          },
        }),
      );
      body.once('error', (error) => (payload as Readable).destroy(error));
    }
    try {
      // s3rver ignores If-None-Match on writes: the HEAD check refuses a taken key there, and a real
      // S3 enforces IfNoneMatch atomically at the write itself (412 → StorageConflictError).
      if (options.ifAbsent && (await this.stat(key))) throw new StorageConflictError(key);
      const upload = new Upload({
        client: this.client,
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        params: {
          Bucket: this.bucket,
          Key: key,
          Body: payload,
          ContentType: options.contentType,
          ...(options.ifAbsent ? { IfNoneMatch: '*' } : {}),
        },
      });
      await upload.done();
      return { size };
    } catch (error) {
      if (!Buffer.isBuffer(payload)) payload.destroy();
      if (sourceError) throw sourceError;
      if (error instanceof StorageConflictError || error instanceof StorageUnavailableError) throw error;
      if (isConflict(error)) throw new StorageConflictError(key);
      throw new StorageUnavailableError(error);
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<StoredObject | null> {
    checkedKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const body = answer.Body as Readable;
      // With a range, the whole object's size is after the slash of Content-Range.
      const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : answer.ContentLength;
      return {
        size: total ?? 0,
        modified: answer.LastModified ?? new Date(0),
        etag: answer.ETag ?? `"${key}"`,
        ...(answer.ContentType ? { contentType: answer.ContentType } : {}),
        body,
        ...(range ? { range } : {}),
      };
    } catch (error) {
      if (isAbsent(error)) return null;
      throw new StorageUnavailableError(error);
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    checkedKey(key);
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: answer.ContentLength ?? 0,
        modified: answer.LastModified ?? new Date(0),
        etag: answer.ETag ?? `"${key}"`,
        ...(answer.ContentType ? { contentType: answer.ContentType } : {}),
      };
    } catch (error) {
      if (isAbsent(error)) return null;
      throw new StorageUnavailableError(error);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    checkedKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isAbsent(error)) return;
      throw new StorageUnavailableError(error);
    }
  }

  /** A presigned GET: signing is local (no request), so it works even while the store is down. */
  async signedReadLink(key: string, options: SignedLinkOptions): Promise<string | null> {
    checkedKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ...(options.fileName
        ? {
            ResponseContentDisposition: contentDisposition(
              options.disposition ?? 'attachment',
              options.fileName,
            ),
          }
        : {}),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async localCopy(key: string): Promise<{ path: string; release: () => Promise<void> } | null> {
    const object = await this.get(key);
    if (!object) return null;
    // The key's extension stays: some readers choose a parser by it.
    const file = path.join(tmpdir(), `mp-storage-${randomUUID()}${path.posix.extname(key)}`);
    const release = () => rm(file, { force: true });
    try {
      await pipeline(object.body, createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      await release();
      throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error);
    }
    return { path: file, release };
  }

  async *list(prefix: string): AsyncIterable<string> {
    checkedPrefix(prefix);
    try {
      for await (const page of paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, ...(prefix ? { Prefix: prefix } : {}) },
      )) {
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      }
    } catch (error) {
      throw new StorageUnavailableError(error);
    }
  }
}
