// An order's packing slip (issue 31): what goes in the parcel and where it goes, without prices, from
// the one document engine that renders invoices (server/lib/documents), on the shop's letterhead.
import type { FastifyInstance } from 'fastify';
import { renderDocumentPdf } from '../../lib/documents/pdf';
import type { RouteViewer } from '../../lib/route-viewer';
import { draftOfOrder, sellerName } from '../invoices/drafts';
import { renderable } from '../invoices/files';
import { todayFor } from '../invoices/numbering';
import { findOrder } from './service';

export async function packingSlipPdf(
  app: Pick<FastifyInstance, 'db' | 'settings' | 'storage'>,
  viewer: RouteViewer,
  id: string,
): Promise<{ pdf: Buffer; reference: string }> {
  const order = await findOrder(app.db, viewer, id);
  const settings = await app.settings.effective(order.sellerId);
  const { document } = draftOfOrder(order, settings, await sellerName(app.db, order.sellerId));
  const slip = await renderable(app.storage, {
    ...document,
    kind: 'invoice',
    number: document.reference,
    issueDate: todayFor(settings),
  });
  return { pdf: await renderDocumentPdf({ ...slip, kind: 'packing_slip' }), reference: document.reference };
}
