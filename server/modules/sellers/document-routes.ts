// KYC documents: upload (PDF, JPEG, PNG by content, ≤ 5 MB), list and download. Admins and staff reach
// any seller's documents through Manage Sellers; a seller only their own (see access.ts).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  sellerDocumentKindLabels,
  sellerDocumentSchema,
  sellerDocumentsSchema,
  uploadDocumentQuerySchema,
} from '../../../contracts/seller-admin';
import { sellerDocuments } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { uploadErrors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { readUploadedFile, storedFilePath, storeFile, withStoredFile } from '../../lib/uploads';
import { actorOf } from '../users/actor';
import { assertSellerAccess } from './access';
import { findSeller } from './repository';

const DOCUMENTS_FOLDER = 'uploads/documents';
/** A seller has a handful of papers; the list is bounded all the same. */
const DOCUMENT_LIST_LIMIT = 100;

type DocumentRow = typeof sellerDocuments.$inferSelect;
const toDocumentDto = (row: DocumentRow) => ({
  id: row.id,
  sellerId: row.sellerId,
  kind: row.kind,
  fileName: row.fileName,
  mimeType: row.mimeType,
  size: row.size,
  uploadedAt: row.createdAt.toISOString(),
});

/** RFC 6266: a plain ASCII fallback plus the exact UTF-8 name. */
function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export async function sellerDocumentRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { dataDir } = options;

  api.post(
    '/uploadSellerDocument',
    {
      schema: {
        tags: ['sellers'],
        summary: 'Upload a KYC document (multipart, one file: PDF, JPEG or PNG, 5 MB at most)',
        consumes: ['multipart/form-data'],
        querystring: uploadDocumentQuerySchema,
        response: { 201: sellerDocumentSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const { sellerId, kind } = request.query;
      // Who and which seller first: a refused upload is never read, let alone stored.
      await assertSellerAccess(request, sellerId, 'edit');
      await findSeller(app.db, sellerId);
      const file = await readUploadedFile(request, {
        maxBytes: DOCUMENT_MAX_BYTES,
        accepted: DOCUMENT_TYPES,
      });
      const stored = await storeFile(dataDir, DOCUMENTS_FOLDER, file.bytes);
      const document = await withStoredFile(dataDir, stored, () =>
        app.db.transaction(async (tx) => {
          // Locked so a seller deleted meanwhile fails the insert (and the file is removed) cleanly.
          await findSeller(tx, sellerId, { forUpdate: true });
          const [row] = await tx
            .insert(sellerDocuments)
            .values({
              sellerId,
              kind,
              fileName: file.fileName,
              mimeType: file.mimeType,
              size: file.bytes.length,
              storagePath: stored.relativePath,
              uploadedBy: request.user.id,
            })
            .returning();
          await recordAudit(tx, {
            subject: { type: 'seller', id: sellerId },
            actor: await actorOf(tx, request),
            action: 'document',
            changes: [{ field: 'document', before: null, after: file.fileName }],
            note: sellerDocumentKindLabels[kind],
          });
          return row as DocumentRow;
        }),
      );
      return reply.status(201).send(toDocumentDto(document));
    },
  );

  api.get(
    '/getSellerDocuments/:id',
    {
      schema: {
        tags: ['sellers'],
        summary: "A seller's documents, newest first",
        params: z.object({ id: z.string().uuid('id must be a seller id') }),
        response: { 200: sellerDocumentsSchema, ...uploadErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      await assertSellerAccess(request, id, 'view');
      await findSeller(app.db, id);
      const rows = await app.db
        .select()
        .from(sellerDocuments)
        .where(eq(sellerDocuments.sellerId, id))
        .orderBy(desc(sellerDocuments.createdAt), desc(sellerDocuments.id))
        .limit(DOCUMENT_LIST_LIMIT);
      return { result: rows.map(toDocumentDto) };
    },
  );

  api.get(
    '/documents/:docId',
    {
      schema: {
        tags: ['sellers'],
        summary: 'Download a document (as an attachment, never rendered inline)',
        // No response schema: the answer is the file itself (errors are `{ message, code }` as always).
        params: z.object({ docId: z.string().uuid('docId must be a document id') }),
      },
    },
    async (request, reply) => {
      const [document] = await app.db
        .select()
        .from(sellerDocuments)
        .where(eq(sellerDocuments.id, request.params.docId));
      if (!document) throw new HttpError(404, 'Document not found', 'DOCUMENT_NOT_FOUND');
      await assertSellerAccess(request, document.sellerId, 'view');
      const file = storedFilePath(dataDir, DOCUMENTS_FOLDER, document.storagePath);
      const size = await stat(file).then(
        (info) => info.size,
        () => null,
      );
      if (size === null) throw new HttpError(404, 'The file of this document is missing.', 'FILE_NOT_FOUND');
      return reply
        .header('content-type', document.mimeType)
        .header('content-length', size)
        .header('content-disposition', attachmentHeader(document.fileName))
        .header('cache-control', 'private, no-store')
        .send(createReadStream(file));
    },
  );
}
