// What a campaign page and the composer read: the live audience count, the recipients with their
// state, the answers collected and the contacts who left after being mailed.
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AudienceCount, Recipient } from '../../../contracts/campaigns';
import type { RecipientState } from '../../../contracts/marketing';
import { normalizeText, type QueryTree } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { campaignRecipients, campaigns, contacts } from '../../db/schema';
import { compileContactQuery, contactSearchCondition, mailableContact } from '../contacts/audience';
import { campaignNotFound } from './campaigns';
import { leftAfterThisMail } from './unsubscribes';

const nameOf = sql<string>`trim(${contacts.firstName} || ' ' || ${contacts.lastName})`;

/**
 * The composer's live count: how many contacts the audience matches and how many of them would be
 * mailed, in one pass over the matching contacts (the compiled query uses the contacts' indexes), and
 * the five newest mailable ones as a sample.
 */
export async function audienceCount(
  db: Db,
  audience: { query: QueryTree; search: string },
): Promise<AudienceCount> {
  const where = compileContactQuery(audience.query, audience.search);
  const [counted] = rowsOf<{ matching: number; mailable: number }>(
    await db.execute(sql`SELECT count(*)::int AS matching,
      count(*) FILTER (WHERE ${mailableContact})::int AS mailable
      FROM contacts WHERE ${where}`),
  );
  const sample = await db
    .select({ id: contacts.id, name: nameOf, email: contacts.email, language: contacts.language })
    .from(contacts)
    .where(and(where, mailableContact))
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(5);
  return { matching: counted?.matching ?? 0, mailable: counted?.mailable ?? 0, sample };
}

async function assertCampaign(db: Db, id: string) {
  const [row] = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.id, id));
  if (!row) throw campaignNotFound();
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function listRecipients(
  db: Db,
  id: string,
  query: { skip: number; limit: number; state?: RecipientState; query: string },
): Promise<{ result: Recipient[]; count: number }> {
  await assertCampaign(db, id);
  const conditions: SQL[] = [eq(campaignRecipients.campaignId, id)];
  if (query.state) conditions.push(eq(campaignRecipients.state, query.state));
  const text = normalizeText(query.query);
  if (text) conditions.push(contactSearchCondition(text));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        contactId: campaignRecipients.contactId,
        name: nameOf,
        email: campaignRecipients.email,
        language: campaignRecipients.language,
        state: campaignRecipients.state,
        attempts: campaignRecipients.attempts,
        lastError: campaignRecipients.lastError,
        sentAt: campaignRecipients.sentAt,
        nextAttemptAt: campaignRecipients.nextAttemptAt,
      })
      .from(campaignRecipients)
      .innerJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
      .where(where)
      .orderBy(campaignRecipients.email, campaignRecipients.contactId)
      .offset(query.skip)
      .limit(query.limit),
    text
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(campaignRecipients)
          .innerJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
          .where(where)
      : db.select({ n: sql<number>`count(*)::int` }).from(campaignRecipients).where(where),
  ]);
  return {
    result: rows.map((row) => ({ ...row, sentAt: iso(row.sentAt), nextAttemptAt: iso(row.nextAttemptAt) })),
    count: total?.n ?? 0,
  };
}

/** The answers to the campaign's mail, newest first, with the contact's name where there is one. */
export async function listResponses(db: Db, id: string, page: { skip: number; limit: number }) {
  await assertCampaign(db, id);
  const [rows, counted] = await Promise.all([
    db.execute(sql`SELECT r.email, coalesce(trim(c.first_name || ' ' || c.last_name), '') AS name,
        r.response, r.comment, r.updated_at AS at
      FROM email_responses r LEFT JOIN contacts c ON c.email = r.email
      WHERE r.campaign = ${id}
      ORDER BY r.updated_at DESC, r.email
      OFFSET ${page.skip} LIMIT ${page.limit}`),
    db.execute(sql`SELECT count(*)::int AS n FROM email_responses WHERE campaign = ${id}`),
  ]);
  return {
    result: rowsOf<{
      email: string;
      name: string;
      response: string;
      comment: string | null;
      at: Date | string;
    }>(rows).map((row) => ({ ...row, at: new Date(row.at).toISOString() })),
    count: rowsOf<{ n: number }>(counted)[0]?.n ?? 0,
  };
}

/**
 * The contacts this campaign is credited with losing (unsubscribes.ts: they left after its mail, before
 * any later one), by whatever way they left (its links, the one-click header, …).
 */
export async function listUnsubscribes(db: Db, id: string, page: { skip: number; limit: number }) {
  await assertCampaign(db, id);
  const from = sql`FROM campaign_recipients r JOIN contacts c ON c.id = r.contact_id
    WHERE r.campaign_id = ${id} AND ${leftAfterThisMail}`;
  const [rows, counted] = await Promise.all([
    db.execute(sql`SELECT c.email, trim(c.first_name || ' ' || c.last_name) AS name,
        c.unsubscribe_method AS method, c.unsubscribed_at AS at
      ${from} ORDER BY c.unsubscribed_at DESC, c.email OFFSET ${page.skip} LIMIT ${page.limit}`),
    db.execute(sql`SELECT count(*)::int AS n ${from}`),
  ]);
  return {
    result: rowsOf<{ email: string; name: string; method: string | null; at: Date | string }>(rows).map(
      (row) => ({
        ...row,
        at: new Date(row.at).toISOString(),
      }),
    ),
    count: rowsOf<{ n: number }>(counted)[0]?.n ?? 0,
  };
}
