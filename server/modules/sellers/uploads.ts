// Uploaded files: read one multipart file within a size limit, decide its type from its first bytes
// (never from the name or the declared type, which the client controls), and store it under DATA_DIR.
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error';

export type SniffedType = 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp';

export const extensionOf: Record<SniffedType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

const typeNames: Record<SniffedType, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
};

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

/** The file's real type from its magic bytes, or null when it is none of the types the product keeps. */
export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return null;
}

/** A name safe to show and to put in Content-Disposition: no path, no control characters, bounded. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = path.basename((name ?? '').replaceAll('\\', '/'));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (cleaned || fallback).slice(0, 200);
}

export interface UploadedFile {
  bytes: Buffer;
  mimeType: SniffedType;
  fileName: string;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The one file of a multipart request, read into memory (the limits keep that small): 415 when the
 * request is not multipart or the content is not an accepted type, 413 when it is too large, 400 when
 * there is no file.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  options: { maxBytes: number; accepted: readonly SniffedType[] },
): Promise<UploadedFile> {
  const { maxBytes, accepted } = options;
  const tooLarge = () =>
    new HttpError(413, `The file is larger than ${megabytes(maxBytes)}.`, 'FILE_TOO_LARGE');
  if (!request.isMultipart()) {
    throw new HttpError(415, 'Send the file as multipart/form-data.', 'UNSUPPORTED_MEDIA_TYPE');
  }
  let bytes: Buffer;
  let declaredName: string | undefined;
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
    if (!part) throw new HttpError(400, 'Choose a file to upload.', 'FILE_MISSING');
    declaredName = part.filename;
    bytes = await part.toBuffer();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new HttpError(413, 'Send one file at a time.', 'TOO_MANY_FILES');
    // Anything else here is the form itself: no boundary, a malformed part header, a body cut short.
    throw new HttpError(
      400,
      'The upload is not a well-formed multipart form. Choose the file again and retry.',
      'MALFORMED_UPLOAD',
    );
  }
  if (bytes.length === 0) throw new HttpError(400, 'The file is empty.', 'FILE_EMPTY');
  if (bytes.length > maxBytes) throw tooLarge();
  const mimeType = sniffFileType(bytes);
  if (!mimeType || !accepted.includes(mimeType)) {
    const names = accepted.map((type) => typeNames[type]);
    throw new HttpError(
      415,
      `Only ${names.slice(0, -1).join(', ')} or ${names.at(-1)} files are accepted.`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  return { bytes, mimeType, fileName: cleanFileName(declaredName, `file.${extensionOf[mimeType]}`) };
}

/**
 * Writes `bytes` under `<dataDir>/<folder>/<random><suffix>` (never overwriting) and returns the path
 * relative to the data dir, which is what the database keeps.
 */
export async function storeFile(
  dataDir: string,
  folder: string,
  bytes: Buffer,
  suffix = '',
): Promise<{ relativePath: string; name: string }> {
  const name = `${randomUUID()}${suffix}`;
  await mkdir(path.join(dataDir, folder), { recursive: true });
  const relativePath = path.posix.join(folder, name);
  await writeFile(path.join(dataDir, relativePath), bytes, { flag: 'wx' });
  return { relativePath, name };
}

/**
 * Runs `record` (the database write) after the file is stored, and removes the file when the write
 * fails: a failed upload leaves neither a row nor an orphan file.
 */
export async function withStoredFile<T>(
  dataDir: string,
  stored: { relativePath: string },
  record: () => Promise<T>,
): Promise<T> {
  try {
    return await record();
  } catch (error) {
    await rm(path.join(dataDir, stored.relativePath), { force: true });
    throw error;
  }
}

/** The absolute path of a stored file, refusing anything that would leave `<dataDir>/<folder>`. */
export function storedFilePath(dataDir: string, folder: string, relativePath: string): string {
  const root = path.resolve(dataDir, folder);
  const full = path.resolve(dataDir, relativePath);
  if (!full.startsWith(`${root}${path.sep}`)) throw new HttpError(404, 'File not found', 'FILE_NOT_FOUND');
  return full;
}
