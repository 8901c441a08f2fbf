// Replying to a query by e-mail from a marketing template, and the customer's answer through the signed
// link that mail carries (issue 30). The link is an HMAC of the query's id under the mail-link secret,
// so it answers only that query and needs no account. The customer's answer lands in the thread and,
// per the snooze rule, reopens the query (or lets it sleep on: FreeScout #3584).
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { QueryStatus } from '../../../contracts/domain/query-status';
import { queryPageLink } from '../../../contracts/queries';
import { customerQueries } from '../../db/schema';
import type { Actor } from '../../lib/audit';
import { escapeHtml } from '../../lib/escape-html';
import { HttpError } from '../../lib/http-error';
import { safeEqual } from '../../lib/secrets';
import { splitName } from '../contacts/link';
import { renderTemplate } from '../mail-templates/render';
import { readTemplate } from '../mail-templates/templates';
import { queryAnswerers } from './announce';
import { act, findVisible, moveTo, type SlaSettings, type Viewer } from './repository';

export interface ReplyLinks {
  secret: string;
  publicUrl: string;
}

/** The public page where the customer answers (the SPA's /query-reply). */
export const REPLY_PAGE = '/query-reply';

const sign = (secret: string, queryId: string) =>
  createHmac('sha256', secret).update(`query-reply\n${queryId}`).digest('base64url');

export function replyUrl(links: ReplyLinks, queryId: string): string {
  return `${links.publicUrl}${REPLY_PAGE}?${new URLSearchParams({ query: queryId, token: sign(links.secret, queryId) })}`;
}

const badLink = () =>
  new HttpError(404, 'This reply link is not valid. Use the link in our latest mail.', 'REPLY_LINK_INVALID');

function verify(links: ReplyLinks, queryId: string, token: string) {
  if (!safeEqual(sign(links.secret, queryId), token)) throw badLink();
}

/** Mails the customer the template rendered for them, records it in the thread, waits for their answer. */
export async function replyFromTemplate(
  app: FastifyInstance,
  links: ReplyLinks,
  viewer: Viewer,
  actor: Actor,
  queryId: string,
  input: { templateId: string; language?: string; note: string },
  sla: SlaSettings,
) {
  const query = await findVisible(app.db, viewer, queryId);
  if (query.status === 'closed')
    throw new HttpError(409, 'A closed query cannot be answered.', 'QUERY_FINISHED');
  const template = await readTemplate(app.db, input.templateId);
  const variant =
    template.variants.find((v) => v.language === input.language) ??
    template.variants.find((v) => v.language === 'EN') ??
    template.variants[0];
  if (!variant) throw new HttpError(400, 'This template has no text yet.', 'TEMPLATE_EMPTY');
  const { firstName, lastName } = splitName(query.customerName);
  const mail = renderTemplate(
    { subject: variant.subject, html: variant.html, text: variant.text ?? '' },
    {
      firstName,
      lastName,
      fullName: query.customerName,
      email: query.email,
      company: '',
      companyType: '',
      country: '',
    },
  );
  const link = replyUrl(links, queryId);
  const note = input.note.trim();
  const text = [note, mail.text, `Answer us here: ${link}`].filter(Boolean).join('\n\n');
  const html = `${note ? `<p>${escapeHtml(note)}</p>` : ''}${mail.html}<p><a href="${escapeHtml(link)}">Answer us here</a></p>`;
  const subject = `${mail.subject} [Q-${query.number}]`;
  await app.mailer.send({ to: query.email, subject, text, html });
  const now = new Date();
  await act(app.db, viewer, actor, queryId, sla, now, (row) => {
    const set: Record<string, unknown> = {};
    const events = [];
    if (!row.firstResponseAt) set.firstResponseAt = now;
    if (row.status !== 'waiting') {
      const move = moveTo(row, 'waiting', now);
      Object.assign(set, move.set);
      events.push(move.event);
    }
    events.push({
      kind: 'message_out' as const,
      body: text,
      data: { subject, templateId: input.templateId },
    });
    return { set, events };
  });
}

/** What the reply page shows before the customer writes. */
export async function replyPage(app: FastifyInstance, links: ReplyLinks, queryId: string, token: string) {
  verify(links, queryId, token);
  const [query] = await app.db.select().from(customerQueries).where(eq(customerQueries.id, queryId));
  if (!query) throw badLink();
  return {
    number: query.number,
    subject: query.subject,
    customerName: query.customerName,
    /** A closed query takes no more answers; the page says so. */
    open: query.status !== 'closed',
  };
}

/** The customer's answer: into the thread; it reopens the query unless its snooze says stay snoozed. */
export async function customerReply(
  app: FastifyInstance,
  links: ReplyLinks,
  input: { query: string; token: string; message: string },
  sla: SlaSettings,
) {
  verify(links, input.query, input.token);
  const [query] = await app.db.select().from(customerQueries).where(eq(customerQueries.id, input.query));
  if (!query) throw badLink();
  if (query.status === 'closed') {
    throw new HttpError(409, 'This query is closed. Please send us a new enquiry.', 'QUERY_CLOSED');
  }
  const customer: Actor = { id: null, name: query.customerName };
  const now = new Date();
  // The customer sees every query of theirs: act as a viewer of all, scoped by the verified link.
  const viewer: Viewer = { userId: '', sellerId: null, isSeller: false };
  await act(app.db, viewer, customer, input.query, sla, now, (row) => {
    const status = row.status as QueryStatus;
    const staysSnoozed = row.snoozedUntil !== null && !row.snoozeReopenOnReply;
    const set: Record<string, unknown> = {};
    const events = [];
    if ((status === 'waiting' || status === 'resolved') && !staysSnoozed) {
      const move = moveTo(row, 'open', now);
      Object.assign(set, move.set);
      events.push(move.event);
    }
    events.push({ kind: 'message_in' as const, body: input.message, data: { via: 'reply-link' } });
    return { set, events };
  });
  // The assignee hears of it; a query nobody holds tells whoever answers the shop's queries.
  const told = query.assigneeId ? [query.assigneeId] : await queryAnswerers(app, query.sellerId);
  for (const userId of told) {
    await app.notifications.notify(userId, {
      type: 'customer-query',
      title: `Customer replied: Q-${query.number} ${query.subject}`.slice(0, 200),
      body: input.message.slice(0, 200),
      link: queryPageLink(query.id),
    });
  }
}
