// KYC documents: upload (PDF, JPEG, PNG by content, ≤ 5 MB), list and download. Admins and staff reach
// any seller's documents through Manage Sellers; a seller only their own (see access.ts).
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
import { keyInFolder } from '../../lib/storage/keys';
import { serveStoredFile } from '../../lib/storage/serve-stored-file';
import { readUploadedFile, storeFile, withStoredFile } from '../../lib/uploads';
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

export async function sellerDocumentRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

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
      // Stored before the row: a store that is down answers 503 and no document row exists.
      const stored = await storeFile(app.storage, DOCUMENTS_FOLDER, file.bytes, '', file.mimeType);
      const document = await withStoredFile(app.storage, stored, () =>
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
      return serveStoredFile(
        request,
        reply,
        app.storage,
        {
          key: keyInFolder(DOCUMENTS_FOLDER, document.storagePath),
          contentType: document.mimeType,
          fileName: document.fileName,
          disposition: 'attachment',
          cacheControl: 'private, no-store',
          notFound: () => new HttpError(404, 'The file of this document is missing.', 'FILE_NOT_FOUND'),
        },
        { presigned: app.presignedDownloads },
      );
    },
  );
}
