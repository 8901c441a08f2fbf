// receiveSheetUpload: a sheet sent as a multipart form, streamed to the data dir and kept only when
// its content is a CSV or XLSX sheet.
import { createHash, randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { cleanFileName, streamFilePart, textFieldsOf } from '../uploads';
import { SHEET_LIMITS, SheetError, type SheetFormat } from './errors';
import { sheetHttpError } from './http';
import { detectSheetFormat } from './in-worker';

export interface ReceivedSheet {
  /** Relative to the data dir (what the database keeps): `<folder>/<uuid>.<csv|xlsx>`. */
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
}

/**
 * Receives the request's one file into `<dataDir>/<folder>` under a temporary name, checking the size
 * limit as it streams (413 FILE_TOO_LARGE), then decides the format from the content (in a sheet
 * worker, counted against the user's reads: 429/503 when busy): 415 UNSUPPORTED_MEDIA_TYPE with the
 * reason when it is not a sheet, 400 FILE_EMPTY when empty. Only an
 * accepted file gets its real name; a refused or broken upload leaves no file.
 */
export async function receiveSheetUpload(
  request: FastifyRequest,
  target: { dataDir: string; folder: string },
  options: { maxBytes?: number } = {},
): Promise<ReceivedSheet> {
  const hash = createHash('sha256');
  const { part, temporary, size } = await streamFilePart(
    request,
    path.join(target.dataDir, target.folder),
    options.maxBytes ?? SHEET_LIMITS.maxBytes,
    (chunk) => hash.update(chunk),
  );
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
    await rename(temporary, path.join(target.dataDir, relativePath));
    return {
      relativePath,
      name,
      format,
      fileName: cleanFileName(part.filename, `sheet.${format}`),
      size,
      sha256: hash.digest('hex'),
      fields: textFieldsOf(part),
    };
  } finally {
    await rm(temporary, { force: true });
  }
}
