// Reading invoices (issue 31): the server-paged list with its status tabs (maintained counters), and
// one invoice's page. A seller sees the invoices of their shop only: those it issued and those the
// marketplace billed it; another's answer 404.
import { and, asc, desc, eq, gte, lte, or, type SQL, sql } from 'drizzle-orm';
import {
  type InvoiceKind,
  type InvoiceStatus,
  invoiceActionProblem,
  invoiceBalanceMinor,
  invoiceStatuses,
} from '../../../contracts/domain/invoice-state';
import { orderReference } from '../../../contracts/domain/order-state';
import type {
  InvoiceDetail,
  InvoiceList,
  InvoiceListItem,
  InvoiceListQuery,
  InvoiceTabs,
} from '../../../contracts/invoices';
import type { Db, Tx } from '../../db/client';
import { invoiceStatusCounts, invoices, orders } from '../../db/schema';
import { readAuditPage } from '../../lib/audit';
import { taxBreakdown } from '../../lib/documents/model';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import type { RouteViewer } from '../../lib/route-viewer';
import { countUpToCap, sellerNames, tabbedTotal } from '../../lib/tabbed-list';
import type { StoredDocument } from './drafts';

export type InvoiceRow = typeof invoices.$inferSelect;

export const invoiceNotFound = () => new HttpError(404, 'There is no such invoice.', 'INVOICE_NOT_FOUND');
const NO_SELLER = '00000000-0000-0000-0000-000000000000';

function visible(viewer: RouteViewer): SQL | undefined {
  return viewer.isSeller ? eq(invoices.sellerId, viewer.sellerId ?? NO_SELLER) : undefined;
}

export async function findInvoice(
  db: Db | Tx,
  viewer: RouteViewer | null,
  id: string,
  lock = false,
): Promise<InvoiceRow> {
  const query = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), viewer ? visible(viewer) : undefined));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw invoiceNotFound();
  return row;
}

export const documentOf = (row: InvoiceRow) => row.document as unknown as StoredDocument;

function listItem(row: InvoiceRow, sellerName: string | null): InvoiceListItem {
  return {
    id: row.id,
    kind: row.kind as InvoiceKind,
    status: row.status as InvoiceStatus,
    number: row.number,
    source: row.source,
    sellerId: row.sellerId,
    sellerName,
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    currency: row.currency,
    totalMinor: row.totalMinor,
    taxMinor: row.taxMinor,
    paidMinor: row.paidMinor,
    creditedMinor: row.creditedMinor,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function readInvoiceTabs(db: Db, viewer: RouteViewer, sellerId?: string): Promise<InvoiceTabs> {
  const seller = viewer.isSeller ? (viewer.sellerId ?? NO_SELLER) : sellerId;
  const rows = await db
    .select({
      status: invoiceStatusCounts.status,
      n: sql<number>`sum(${invoiceStatusCounts.invoices})::integer`,
    })
    .from(invoiceStatusCounts)
    .where(seller ? eq(invoiceStatusCounts.sellerKey, seller) : undefined)
    .groupBy(invoiceStatusCounts.status);
  const tabs = Object.fromEntries(invoiceStatuses.map((status) => [status, 0])) as InvoiceTabs;
  for (const row of rows) if (row.status in tabs) tabs[row.status as InvoiceStatus] = Number(row.n);
  return tabs;
}

export async function listInvoices(
  db: Db,
  viewer: RouteViewer,
  query: InvoiceListQuery,
): Promise<InvoiceList> {
  const conditions: (SQL | undefined)[] = [visible(viewer)];
  if (query.sellerId && !viewer.isSeller) conditions.push(eq(invoices.sellerId, query.sellerId));
  if (query.status) conditions.push(eq(invoices.status, query.status));
  if (query.kind) conditions.push(eq(invoices.kind, query.kind));
  if (query.currency) conditions.push(eq(invoices.currency, query.currency));
  if (query.from) conditions.push(gte(invoices.issueDate, query.from));
  if (query.to) conditions.push(lte(invoices.issueDate, query.to));
  const search = query.query.trim();
  if (search) {
    const text = sql`lower(coalesce(${invoices.number}, '') || ' ' || ${invoices.buyerName} || ' ' || ${invoices.buyerEmail}) LIKE ${containsPattern(search.toLowerCase())}`;
    conditions.push(or(text, eq(invoices.number, search)));
  }
  const where = and(...conditions);
  const onlyTabs = !query.kind && !query.currency && !query.from && !query.to && !search;
  const [rows, counted, tabs] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .offset(query.skip)
      .limit(query.limit),
    onlyTabs ? null : countUpToCap(db, invoices, where),
    readInvoiceTabs(db, viewer, query.sellerId),
  ]);
  const names = await sellerNames(
    db,
    rows.map((row) => row.sellerId),
  );
  return {
    result: rows.map((row) => listItem(row, names.get(row.sellerId) ?? null)),
    ...tabbedTotal(counted, tabs, query.status),
    tabs,
  };
}

export async function invoiceDetail(db: Db, viewer: RouteViewer, id: string): Promise<InvoiceDetail> {
  const row = await findInvoice(db, viewer, id);
  const document = documentOf(row);
  const [names, credits, credited, order, history] = await Promise.all([
    sellerNames(db, [row.sellerId]),
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        totalMinor: invoices.totalMinor,
        issueDate: invoices.issueDate,
      })
      .from(invoices)
      .where(eq(invoices.creditedInvoiceId, id))
      .orderBy(asc(invoices.createdAt)),
    row.creditedInvoiceId
      ? db
          .select({ id: invoices.id, number: invoices.number })
          .from(invoices)
          .where(eq(invoices.id, row.creditedInvoiceId))
      : [],
    row.orderId
      ? db.select({ id: orders.id, number: orders.number }).from(orders).where(eq(orders.id, row.orderId))
      : [],
    readAuditPage(db, { type: 'invoice', id }, { skip: 0, limit: 200 }),
  ]);
  const facts = {
    kind: row.kind as InvoiceKind,
    status: row.status as InvoiceStatus,
    fromOrder: row.orderId !== null,
    totalMinor: row.totalMinor,
    paidMinor: row.paidMinor,
    creditedMinor: row.creditedMinor,
  };
  const problem = (action: Parameters<typeof invoiceActionProblem>[0]) => invoiceActionProblem(action, facts);
  const issuerCountry = document.seller.country;
  return {
    ...listItem(row, names.get(row.sellerId) ?? null),
    seller: document.seller,
    buyer: document.buyer,
    lines: document.lines,
    shippingMinor: document.shippingMinor,
    netMinor: document.totals.netMinor,
    taxBreakdown: taxBreakdown(document.lines, document.shippingMinor).map(
      ({ rate, baseMinor, taxMinor }) => ({
        rate,
        baseMinor,
        taxMinor,
      }),
    ),
    reference: document.reference,
    notes: document.notes,
    order: order[0] ? { id: order[0].id, reference: orderReference(order[0].number) } : null,
    creditedInvoice: credited[0] ?? null,
    creditNotes: credits,
    balanceMinor: row.kind === 'invoice' && row.number ? invoiceBalanceMinor(facts) : 0,
    documentSha256: row.documentSha256,
    pdfSha256: row.pdfSha256,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    history: history.result,
    problems: {
      issue: problem('issue'),
      delete: problem('delete'),
      pay: problem('pay'),
      fail: problem('fail'),
      cancel: problem('cancel'),
      mail: problem('mail'),
    },
    gstExport: row.number !== null && issuerCountry === 'IN' && row.currency === 'INR',
  };
}
