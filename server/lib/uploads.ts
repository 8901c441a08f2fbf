// Uploaded files: read one multipart file within a size limit, decide its type from its first bytes
// (never from the name or the declared type, which the client controls), and store it in the file
// storage (server/lib/storage: DATA_DIR or S3). Shared by every feature that takes files (seller logos
// and documents, product media, sheets).
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error';
import { DiskStorage } from './storage/disk-storage';
import type { FileStorage } from './storage/types';

export type SniffedType =
  | 'application/pdf'
  | 'image/jpeg'
  | 'image/png'
  | 'image/webp'
  | 'video/mp4'
  | 'video/webm';

export const extensionOf: Record<SniffedType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};

const typeNames: Record<SniffedType, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'video/mp4': 'MP4',
  'video/webm': 'WebM',
};

/** Enough of a file's start to recognise every type above (WebM names its DocType in its first bytes). */
const SNIFF_BYTES = 64;

/**
 * The major brands of the ISO base media files that are MP4 video. The `ftyp` box alone is not enough:
 * HEIC/AVIF photos, QuickTime movies and M4A audio carry one too.
 */
const mp4Brands = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'M4V ',
  'M4VH',
  'M4VP',
  'MSNV',
  'dash',
  'f4v ',
]);

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, Math.min(to, bytes.length))).toString('latin1');

/** The file's real type from its magic bytes, or null when it is none of the types the product keeps. */
export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  // ....ftyp<major brand>: the first box of an ISO base media file.
  if (
    startsWith(bytes, [0x66, 0x74, 0x79, 0x70], 4) &&
    bytes.length >= 12 &&
    mp4Brands.has(ascii(bytes, 8, 12))
  )
    return 'video/mp4';
  // An EBML header whose DocType is "webm" (Matroska shares the magic but is not WebM).
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]) && ascii(bytes, 4, SNIFF_BYTES).includes('webm'))
    return 'video/webm';
  return null;
}

/** A name safe to show and to put in Content-Disposition: no path, no control characters, bounded. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = path.basename((name ?? '').replaceAll('\\', '/'));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (cleaned || fallback).slice(0, 200);
}

/** Other spellings of a type's extension that a name may keep (a photo.jpeg stays photo.jpeg). */
const otherExtensions: Partial<Record<SniffedType, string[]>> = { 'image/jpeg': ['jpeg', 'jpe'] };

/**
 * The uploaded name, cleaned, with the extension of the type its content was found to be: a PNG named
 * `page.html` (a PNG+HTML polyglot) is kept and downloaded as `page.png`, never as something a browser
 * or a desktop would open as a page or a program.
 */
export function typedFileName(name: string | undefined, mimeType: SniffedType): string {
  const extension = extensionOf[mimeType];
  const cleaned = cleanFileName(name, `file.${extension}`);
  const dot = cleaned.lastIndexOf('.');
  const stem = dot > 0 ? cleaned.slice(0, dot) : cleaned;
  const current = dot > 0 ? cleaned.slice(dot + 1).toLowerCase() : '';
  if (current === extension || otherExtensions[mimeType]?.includes(current)) return cleaned;
  return `${stem.slice(0, 200 - extension.length - 1)}.${extension}`;
}

export interface UploadLimits {
  /** The most any accepted file may weigh (the multipart parser stops reading there). */
  maxBytes: number;
  accepted: readonly SniffedType[];
  /** Tighter limits for some types, e.g. images smaller than videos. */
  maxBytesOf?: Partial<Record<SniffedType, number>>;
}

export interface UploadedFile {
  bytes: Buffer;
  mimeType: SniffedType;
  fileName: string;
  /** The form's text fields sent before the file (browsers send FormData in append order). */
  fields: Record<string, string>;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
const tooLarge = (maxBytes: number) =>
  new HttpError(413, `The file is larger than ${megabytes(maxBytes)}.`, 'FILE_TOO_LARGE');

/** The request's one file part (not yet read): 415 when the request is not multipart, 400 when no file. */
async function openFilePart(request: FastifyRequest, maxBytes: number): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'Send the file as multipart/form-data.', 'UNSUPPORTED_MEDIA_TYPE');
  }
  let part: MultipartFile | undefined;
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  if (!part) throw new HttpError(400, 'Choose a file to upload.', 'FILE_MISSING');
  return part;
}

/** What a failure while reading the form means for the user. */
function uploadError(error: unknown, maxBytes: number): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
    return new HttpError(413, 'Send one file at a time.', 'TOO_MANY_FILES');
  // Anything else here is the form itself: no boundary, a malformed part header, a body cut short.
  return new HttpError(
    400,
    'The upload is not a well-formed multipart form. Choose the file again and retry.',
    'MALFORMED_UPLOAD',
  );
}

/** The form's text fields sent before the file part. */
export function textFieldsOf(part: MultipartFile): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first?.type === 'field' && typeof first.value === 'string') fields[name] = first.value;
  }
  return fields;
}

