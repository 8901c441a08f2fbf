// Import requests (listImportRequests, addImportProductsApi, getRequestUpdateHistory): a seller who
// cannot prepare a sheet sends the file they have, or a product feed URL, and staff import it for them
// through the same steps (upload or fetch → mapping → report → moves). The seller follows the request's
// status and history. A feed is fetched by the server only through safe-fetch (http(s), public
// addresses only, pinned connection, size and time limits).
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isValidUrl } from '../../../contracts/domain/validators';
import {
  FEED_LIMITS,
  type ImportRequest,
  type RequestStatus,
  requestStatusLabels,
} from '../../../contracts/imports';
import type { Db, Tx } from '../../db/client';
import { catalogImports, importRequests, sellers } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { FeedFetchError, fetchToFile } from '../../lib/safe-fetch';
import { scratchDir } from '../../lib/scratch';
import {
  detectSheetFormat,
  receiveSheetUpload,
  SheetError,
  sheetContentTypes,
  sheetHttpError,
  withReceivedSheet,
} from '../../lib/sheets';
import { keyInFolder } from '../../lib/storage/keys';
import { fileNameOfUrl } from '../../lib/url-file-name';
import { type Viewer, viewerOf } from '../products/products';
import { actorOf } from '../users/actor';
import { createImport, IMPORT_FOLDER, targetSeller } from './batch-actions';

const REQUEST_FOLDER = 'uploads/import-requests';

type RequestRow = typeof importRequests.$inferSelect;

export const requestNotFound = () =>
  new HttpError(404, 'There is no such import request, or it is not yours.', 'REQUEST_NOT_FOUND');

const staffOnly = (viewer: Viewer) => {
  // Not a page permission (sellers have `import` too) but a role: its own code, not FORBIDDEN.
  if (viewer.sellerId) throw new HttpError(403, 'Only staff handle import requests.', 'STAFF_ONLY');
};

const scope = (viewer: Pick<Viewer, 'sellerId'>) =>
  viewer.sellerId ? eq(importRequests.sellerId, viewer.sellerId) : undefined;

