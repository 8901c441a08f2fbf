import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactHistory, contacts, emailResponses, emailUnsubscribes } from '../../db/schema';
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
      await tx.insert(contactHistory).values({
        contactId: contact.id,
        action: 'responded',
        campaignId: UUID.test(answer.campaign) ? answer.campaign : null,
        note: comment ? `${answer.response}: ${comment}` : answer.response,
      });
    }
  });
}
