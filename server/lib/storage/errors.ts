import { HttpError } from '../http-error';

/**
 * The store did not answer (S3 down, a network failure, a full disk): the API answers 503 and the
 * caller writes nothing to the database, so no row points at a file that was never stored.
 */
export class StorageUnavailableError extends HttpError {
  constructor(readonly reason?: unknown) {
    super(503, 'File storage is unavailable. Try again in a moment.', 'STORAGE_UNAVAILABLE');
    this.name = 'StorageUnavailableError';
  }
}

/** A key that would leave the store's root, or is not a plain relative path: treated as not found. */
export class InvalidStorageKeyError extends HttpError {
  constructor() {
    super(404, 'File not found', 'FILE_NOT_FOUND');
    this.name = 'InvalidStorageKeyError';
  }
}

/** `put` with `ifAbsent` found the key taken. */
export class StorageConflictError extends Error {
  constructor(readonly key: string) {
    super(`A stored file already has the key ${key}`);
    this.name = 'StorageConflictError';
  }
}
