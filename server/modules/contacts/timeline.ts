// A contact's timeline (the contact page, and SPEC §7's getContactHistory): its audit trail entries
// (created, edited with field changes, imported, mailed, bounced, unsubscribed, responded) and the help
// chats, customer queries and offers linked to it, newest first, a page at a time. Each source is read through
// its contact index; the union is small (one person's life), so it is sorted and paged in one query.
import { eq, sql } from 'drizzle-orm';
import type { ContactTimeline } from '../../../contracts/contacts';
import { minorToDecimal } from '../../../contracts/domain/offer-pricing';
import { type OfferStatus, offerStatusLabels } from '../../../contracts/domain/offer-status';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { contacts } from '../../db/schema';
import { type AuditSqlRow, auditEntryOfSqlRow, auditRowsSql } from '../../lib/audit';
import { offerReference } from '../offers/requests';
import { contactNotFound } from './repository';

/** An offer on the timeline: "Offer OFR-12 (offered, EUR 97.20)", the total with its currency's digits. */
function offerNote(raw: string | null): string {
  const [number = '', status = '', currency = '', total = ''] = (raw ?? '').split('|');
  const label = offerStatusLabels[status as OfferStatus] ?? status;
  const amount = currency && total ? `, ${currency} ${minorToDecimal(Number(total), currency)}` : '';
  return `Offer ${offerReference(Number(number))} (${label.toLowerCase()}${amount})`;
}

interface RawEntry extends AuditSqlRow {
  related_id: string | null;
  link: string | null;
}

export async function contactTimeline(
  db: Db,
  id: string,
  page: { skip: number; limit: number },
): Promise<ContactTimeline> {
  const [contact] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, id));
  if (!contact) throw contactNotFound();
  const entries = sql`
    SELECT h.*, NULL::text AS link FROM (${auditRowsSql({ type: 'contact', id })}) h
    UNION ALL
    SELECT s.id::text, s.created_at, NULL, s.name, 'help_chat', '[]'::jsonb,
           'Help chat with ' || coalesce(sel.seller_name, 'a seller') || ': ' || left(s.last_message, 200),
           NULL, '/customers/help-chats?chatId=' || s.id::text
    FROM chat_sessions s LEFT JOIN sellers sel ON sel.id = s.seller_id WHERE s.contact_id = ${id}::uuid
    UNION ALL
    SELECT q.id::text, q.created_at, NULL, q.customer_name, 'customer_query', '[]'::jsonb,
           'Q-' || q.number || ' ' || q.subject || ' (' || CASE q.status
             WHEN 'waiting' THEN 'waiting for customer' ELSE q.status END || ', ' || q.channel || ')',
           NULL, '/queries/queries-request/' || q.id::text
    FROM customer_queries q WHERE q.contact_id = ${id}::uuid
    UNION ALL
    SELECT o.id::text, o.created_at, NULL, o.customer_name, 'offer', '[]'::jsonb,
           o.number || '|' || o.status || '|' || coalesce(o.currency, '') || '|' || coalesce(o.total_minor::text, ''),
           NULL, '/customers/offer-requests/' || o.id::text
    FROM offers o WHERE o.contact_id = ${id}::uuid`;
  const [rows, [total]] = await Promise.all([
    db.execute(
      sql`SELECT * FROM (${entries}) e ORDER BY at DESC, id DESC OFFSET ${page.skip} LIMIT ${page.limit}`,
    ),
    db
      .execute(sql`SELECT count(*)::integer AS n FROM (${entries}) e`)
      .then((result) => rowsOf<{ n: number }>(result)),
  ]);
  return {
    result: rowsOf<RawEntry>(rows).map((row) => ({
      ...auditEntryOfSqlRow(row.action === 'offer' ? { ...row, note: offerNote(row.note) } : row),
      campaignId: row.related_id,
      link: row.link,
    })),
    count: total?.n ?? 0,
  };
}
