import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailResponses, emailUnsubscribes } from '../../db/schema';

/** Idempotent: unsubscribing twice keeps the first date. */
export async function unsubscribe(db: Db, email: string): Promise<void> {
  await db.insert(emailUnsubscribes).values({ email }).onConflictDoNothing();
}

/** Whether marketing mail to this address must be skipped. */
export async function isUnsubscribed(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: emailUnsubscribes.email })
    .from(emailUnsubscribes)
    .where(eq(emailUnsubscribes.email, email.trim().toLowerCase()));
  return row !== undefined;
}

/** Records a recipient's answer to a campaign; a second answer replaces the first. */
export async function recordResponse(
  db: Db,
  answer: { email: string; campaign: string; response: string; comment?: string | undefined },
): Promise<void> {
  const comment = answer.comment ? answer.comment : null;
  await db
    .insert(emailResponses)
    .values({ ...answer, comment })
    .onConflictDoUpdate({
      target: [emailResponses.email, emailResponses.campaign],
      set: { response: answer.response, comment, updatedAt: sql`now()` },
    });
}
