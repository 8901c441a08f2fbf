import { and, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../../contracts/domain/ids';
import type { Db } from '../../db/client';
import { campaignRecipients, campaigns, contacts, emailResponses, emailUnsubscribes } from '../../db/schema';
import { NO_ACTOR, recordAudit } from '../../lib/audit';
import { normalizeEmail, unsubscribeAddress } from '../contacts/subscription';

/** Idempotent: unsubscribing twice keeps the first date. The address's contact is unsubscribed too. */
export async function unsubscribe(
  db: Db,
  email: string,
  method: 'link' | 'one_click' = 'link',
): Promise<void> {
  await unsubscribeAddress(db, email, method);
}

/** Whether marketing mail to this address must be skipped. */
export async function isUnsubscribed(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: emailUnsubscribes.email })
    .from(emailUnsubscribes)
    .where(eq(emailUnsubscribes.email, normalizeEmail(email)));
  return row !== undefined;
}

/**
 * The answers a campaign's mail offers and their wording per template language, or null when there is
 * no such campaign (deleted, made up).
 */
export async function campaignAnswers(
  db: Db,
  campaign: string,
): Promise<{ options: string[]; labels: Partial<Record<string, string[]>> } | null> {
  if (!isUuid(campaign)) return null;
  const [row] = await db
    .select({ options: campaigns.responseOptions, labels: campaigns.responseLabels })
    .from(campaigns)
    .where(eq(campaigns.id, campaign));
  return row ?? null;
}

/** The template language a campaign mailed this address in, or null (not a recipient). */
export async function recipientLanguage(db: Db, campaign: string, email: string): Promise<string | null> {
  const [row] = await db
    .select({ language: campaignRecipients.language })
    .from(campaignRecipients)
    .where(
      and(eq(campaignRecipients.campaignId, campaign), eq(campaignRecipients.email, normalizeEmail(email))),
    )
    .limit(1);
  return row?.language ?? null;
}

/**
 * The campaign's own spelling of an answer (case and surrounding spaces ignored), or null when the
 * campaign does not offer it: a link's `response` is user text, and anything else would show up as a
 * new answer category on the campaign page and the dashboard.
 */
export function offeredAnswer(options: readonly string[], response: string): string | null {
  const wanted = response.trim().toLowerCase();
  return options.find((option) => option.toLowerCase() === wanted) ?? null;
}

/** The recipient's recorded answer to a campaign, if any. */
export async function currentAnswer(db: Db, email: string, campaign: string): Promise<string | null> {
  const [row] = await db
    .select({ response: emailResponses.response })
    .from(emailResponses)
    .where(and(eq(emailResponses.email, normalizeEmail(email)), eq(emailResponses.campaign, campaign)));
  return row?.response ?? null;
}

/**
 * Records a recipient's answer to a campaign; a second answer replaces the first. The address's contact
 * gets it on its timeline.
 */
export async function recordResponse(
  db: Db,
  answer: { email: string; campaign: string; response: string; comment?: string | undefined },
): Promise<void> {
  const comment = answer.comment ? answer.comment : null;
  const email = normalizeEmail(answer.email);
  await db.transaction(async (tx) => {
    await tx
      .insert(emailResponses)
      .values({ ...answer, email, comment })
      .onConflictDoUpdate({
        target: [emailResponses.email, emailResponses.campaign],
        set: { response: answer.response, comment, updatedAt: sql`now()` },
      });
    const [contact] = await tx.select({ id: contacts.id }).from(contacts).where(eq(contacts.email, email));
    if (contact) {
      await recordAudit(tx, {
        subject: { type: 'contact', id: contact.id },
        actor: NO_ACTOR,
        action: 'responded',
        related: isUuid(answer.campaign) ? { type: 'campaign', id: answer.campaign } : null,
        note: comment ? `${answer.response}: ${comment}` : answer.response,
      });
    }
  });
}
