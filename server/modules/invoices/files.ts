// An issued invoice's files (issue 31): the PDF/A-3 with its EN 16931 XML inside, the XML on its own
// and the frozen JSON, rendered from the document frozen at issue and kept in the one file storage.
// They are written right after the issuing transaction commits; should that step be lost (a crash, a
// store that did not answer), the first read writes them. Each PDF is stored under a name holding its
// SHA-256, and the row records the first one stored, so two first reads at once cannot swap its bytes.
import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices } from '../../db/schema';
import { ciiXml } from '../../lib/documents/cii';
import type { BusinessDocument } from '../../lib/documents/model';
import { renderDocumentPdf } from '../../lib/documents/pdf';
import { HttpError } from '../../lib/http-error';
import type { FileStorage } from '../../lib/storage/types';
import type { StoredDocument } from './drafts';
import { documentOf, findInvoice, type InvoiceRow } from './read';

type FilesApp = { db: Db; storage: FileStorage };
export const INVOICES_FOLDER = 'files/invoices';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

async function bytesOf(storage: FileStorage, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The frozen document with its logo's bytes, ready for the writers. */
export async function renderable(storage: FileStorage, stored: StoredDocument): Promise<BusinessDocument> {
  const { logoKey, ...document } = stored;
  const logo = logoKey ? await bytesOf(storage, logoKey).catch(() => null) : null;
  return { ...document, logo };
}

const notIssued = () => new HttpError(409, 'A draft has no PDF: issue it first.', 'INVOICE_NOT_ISSUED');

/** Renders and stores the files of an issued invoice that has none yet; returns the PDF's bytes. */
export async function storeInvoiceFiles(app: FilesApp, row: InvoiceRow): Promise<Buffer> {
  if (!row.number) throw notIssued();
  const document = await renderable(app.storage, documentOf(row));
  const xml = ciiXml(document);
  const pdf = await renderDocumentPdf(document);
  const pdfSha256 = sha256(pdf);
  const base = `${INVOICES_FOLDER}/${row.id}`;
  const pdfKey = `${base}-${pdfSha256.slice(0, 16)}.pdf`;
  await Promise.all([
    app.storage.put(pdfKey, pdf, { contentType: 'application/pdf' }),
    app.storage.put(`${base}.xml`, Buffer.from(xml), { contentType: 'application/xml' }),
    app.storage.put(`${base}.json`, Buffer.from(JSON.stringify(documentOf(row), null, 2)), {
      contentType: 'application/json',
    }),
  ]);
  const [kept] = await app.db
    .update(invoices)
    .set({ pdfKey, pdfSha256, xmlKey: `${base}.xml`, jsonKey: `${base}.json` })
    .where(and(eq(invoices.id, row.id), isNull(invoices.pdfSha256)))
    .returning({ id: invoices.id });
  if (kept) return pdf;
  // Another request stored its render first: that one is the invoice's PDF.
  await app.storage.delete(pdfKey);
  return invoicePdf(app, await findInvoice(app.db, null, row.id));
}

/** The issued PDF, byte for byte as first stored. */
export async function invoicePdf(app: FilesApp, row: InvoiceRow): Promise<Buffer> {
  if (!row.number) throw notIssued();
  if (!row.pdfKey) return storeInvoiceFiles(app, row);
  const bytes = await bytesOf(app.storage, row.pdfKey);
  if (!bytes)
    throw new HttpError(503, 'The invoice’s PDF cannot be read now; try again.', 'FILE_UNAVAILABLE');
  return bytes;
}

/** The EN 16931 CII XML (the same bytes the PDF carries). */
export async function invoiceXml(app: FilesApp, row: InvoiceRow): Promise<string> {
  if (!row.number) throw notIssued();
  return ciiXml(await renderable(app.storage, documentOf(row)));
}

/** A file name for downloads: the number with its slashes made dashes (INV/26-27/00001). */
export const downloadName = (row: InvoiceRow, extension: string) =>
  `${(row.number ?? 'draft').replace(/[^A-Za-z0-9._-]+/g, '-')}.${extension}`;