async function requestDtos(
  db: Db | Tx,
  rows: (RequestRow & { sellerName: string })[],
): Promise<ImportRequest[]> {
  const ids = rows.map((row) => row.id);
  const made = ids.length
    ? await db
        .select({ id: catalogImports.id, requestId: catalogImports.requestId })
        .from(catalogImports)
        .where(inArray(catalogImports.requestId, ids))
        .orderBy(desc(catalogImports.createdAt))
    : [];
  return rows.map((row) => ({
    id: row.id,
    sellerId: row.sellerId,
    sellerName: row.sellerName,
    kind: row.kind,
    fileName: row.fileName,
    feedUrl: row.feedUrl,
    note: row.note,
    status: row.status,
    assignee: row.assigneeName ? { id: row.assigneeId, name: row.assigneeName } : null,
    response: row.response,
    importIds: made.filter((entry) => entry.requestId === row.id).map((entry) => entry.id),
    createdBy: { id: row.createdBy, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

const requestColumns = {
  id: importRequests.id,
  sellerId: importRequests.sellerId,
  kind: importRequests.kind,
  fileName: importRequests.fileName,
  storagePath: importRequests.storagePath,
  feedUrl: importRequests.feedUrl,
  note: importRequests.note,
  status: importRequests.status,
  assigneeId: importRequests.assigneeId,
  assigneeName: importRequests.assigneeName,
  response: importRequests.response,
  createdBy: importRequests.createdBy,
  createdByName: importRequests.createdByName,
  createdAt: importRequests.createdAt,
  updatedAt: importRequests.updatedAt,
  sellerName: sellers.sellerName,
};

async function readRequests(db: Db | Tx, where: SQL | undefined, page?: { skip: number; limit: number }) {
  const query = db
    .select(requestColumns)
    .from(importRequests)
    .innerJoin(sellers, eq(sellers.id, importRequests.sellerId))
    .where(where)
    .orderBy(desc(importRequests.createdAt), desc(importRequests.id));
  return page ? query.offset(page.skip).limit(page.limit) : query;
}

export async function findRequest(
  db: Db | Tx,
  viewer: Pick<Viewer, 'sellerId'>,
  id: string,
): Promise<RequestRow> {
  const [row] = await db
    .select()
    .from(importRequests)
    .where(and(eq(importRequests.id, id), scope(viewer)));
  if (!row) throw requestNotFound();
  return row;
}

export async function getRequest(
  db: Db | Tx,
  viewer: Pick<Viewer, 'sellerId'>,
  id: string,
): Promise<ImportRequest> {
  const [dto] = await requestDtos(db, await readRequests(db, and(eq(importRequests.id, id), scope(viewer))));
  if (!dto) throw requestNotFound();
  return dto;
}

export async function listImportRequests(
  db: Db,
  viewer: Pick<Viewer, 'sellerId'>,
  query: { skip: number; limit: number; status?: RequestStatus; sellerId?: string },
) {
  const where = and(
    scope(viewer),
    query.status ? eq(importRequests.status, query.status) : undefined,
    query.sellerId ? eq(importRequests.sellerId, query.sellerId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    readRequests(db, where, query),
    db.select({ n: count() }).from(importRequests).where(where),
  ]);
  return { result: await requestDtos(db, rows), count: total?.n ?? 0 };
}

async function insertRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  values: Pick<RequestRow, 'sellerId' | 'kind' | 'fileName' | 'storagePath' | 'feedUrl' | 'note'>,
) {
  const actor = await actorOf(app.db, request);
  const id = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(importRequests)
      .values({ ...values, createdBy: actor.id, createdByName: actor.name })
      .returning({ id: importRequests.id });
    if (!row) throw new Error('the request was not stored');
    await recordAudit(tx, {
      subject: { type: 'import_request', id: row.id },
      actor,
      action: 'requested',
      note: values.kind === 'feed' ? `Feed ${values.feedUrl}` : `File ${values.fileName}`,
    });
    return row.id;
  });
  return getRequest(app.db, { sellerId: null }, id);
}

/** addImportProductsApi with a feed URL (JSON). */
export async function requestFeedImport(
  app: FastifyInstance,
  request: FastifyRequest,
  body: { feedUrl: string; note: string; sellerId?: string },
) {
  const viewer = viewerOf(request);
  const sellerId = await targetSeller(app.db, viewer, body.sellerId);
  if (!isValidUrl(body.feedUrl)) {
    throw new HttpError(
      400,
      'Give the feed’s full address, starting with http:// or https://.',
      'INVALID_URL',
      {
        feedUrl: 'Give the feed’s full address, starting with http:// or https://.',
      },
    );
  }
  return insertRequest(app, request, {
    sellerId,
    kind: 'feed',
    feedUrl: body.feedUrl,
    fileName: null,
    storagePath: null,
    note: body.note,
  });
}

/** addImportProductsApi with a file (multipart: `note`, staff's `sellerId`, then the file). */
export async function requestFileImport(app: FastifyInstance, request: FastifyRequest, dataDir: string) {
  const viewer = viewerOf(request);
  const file = await receiveSheetUpload(request, { storage: app.storage, dataDir, folder: REQUEST_FOLDER });
  return withReceivedSheet(app.storage, file, async () => {
    const sellerId = await targetSeller(app.db, viewer, file.fields.sellerId);
    return insertRequest(app, request, {
      sellerId,
      kind: 'file',
      fileName: file.fileName,
      storagePath: file.relativePath,
      feedUrl: null,
      note: (file.fields.note ?? '').trim().slice(0, 2000),
    });
  });
}

async function changeRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  change: (row: RequestRow) => {
    status: RequestStatus;
    response?: string | null;
    assign?: boolean;
    action: string;
    note?: string;
  },
) {
  const viewer = viewerOf(request);
  staffOnly(viewer);
  const actor = await actorOf(app.db, request);
  await app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(importRequests).where(eq(importRequests.id, id)).for('update');
    if (!row) throw requestNotFound();
    const next = change(row);
    await tx
      .update(importRequests)
      .set({
        status: next.status,
        ...(next.response !== undefined ? { response: next.response } : {}),
        ...(next.assign ? { assigneeId: actor.id, assigneeName: actor.name } : {}),
        updatedAt: new Date(),
      })
      .where(eq(importRequests.id, id));
    await recordAudit(tx, {
      subject: { type: 'import_request', id: id },
      actor,
      action: next.action,
      changes:
        row.status !== next.status
          ? [
              {
                field: 'Status',
                before: requestStatusLabels[row.status],
                after: requestStatusLabels[next.status],
              },
            ]
          : [],
      note: next.note ?? next.response ?? null,
    });
  });
  return getRequest(app.db, { sellerId: null }, id);
}

