// The invoice register (issue 31): every invoice and credit note issued in a period, one row per tax rate
// of each (its taxable base and tax; credit notes negative), then the VAT / GST summary per currency and
// rate, through the one export job as CSV or XLSX. Amounts are in the currency's major unit.
import { and, asc, eq, gte, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type InvoiceStatus, invoiceStatusLabels } from '../../../contracts/domain/invoice-state';
import { exportFormats } from '../../../contracts/exports';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { invoices, sellers } from '../../db/schema';
import { minorToMajor, taxBreakdown } from '../../lib/documents/model';
import type { Cell, Column, ExportCursor, ExportDefinition } from '../../lib/export-definition';
import type { FileStorage } from '../../lib/storage/types';
import { exportJobHandler } from '../exports/export-job';
import type { StoredDocument } from './drafts';

export const INVOICE_REGISTER_KIND = 'export.invoice-register';
export const INVOICE_REGISTER_NAME = 'Invoice register';

export const registerPayloadSchema = z.object({
  from: z.string(),
  to: z.string(),
  format: z.enum(exportFormats),
  sellerId: z.string().optional(),
});
export type RegisterPayload = z.infer<typeof registerPayloadSchema>;

const columns: Column[] = [
  { header: 'Number', width: 20 },
  { header: 'Type', width: 12 },
  { header: 'Issue date', width: 12 },
  { header: 'Due date', width: 12 },
  { header: 'Status', width: 12 },
  { header: 'Issuer', width: 28 },
  { header: 'Buyer', width: 28 },
  { header: 'Buyer tax id', width: 18 },
  { header: 'Currency', width: 9 },
  { header: 'Tax rate %', width: 10 },
  { header: 'Taxable amount', width: 15 },
  { header: 'Tax', width: 12 },
  { header: 'Document total', width: 15 },
  { header: 'Corrects', width: 20 },
];

interface RegisterRow {
  id: string;
  cells: Cell[];
}

const SUMMARY_KEY = '~summary';

function conditionsOf(payload: RegisterPayload): SQL {
  return and(
    isNotNull(invoices.number),
    gte(invoices.issueDate, payload.from),
    lte(invoices.issueDate, payload.to),
    payload.sellerId ? eq(invoices.sellerId, payload.sellerId) : undefined,
  ) as SQL;
}

async function count(db: Db, payload: RegisterPayload): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::integer` })
    .from(invoices)
    .where(conditionsOf(payload));
  return Number(row?.n ?? 0);
}

/** The summary: taxable base and tax per currency and rate over the period, credit notes subtracted. */
async function summaryRows(db: Db, payload: RegisterPayload): Promise<RegisterRow[]> {
  const sign = sql`CASE WHEN ${invoices.kind} = 'credit_note' THEN -1 ELSE 1 END`;
  const rows = await db.execute(sql`
    SELECT currency, rate, sum(base)::bigint AS base, sum(tax)::bigint AS tax FROM (
      SELECT ${invoices.currency} AS currency, (line->>'taxRate')::numeric AS rate,
             ${sign} * (line->>'netMinor')::bigint AS base, ${sign} * (line->>'taxMinor')::bigint AS tax
        FROM ${invoices}, jsonb_array_elements(${invoices.document}->'lines') AS line
       WHERE ${conditionsOf(payload)}
      UNION ALL
      SELECT ${invoices.currency}, 0, ${sign} * (${invoices.document}->>'shippingMinor')::bigint, 0
        FROM ${invoices} WHERE ${conditionsOf(payload)}
    ) parts
    GROUP BY currency, rate HAVING sum(base) <> 0 OR sum(tax) <> 0 ORDER BY currency, rate`);
  const list = rowsOf<{ currency: string; rate: string; base: string; tax: string }>(rows);
  return list.map((row, index) => ({
    id: `${SUMMARY_KEY}-${index}`,
    cells: [
      `Summary ${payload.from} to ${payload.to}`,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      row.currency,
      Number(row.rate),
      minorToMajor(Number(row.base), row.currency),
      minorToMajor(Number(row.tax), row.currency),
      null,
      null,
    ],
  }));
}

async function readBatch(
  db: Db,
  payload: RegisterPayload,
  after: ExportCursor | null,
  limit: number,
): Promise<(RegisterRow & { cursorKey: string })[]> {
  if (after?.key === SUMMARY_KEY) return [];
  const cut = after?.key.indexOf('|') ?? -1;
  const keyset =
    after && cut > 0
      ? sql`(${invoices.issueDate}, ${invoices.id}) > (${after.key.slice(0, cut)}, CAST(${after.id} AS uuid))`
      : undefined;
  const rows = await db
    .select({
      id: invoices.id,
      kind: invoices.kind,
      status: invoices.status,
      number: invoices.number,
      issueDate: invoices.issueDate,
      dueDate: invoices.dueDate,
      currency: invoices.currency,
      totalMinor: invoices.totalMinor,
      document: invoices.document,
      creditedInvoiceId: invoices.creditedInvoiceId,
      sellerName: sellers.sellerName,
    })
    .from(invoices)
    .innerJoin(sellers, eq(sellers.id, invoices.sellerId))
    .where(and(conditionsOf(payload), keyset))
    .orderBy(asc(invoices.issueDate), asc(invoices.id))
    .limit(limit);
  const out: (RegisterRow & { cursorKey: string })[] = rows.flatMap((row) => {
    const document = row.document as unknown as StoredDocument;
    const sign = row.kind === 'credit_note' ? -1 : 1;
    const money = (minor: number) => minorToMajor(sign * minor, row.currency);
    return taxBreakdown(document.lines, document.shippingMinor).map((group) => ({
      id: row.id,
      cursorKey: `${row.issueDate}|`,
      cells: [
        row.number,
        row.kind === 'credit_note' ? 'Credit note' : 'Invoice',
        row.issueDate,
        row.dueDate,
        invoiceStatusLabels[row.status as InvoiceStatus] ?? row.status,
        document.seller.name || row.sellerName,
        document.buyer.name,
        document.buyer.taxId,
        row.currency,
        group.rate,
        money(group.baseMinor),
        money(group.taxMinor),
        money(row.totalMinor),
        document.precedingInvoice?.number ?? null,
      ],
    }));
  });
  if (rows.length < limit) {
    const summary = await summaryRows(db, payload);
    out.push(...summary.map((row) => ({ ...row, cursorKey: SUMMARY_KEY })));
  }
  return out;
}

export const invoiceRegister: ExportDefinition<RegisterPayload, RegisterRow> = {
  kind: INVOICE_REGISTER_KIND,
  name: INVOICE_REGISTER_NAME,
  fileStem: 'invoice-register',
  sheetName: 'Invoice register',
  noun: ['document', 'documents'],
  payloadSchema: registerPayloadSchema,
  columns: async () => ({ columns }),
  count,
  readBatch,
  cellsOf: (row) => row.cells,
};

export const invoiceRegisterHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(invoiceRegister, options);
