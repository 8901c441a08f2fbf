// A contact's subscription state and the address suppression list (email_unsubscribes) change together:
// whoever unsubscribes an address (the link in a mail, the one-click header, a staff member) or learns
// that it bounces goes through here, so a contact is never shown subscribed while its address is
// suppressed, and the contact's timeline says when and how.
import { and, eq, sql } from 'drizzle-orm';
import type { UnsubscribeMethod } from '../../../contracts/marketing';
import type { Db, Tx } from '../../db/client';
import { contacts, emailUnsubscribes } from '../../db/schema';
import { type Actor, NO_ACTOR, recordAudit, recordAuditEntries } from '../../lib/audit';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Idempotent: unsubscribing twice keeps the first date and method. */
export async function unsubscribeAddress(
  db: Db,
  email: string,
  method: UnsubscribeMethod,
  actor: Actor = NO_ACTOR,
): Promise<void> {
  const address = normalizeEmail(email);
  await db.transaction(async (tx) => {
    await tx.insert(emailUnsubscribes).values({ email: address }).onConflictDoNothing();
    const changed = await tx
      .update(contacts)
      .set({
        subscription: 'unsubscribed',
        unsubscribedAt: sql`now()`,
        unsubscribeMethod: method,
        version: sql`${contacts.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(contacts.email, address), eq(contacts.subscription, 'subscribed')))
      .returning({ id: contacts.id });
    await recordAuditEntries(
      tx,
      changed.map(({ id }) => ({
        subject: { type: 'contact', id },
        actor,
        action: 'unsubscribed',
        note: unsubscribeNotes[method],
        changes: [{ field: 'subscription', before: 'subscribed', after: 'unsubscribed' }],
      })),
    );
  });
}

const unsubscribeNotes: Record<UnsubscribeMethod, string> = {
  link: 'Through the unsubscribe link in a mail',
  one_click: 'Through the one-click unsubscribe of a mail client',
  staff: 'By a staff member',
};

/**
 * A permanent refusal (5xx) of the contact's address: never mailed again. Runs inside the send job's
 * transaction that records the recipient's failure.
 */
export async function markBounced(
  tx: Tx,
  contactId: string,
  reason: string,
  campaignId: string | null,
): Promise<void> {
  const changed = await tx
    .update(contacts)
    .set({
      subscription: 'bounced',
      bouncedAt: sql`now()`,
      bounceReason: reason.slice(0, 500),
      version: sql`${contacts.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(contacts.id, contactId), sql`${contacts.subscription} <> 'bounced'`))
    .returning({ id: contacts.id });
  if (changed.length) {
    await recordAudit(tx, {
      subject: { type: 'contact', id: contactId },
      actor: NO_ACTOR,
      action: 'bounced',
      related: campaignId ? { type: 'campaign', id: campaignId } : null,
      note: reason.slice(0, 500),
      changes: [{ field: 'subscription', before: null, after: 'bounced' }],
    });
  }
}
