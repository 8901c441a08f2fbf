// An offer version as a PDF (issue 31): the version exactly as sent (its frozen snapshot), on the shop's
// letterhead, from the one document engine that renders invoices and purchase orders.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { OfferPricing } from '../../../contracts/offers';
import type { Address } from '../../../contracts/sellers';
import { offerVersions } from '../../db/schema';
import { renderDocumentPdf } from '../../lib/documents/pdf';
import { HttpError } from '../../lib/http-error';
import { documentLinesOf, issuerDetails, partyOf, totalsOf } from '../invoices/drafts';
import { renderable } from '../invoices/files';

interface VersionSnapshot {
  reference: string;
  version: number;
  seller: { id: string; name: string };
  customer: { name: string; email: string; shippingAddress: Partial<Address> | null };
  offer: OfferPricing;
}

export async function offerVersionPdf(
  app: Pick<FastifyInstance, 'db' | 'settings' | 'storage'>,
  offerId: string,
  version: number,
): Promise<{ pdf: Buffer; name: string }> {
  const [row] = await app.db
    .select()
    .from(offerVersions)
    .where(and(eq(offerVersions.offerId, offerId), eq(offerVersions.version, version)));
  if (!row)
    throw new HttpError(404, `There is no version ${version} of this offer.`, 'OFFER_VERSION_NOT_FOUND');
  const snapshot = row.snapshot as unknown as VersionSnapshot;
  const settings = await app.settings.effective(snapshot.seller.id);
  const lines = documentLinesOf(snapshot.offer);
  const shipping = snapshot.offer.totals.shippingMinor;
  const details = issuerDetails(settings, snapshot.seller.name);
  const number = `${snapshot.reference} v${snapshot.version}`;
  const document = await renderable(app.storage, {
    kind: 'invoice',
    number,
    issueDate: row.sentAt.toISOString().slice(0, 10),
    dueDate: snapshot.offer.validUntil || null,
    currency: snapshot.offer.currency,
    ...details,
    paymentTerms: snapshot.offer.validUntil ? `Valid until ${snapshot.offer.validUntil}.` : '',
    buyer: partyOf(snapshot.customer.name, snapshot.customer.shippingAddress, {
      email: snapshot.customer.email,
    }),
    shipTo: null,
    lines,
    shippingMinor: shipping,
    totals: totalsOf(lines, shipping),
    precedingInvoice: null,
    reference: `SHA-256 ${row.snapshotSha256.slice(0, 16)}…`,
    notes: snapshot.offer.notes,
  });
  return {
    pdf: await renderDocumentPdf({ ...document, kind: 'offer' }),
    name: `${number.replace(/\s+/g, '-')}.pdf`,
  };
}
