// One file storage for every file the product writes or serves (product media and their derivatives,
// seller logos and documents, import sheets, error sheets, request files, exports, lead imports, and the
// coming modules' avatars, logos and PDFs). Two drivers: the local data directory (the default, one
// machine) and any S3-compatible store (several instances share it). Keys are the relative paths the
// database already keeps (`uploads/product-media/<uuid>.jpg`, `files/exports/<task>.csv`): the disk
// driver resolves them under DATA_DIR, the S3 driver uses them as object keys, so moving to S3 needs no
// data migration beyond copying the files (`npm run storage:migrate`).
import type { Readable } from 'node:stream';

export type StorageDriverName = 'disk' | 's3';

export interface StoredObjectInfo {
  size: number;
  /** When the object was last written. */
  modified: Date;
  /** A validator that changes whenever the content does (quoted, as in an ETag header). */
  etag: string;
  /** The type it was stored with, when the driver keeps one (S3 does; the disk driver does not). */
  contentType?: string;
}

export interface StoredObject extends StoredObjectInfo {
  /** The bytes asked for: the whole object, or just the range. Consume or destroy it. */
  body: Readable;
  /** The inclusive byte range the body holds, when a range was asked for. */
  range?: { start: number; end: number };
}

export interface PutOptions {
  contentType?: string;
  /** Fail (StorageConflictError) instead of replacing an object that exists. */
  ifAbsent?: boolean;
}

export interface SignedLinkOptions {
  /** Seconds the link stays valid. */
  expiresInSeconds: number;
  /** Sets the download's Content-Disposition (inline or attachment) with this name. */
  fileName?: string;
  disposition?: 'inline' | 'attachment';
  contentType?: string;
}

export interface FileStorage {
  readonly driver: StorageDriverName;
  /** Writes the object, streamed (multipart for large bodies on S3). Returns the bytes written. */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<{ size: number }>;
  /** The object's bytes (or one range of them), or null when there is no such object. */
  get(key: string, range?: { start: number; end: number }): Promise<StoredObject | null>;
  /** Its size, date and validator without its bytes, or null when absent. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing an absent one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A time-limited link the browser can read the object from directly, or null when the driver
   * serves nothing itself (disk): the caller then streams the object through the app.
   */
  signedReadLink(key: string, options: SignedLinkOptions): Promise<string | null>;
  /**
   * A local file holding the object, for the libraries that only read paths (sharp, the sheet
   * parsers' workers). On disk that is the file itself; on S3 a temporary copy that `release` deletes.
   */
  localCopy(key: string): Promise<{ path: string; release: () => Promise<void> } | null>;
  /** Every key under a prefix (for the migration and the sweepers), in pages. */
  list(prefix: string): AsyncIterable<string>;
}
