// A contact's timeline (the contact page, and SPEC §7's getContactHistory): its audit trail entries
// (created, edited with field changes, imported, mailed, bounced, unsubscribed, responded) and the help
// chats, customer queries and offers linked to it, newest first, a page at a time. Each source is read through
// its contact index; the union is small (one person's life), so it is sorted and paged in one query.
import { eq, type SQL, sql } from 'drizzle-orm';
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

/** A call's line: "Call +919…: completed, 3 min — feedback 4/5: clear answer". */
const CALL_NOTE = sql`'Call ' || c.phone_number || ': ' || c.call_status
  || CASE WHEN c.duration_seconds > 0 THEN ', ' || ceil(c.duration_seconds / 60.0)::integer || ' min' ELSE '' END
  || CASE WHEN c.feedback_rating IS NOT NULL THEN ' — feedback ' || c.feedback_rating || '/5' ELSE '' END
  || CASE WHEN coalesce(c.feedback_text, '') <> '' THEN ': ' || left(c.feedback_text, 200) ELSE '' END`;

/**
 * `sellerId` scopes the timeline to one shop (a seller on a query's page): only that shop's chats,
 * queries, offers and calls, without the marketplace's own marketing trail. Absent, everything.
 */
export async function contactTimeline(
  db: Db,
  id: string,
  page: { skip: number; limit: number },
  scope: { sellerId?: string } = {},
): Promise<ContactTimeline> {
  const [contact] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, id));
  if (!contact) throw contactNotFound();
  const shop = (column: SQL) => (scope.sellerId ? sql`AND ${column} = ${scope.sellerId}::uuid` : sql``);
  const trail = scope.sellerId
    ? sql``
    : sql`SELECT h.*, NULL::text AS link FROM (${auditRowsSql({ type: 'contact', id })}) h UNION ALL`;
  const entries = sql`
    ${trail}
    SELECT s.id::text AS id, s.created_at AS at, NULL::text AS actor_id, s.name AS actor_name,
           'help_chat' AS action, '[]'::jsonb AS changes,
           'Help chat with ' || coalesce(sel.seller_name, 'a seller') || ': ' || left(s.last_message, 200) AS note,
           NULL::text AS related_id, '/customers/help-chats?chatId=' || s.id::text AS link
    FROM chat_sessions s LEFT JOIN sellers sel ON sel.id = s.seller_id
    WHERE s.contact_id = ${id}::uuid ${shop(sql`s.seller_id`)}
    UNION ALL
    SELECT q.id::text, q.created_at, NULL, q.customer_name, 'customer_query', '[]'::jsonb,
           'Q-' || q.number || ' ' || q.subject || ' (' || CASE q.status
             WHEN 'waiting' THEN 'waiting for customer' ELSE q.status END || ', ' || q.channel || ')',
           NULL, '/queries/query?id=' || q.id::text
    FROM customer_queries q WHERE q.contact_id = ${id}::uuid ${shop(sql`q.seller_id`)}
    UNION ALL
    SELECT c.id::text, coalesce(c.started_at, c.created_at), c.owner_id::text, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), 'call',
           '[]'::jsonb, ${CALL_NOTE}, NULL, '/calls/call-history?callId=' || c.id::text
    FROM customer_queries q JOIN call_logs c ON c.id = q.source_call_id LEFT JOIN users u ON u.id = c.owner_id
    WHERE q.contact_id = ${id}::uuid ${shop(sql`q.seller_id`)}
    UNION ALL
    SELECT o.id::text, o.created_at, NULL, o.customer_name, 'offer', '[]'::jsonb,
           o.number || '|' || o.status || '|' || coalesce(o.currency, '') || '|' || coalesce(o.total_minor::text, ''),
           NULL, '/customers/offer?id=' || o.id::text
    FROM offers o WHERE o.contact_id = ${id}::uuid ${shop(sql`o.seller_id`)}`;
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
