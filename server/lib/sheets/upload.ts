// receiveSheetUpload: a sheet sent as a multipart form, streamed to local scratch space and put into
// the file storage only when its content is a CSV or XLSX sheet.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { scratchDir } from '../scratch';
import type { FileStorage } from '../storage/types';
import { cleanFileName, streamFilePart, textFieldsOf } from '../uploads';
import { SHEET_LIMITS, SheetError, type SheetFormat } from './errors';
import { sheetHttpError } from './http';
import { detectSheetFormat } from './in-worker';

export interface ReceivedSheet {
  /** The storage key (what the database keeps): `<folder>/<uuid>.<csv|xlsx>`. */
  relativePath: string;
  /** The stored file's own name, `<uuid>.<csv|xlsx>`. */
  name: string;
  format: SheetFormat;
  /** The name the user's file had, cleaned for display (see cleanFileName). */
  fileName: string;
  size: number;
  /** Hex SHA-256 of the content, computed while it streamed in (to spot the same file sent twice). */
  sha256: string;
  /** The form's text fields sent before the file. */
  fields: Record<string, string>;
  /** A local copy the sheet readers can open by path until `release` (which the caller must call). */
  localPath: string;
  release: () => Promise<void>;
}

export const sheetContentTypes = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const satisfies Record<SheetFormat, string>;

/**
 * Receives the request's one file into local scratch space under a temporary name, checking the size
 * limit as it streams (413 FILE_TOO_LARGE), then decides the format from the content (in a sheet
 * worker, counted against the user's reads: 429/503 when busy): 415 UNSUPPORTED_MEDIA_TYPE with the
 * reason when it is not a sheet, 400 FILE_EMPTY when empty. Only an accepted file is put into the
 * storage under `<folder>/<uuid>.<format>` (503 when the store is down); a refused or broken upload
 * leaves nothing. The caller writes its row after this, deletes the key when that fails, and releases
 * the local copy in any case.
 */
export async function receiveSheetUpload(
  request: FastifyRequest,
  target: { storage: FileStorage; dataDir: string; folder: string },
  options: { maxBytes?: number } = {},
): Promise<ReceivedSheet> {
  const hash = createHash('sha256');
  const { part, temporary, size } = await streamFilePart(
    request,
    scratchDir(target.dataDir),
    options.maxBytes ?? SHEET_LIMITS.maxBytes,
    (chunk) => hash.update(chunk),
  );
  const release = () => rm(temporary, { force: true });
  try {
    let format: SheetFormat;
    try {
      format = await detectSheetFormat(temporary, { user: request.user?.id ?? request.ip });
    } catch (error) {
      if (!(error instanceof SheetError)) throw error;
      if (error.code === 'EMPTY_FILE') throw new HttpError(400, 'The file is empty.', 'FILE_EMPTY');
      if (error.code === 'NOT_A_SHEET') throw new HttpError(415, error.message, 'UNSUPPORTED_MEDIA_TYPE');
      throw sheetHttpError(error);
    }
    const name = `${randomUUID()}.${format}`;
    const relativePath = path.posix.join(target.folder, name);
    await target.storage.put(relativePath, createReadStream(temporary), {
      contentType: sheetContentTypes[format],
    });
    return {
      relativePath,
      name,
      format,
      fileName: cleanFileName(part.filename, `sheet.${format}`),
      size,
      sha256: hash.digest('hex'),
      fields: textFieldsOf(part),
      localPath: temporary,
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Runs `record` (the database write) after the sheet is stored, and removes the stored sheet when the
 * write fails: a failed upload leaves neither a row nor an orphan file. The local copy is released
 * either way.
 */
export async function withReceivedSheet<T>(
  storage: FileStorage,
  file: ReceivedSheet,
  record: () => Promise<T>,
): Promise<T> {
  try {
    return await record();
  } catch (error) {
    await storage.delete(file.relativePath).catch(() => undefined);
    throw error;
  } finally {
    await file.release();
  }
}
