// A purchase order as a PDF (issue 31), from the one document engine (server/lib/documents): the
// marketplace's letterhead as the buyer, the supplier as the recipient, the shop's address as where the
// goods go; costs are untaxed (the supplier's invoice carries its own taxes). Mailed to the supplier
// through the one mail path when the order is sent.
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { purchaseOrderReference } from '../../../contracts/domain/purchase-order-state';
import { purchaseOrderLines, sellers, suppliers } from '../../db/schema';
import type { DocumentLine } from '../../lib/documents/model';
import { renderDocumentPdf } from '../../lib/documents/pdf';
import { issuerDetails, partyOf, totalsOf } from '../invoices/drafts';
import { renderable } from '../invoices/files';
import { todayFor } from '../invoices/numbering';
import { findPurchaseOrder } from './service';

type DocumentApp = Pick<FastifyInstance, 'db' | 'settings' | 'storage'>;

export async function purchaseOrderPdf(app: DocumentApp, id: string) {
  const po = await findPurchaseOrder(app.db, id);
  const [[supplier], [shop], lines, marketplace] = await Promise.all([
    app.db.select().from(suppliers).where(eq(suppliers.id, po.supplierId)),
    app.db.select().from(sellers).where(eq(sellers.id, po.sellerId)),
    app.db
      .select()
      .from(purchaseOrderLines)
      .where(eq(purchaseOrderLines.purchaseOrderId, id))
      .orderBy(asc(purchaseOrderLines.position)),
    app.settings.effective(null),
  ]);
  const documentLines: DocumentLine[] = lines.map((line) => ({
    name: line.name,
    sku: line.sku,
    quantity: line.quantity,
    unitPriceMinor: line.unitCostMinor,
    discountMinor: 0,
    netMinor: line.quantity * line.unitCostMinor,
    taxRate: 0,
    taxMinor: 0,
    totalMinor: line.quantity * line.unitCostMinor,
  }));
  const reference = purchaseOrderReference(po.number);
  const details = issuerDetails(marketplace, 'Marketplace');
  const document = await renderable(app.storage, {
    kind: 'invoice',
    number: reference,
    issueDate: po.sentAt ? po.sentAt.toISOString().slice(0, 10) : todayFor(marketplace),
    dueDate: po.expectedOn,
    currency: po.currency,
    ...details,
    // On a purchase order the marketplace buys: the supplier is who the document is addressed to.
    buyer: partyOf(supplier!.name, supplier!.address, { email: supplier!.email, taxId: supplier!.taxId }),
    shipTo: partyOf(shop!.sellerName, shop!.address),
    lines: documentLines,
    shippingMinor: 0,
    totals: totalsOf(documentLines, 0),
    precedingInvoice: null,
    reference: po.expectedOn ? `Expected on ${po.expectedOn}` : '',
    notes: po.notes,
    paymentTerms: '',
  });
  const pdf = await renderDocumentPdf({ ...document, kind: 'purchase_order' });
  return { pdf, reference, supplier: supplier!, buyerName: details.seller.name };
}

/** Mails the supplier their purchase order's PDF (keyed: sent again after a crash, one mail). */
export async function mailPurchaseOrder(app: DocumentApp & Pick<FastifyInstance, 'mailer'>, id: string) {
  const { pdf, reference, supplier, buyerName } = await purchaseOrderPdf(app, id);
  await app.mailer.send({
    to: supplier.email,
    subject: `Purchase order ${reference} from ${buyerName}`,
    text: `Hello ${supplier.name},\n\nplease find our purchase order ${reference} attached.\n\n${buyerName}\n`,
    key: `purchase-order-${id}`,
    attachments: [{ filename: `${reference}.pdf`, content: pdf, contentType: 'application/pdf' }],
  });
}