/** The type of a file from its first bytes and its size: 415 or 413 when it is not acceptable. */
function checkedType(head: Uint8Array, size: number, limits: UploadLimits): SniffedType {
  if (size === 0) throw new HttpError(400, 'The file is empty.', 'FILE_EMPTY');
  if (size > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const mimeType = sniffFileType(head);
  if (!mimeType || !limits.accepted.includes(mimeType)) {
    const names = limits.accepted.map((type) => typeNames[type]);
    throw new HttpError(
      415,
      `Only ${names.slice(0, -1).join(', ')} or ${names.at(-1)} files are accepted.`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  const typeLimit = limits.maxBytesOf?.[mimeType];
  if (typeLimit !== undefined && size > typeLimit) throw tooLarge(typeLimit);
  return mimeType;
}

/**
 * The one file of a multipart request, read into memory (the limits keep that small): 415 when the
 * request is not multipart or the content is not an accepted type, 413 when it is too large, 400 when
 * there is no file.
 */
export async function readUploadedFile(request: FastifyRequest, limits: UploadLimits): Promise<UploadedFile> {
  const part = await openFilePart(request, limits.maxBytes);
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (error) {
    throw uploadError(error, limits.maxBytes);
  }
  const mimeType = checkedType(bytes, bytes.length, limits);
  return {
    bytes,
    mimeType,
    fileName: typedFileName(part.filename, mimeType),
    fields: textFieldsOf(part),
  };
}

export interface ReceivedFile {
  /** Relative to the data dir (what the database keeps): `<folder>/<uuid>.<extension>`. */
  relativePath: string;
  /** The stored file's own name, `<uuid>.<extension>`. */
  name: string;
  mimeType: SniffedType;
  fileName: string;
  size: number;
  /** The form's text fields sent before the file. */
  fields: Record<string, string>;
}

/** The request's one file part streamed to a temporary file, not yet checked nor named. */
export interface StreamedFilePart {
  part: MultipartFile;
  /** `<directory>/.<uuid>.part`: the caller renames it once accepted, or removes it. */
  temporary: string;
  size: number;
}

/**
 * Streams the request's one file part into a temporary file in `directory`, handing every chunk to
 * `onChunk` on its way (to sniff or hash it without reading the file again): 415 when the request is
 * not multipart, 400 when there is no file, 413 past `maxBytes`. When it throws, nothing is left
 * behind; when it returns, the caller owns the temporary file.
 */
export async function streamFilePart(
  request: FastifyRequest,
  directory: string,
  maxBytes: number,
  onChunk: (chunk: Buffer) => void = () => {},
): Promise<StreamedFilePart> {
  const part = await openFilePart(request, maxBytes);
  await mkdir(directory, { recursive: true });
  const temporary = path.join(directory, `.${randomUUID()}.part`);
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      onChunk(chunk);
      done(null, chunk);
    },
  });
  try {
    try {
      await pipeline(part.file, meter, createWriteStream(temporary, { flags: 'wx' }));
    } catch (error) {
      throw uploadError(error, maxBytes);
    }
    // The parser stops at the limit and ends the stream short rather than failing it.
    if (part.file.truncated) throw tooLarge(maxBytes);
    return { part, temporary, size };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Like readUploadedFile, but streams the file to `<dataDir>/<folder>` instead of holding it in memory
 * (for large files such as videos). It is written under a temporary name and gets its real one, with
 * the extension of its checked type, only once it is complete and accepted; a refused or broken upload
 * leaves nothing behind.
 */
export async function receiveUploadedFile(
  request: FastifyRequest,
  target: { dataDir: string; folder: string },
  limits: UploadLimits,
): Promise<ReceivedFile> {
  let head = Buffer.alloc(0);
  const { part, temporary, size } = await streamFilePart(
    request,
    path.join(target.dataDir, target.folder),
    limits.maxBytes,
    (chunk) => {
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    },
  );
  try {
    const mimeType = checkedType(head, size, limits);
    const name = `${randomUUID()}.${extensionOf[mimeType]}`;
    const relativePath = path.posix.join(target.folder, name);
    await rename(temporary, path.join(target.dataDir, relativePath));
    return {
      relativePath,
      name,
      mimeType,
      fileName: typedFileName(part.filename, mimeType),
      size,
      fields: textFieldsOf(part),
    };
  } finally {
    await rm(temporary, { force: true });
  }
}

/** The storage itself, or (for callers not moved yet) the disk storage of a data directory. */
const storageOf = (target: FileStorage | string): FileStorage =>
  typeof target === 'string' ? new DiskStorage(target) : target;

/**
 * Puts `bytes` into the storage under `<folder>/<random><suffix>` (never replacing an object) and
 * returns the key, which is what the database keeps. A store that is down throws
 * StorageUnavailableError (503) before the caller has written anything. A data directory in place of
 * the storage means the disk under it (what the callers that still pass DATA_DIR get).
 */
export async function storeFile(
  target: FileStorage | string,
  folder: string,
  bytes: Buffer,
  suffix = '',
  contentType?: string,
): Promise<{ relativePath: string; name: string }> {
  const name = `${randomUUID()}${suffix}`;
  const relativePath = path.posix.join(folder, name);
  await storageOf(target).put(relativePath, bytes, { ifAbsent: true, contentType });
  return { relativePath, name };
}

/**
 * Runs `record` (the database write) after the file is stored, and removes the file when the write
 * fails: a failed upload leaves neither a row nor an orphan file.
 */
export async function withStoredFile<T>(
  target: FileStorage | string,
  stored: { relativePath: string },
  record: () => Promise<T>,
): Promise<T> {
  try {
    return await record();
  } catch (error) {
    // The row's failure is the answer; a store that is down meanwhile leaves an orphan, not a 503.
    await storageOf(target)
      .delete(stored.relativePath)
      .catch(() => {});
    throw error;
  }
}

/**
 * The absolute path of a file under DATA_DIR, refusing anything that would leave `<dataDir>/<folder>`.
 * Only for local files (scratch space, the disk driver); stored files are read through the storage.
 */
export function storedFilePath(dataDir: string, folder: string, relativePath: string): string {
  const root = path.resolve(dataDir, folder);
  const full = path.resolve(dataDir, relativePath);
  if (!full.startsWith(`${root}${path.sep}`)) throw new HttpError(404, 'File not found', 'FILE_NOT_FOUND');
  return full;
}
