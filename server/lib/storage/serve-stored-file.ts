// The one download path for stored files: streamed from the storage with its type, size, validator
// (If-None-Match → 304), one byte range (206, or 416 outside the file) and a Content-Disposition that
// is safe whatever the file was named; or, with S3_PRESIGNED_DOWNLOADS, a 302 to a short-lived link
// the store serves itself (the app checks the permission, the store carries the bytes).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition, etagMatches, requestedRange } from '../file-responses';
import { HttpError } from '../http-error';
import type { FileStorage } from './types';

/** A presigned link is good for this long: enough to start the download, too short to pass around. */
export const PRESIGNED_LINK_SECONDS = 5 * 60;

export interface ServedFile {
  key: string;
  contentType: string;
  fileName: string;
  disposition: 'inline' | 'attachment';
  /** e.g. `private, no-store` for papers, `public, max-age=…, immutable` for logos. */
  cacheControl: string;
  /** What to answer when the object is not there (each feature words its own 404). */
  notFound: () => HttpError;
}

export async function serveStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  file: ServedFile,
  options: { presigned?: boolean } = {},
): Promise<FastifyReply> {
  // Looked up first even for a presigned link: a missing file answers 404 here, an outage 503.
  const info = await storage.stat(file.key);
  if (!info) throw file.notFound();
  if (options.presigned) {
    const link = await storage.signedReadLink(file.key, {
      expiresInSeconds: PRESIGNED_LINK_SECONDS,
      fileName: file.fileName,
      disposition: file.disposition,
      contentType: file.contentType,
    });
    // The link itself must not be cached past its expiry.
    if (link) return reply.header('cache-control', 'private, no-store').redirect(link, 302);
  }
  const range = requestedRange(request.headers, info.size, info.etag);
  const notModified = etagMatches(request.headers['if-none-match'], info.etag);
  if (range === 'unsatisfiable' && !notModified) {
    reply.header('content-range', `bytes */${info.size}`);
    throw new HttpError(416, 'The requested range is not in the file.', 'RANGE_NOT_SATISFIABLE');
  }
  const { start, end } = range && range !== 'unsatisfiable' ? range : { start: 0, end: info.size - 1 };
  const headersOnly = notModified || request.method === 'HEAD' || info.size === 0;
  // Opened before any header is set: a store that fails here answers a clean 503 `{ message }`.
  const object = headersOnly ? null : await storage.get(file.key, range ? { start, end } : undefined);
  if (!headersOnly && !object) throw file.notFound();
  reply
    .header('etag', info.etag)
    .header('accept-ranges', 'bytes')
    .header('cache-control', file.cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(file.disposition, file.fileName));
  if (notModified) return reply.code(304).send();
  reply.header('content-type', file.contentType).header('content-length', end - start + 1);
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${info.size}`);
  return reply.send(object?.body);
}