const closed = (row: RequestRow) => row.status === 'done' || row.status === 'rejected';

export function takeRequest(app: FastifyInstance, request: FastifyRequest, id: string) {
  return changeRequest(app, request, id, (row) => {
    if (closed(row)) throw new HttpError(409, 'This request is closed.', 'REQUEST_CLOSED');
    return { status: 'in_progress', assign: true, action: 'taken' };
  });
}

export function updateRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  body: { status: Exclude<RequestStatus, 'open'>; response?: string },
) {
  return changeRequest(app, request, id, (row) => {
    if (closed(row)) throw new HttpError(409, 'This request is closed.', 'REQUEST_CLOSED');
    if (body.status === 'rejected' && !body.response)
      throw new HttpError(400, 'Tell the seller why the request is rejected.', 'RESPONSE_REQUIRED', {
        response: 'Tell the seller why.',
      });
    return {
      status: body.status,
      response: body.response ?? row.response,
      assign: !row.assigneeId,
      action: body.status === 'done' ? 'done' : body.status === 'rejected' ? 'rejected' : 'updated',
    };
  });
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The key of a request's stored sheet (a row can only point into the requests' folder). */
export const requestFileKey = (storagePath: string) => keyInFolder(REQUEST_FOLDER, storagePath);

/**
 * Staff import the request's file, or fetch its feed, as an import of the seller's: the sheet is
 * brought to local scratch space (a copy of the request's, or the feed), checked, put into the storage
 * as the import's own file, and recorded; a failure on the way leaves no stored file behind.
 */
export async function importFromRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  dataDir: string,
) {
  const viewer = viewerOf(request);
  staffOnly(viewer);
  const row = await findRequest(app.db, viewer, id);
  if (closed(row)) throw new HttpError(409, 'This request is closed.', 'REQUEST_CLOSED');
  const scratch = scratchDir(dataDir);
  await mkdir(scratch, { recursive: true });
  const name = randomUUID();
  const temporary = path.join(scratch, `.${name}.part`);
  let fileName = row.fileName ?? 'feed';
  let stored: string | null = null;
  try {
    if (row.kind === 'file' && row.storagePath) {
      const copy = await app.storage.localCopy(requestFileKey(row.storagePath));
      if (!copy) throw new HttpError(404, 'The file of this request is missing.', 'FILE_NOT_FOUND');
      try {
        await copyFile(copy.path, temporary);
      } finally {
        await copy.release();
      }
    } else if (row.feedUrl) {
      const fetched = await fetchToFile(row.feedUrl, temporary, FEED_LIMITS);
      fileName = fileNameOfUrl(fetched.finalUrl, 'feed');
    } else {
      throw new HttpError(409, 'This request has neither a file nor a feed.', 'REQUEST_EMPTY');
    }
    const format = await detectSheetFormat(temporary, { user: request.user.id });
    if (!/\.(csv|xlsx)$/i.test(fileName)) fileName = `${fileName}.${format}`;
    const relativePath = path.posix.join(IMPORT_FOLDER, `${name}.${format}`);
    const size = (await stat(temporary)).size;
    const sha256 = await sha256Of(temporary);
    stored = relativePath;
    await app.storage.put(relativePath, createReadStream(temporary), {
      contentType: sheetContentTypes[format],
    });
    const answer = await createImport(
      app,
      request,
      { relativePath, localPath: temporary, fileName, format, size, sha256 },
      { sellerId: row.sellerId, requestId: row.id },
    );
    stored = null;
    if (row.status === 'open') await takeRequest(app, request, row.id);
    return answer;
  } catch (error) {
    if (stored) await app.storage.delete(stored).catch(() => undefined);
    if (error instanceof FeedFetchError) throw new HttpError(400, error.message, error.code);
    if (error instanceof SheetError) throw sheetHttpError(error);
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}
