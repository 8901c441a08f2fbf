// Invoices by mail (issue 31): the PDF attached, through the one mail path (outbox or SMTP). A mail sent
// again after a crash has the same key, so the outbox keeps one file per invoice and sending.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { type Actor, recordAudit } from '../../lib/audit';
import { displayMoney } from '../../lib/documents/model';
import { HttpError } from '../../lib/http-error';
import type { RouteViewer } from '../../lib/route-viewer';
import type { FileStorage } from '../../lib/storage/types';
import { downloadName, invoicePdf } from './files';
import { documentOf, findInvoice, type InvoiceRow } from './read';

type MailApp = Pick<FastifyInstance, 'mailer'> & { db: Db; storage: FileStorage };

/** The mail of an issued invoice or credit note, with its PDF; `note` opens the text (a reminder's). */
export async function sendInvoiceMail(app: MailApp, row: InvoiceRow, to: string, key: string, note = '') {
  const document = documentOf(row);
  const noun = row.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  const amount = displayMoney(row.totalMinor, row.currency);
  const due = row.kind === 'invoice' && row.dueDate ? `, due on ${row.dueDate}` : '';
  await app.mailer.send({
    to,
    subject: `${note ? 'Reminder: ' : ''}${noun} ${row.number} from ${document.seller.name}`,
    text: `Hello ${document.buyer.name},\n\n${note}${noun.toLowerCase()} ${row.number} of ${amount}${due} is attached.\n\n${document.seller.name}\n`,
    key,
    attachments: [
      {
        filename: downloadName(row, 'pdf'),
        content: await invoicePdf(app, row),
        contentType: 'application/pdf',
      },
    ],
  });
}

export async function mailInvoice(app: MailApp, viewer: RouteViewer, actor: Actor, id: string, to?: string) {
  const row = await findInvoice(app.db, viewer, id);
  if (!row.number) throw new HttpError(409, 'Issue it first: a draft has no number.', 'INVOICE_NOT_ISSUED');
  const address = to ?? row.buyerEmail;
  if (!address) throw new HttpError(400, 'The buyer has no e-mail address: enter one.', 'NO_ADDRESS');
  await sendInvoiceMail(app, row, address, `invoice-${row.id}-${Date.now()}`);
  await recordAudit(app.db, { subject: { type: 'invoice', id }, actor, action: 'mailed', note: address });
}
