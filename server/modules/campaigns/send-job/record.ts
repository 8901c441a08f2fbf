// The outcome transaction of the send job (send-job.ts, step 3): records sent / deferred / failed per
// recipient, the contacts' timelines and bounces, and the campaign's counts — set-based, one statement
// per kind. A recipient row is written once per attempt, here: on PGlite every write of a row rewrites
// it and its index entries, on the one thread that also composes and sends the mails.
import { eq, sql } from 'drizzle-orm';
import { campaigns } from '../../../db/schema';
import { auditInsertFrom, NO_ACTOR } from '../../../lib/audit';
import { markBounced } from '../../contacts/subscription';
import { lockCampaign } from '../campaigns';
import { adjust, type Outcome, type SendRun } from './run-state';

export async function record(run: SendRun, outcomes: Outcome[]) {
  if (outcomes.length === 0) return;
  const { campaignId } = run;
  await run.settings.db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    const json = JSON.stringify(outcomes);
    await tx.execute(sql`
      UPDATE campaign_recipients AS r
      SET state = x.state, attempts = x.attempts,
          next_attempt_at = CASE WHEN x.delay_ms IS NULL THEN NULL ELSE now() + x.delay_ms * interval '1 millisecond' END,
          last_error = x.error,
          sent_at = CASE WHEN x.state = 'sent' THEN now() ELSE r.sent_at END,
          updated_at = now()
      FROM json_to_recordset(${json}::json) AS x(contact_id uuid, state text, attempts integer, delay_ms double precision, error text)
      WHERE r.campaign_id = ${campaignId} AND r.contact_id = x.contact_id`);
    // The contacts' timelines: one row per recipient and outcome, in one statement.
    await tx.execute(
      auditInsertFrom({
        subjectType: 'contact',
        subjectId: sql`x.contact_id`,
        from: sql`json_to_recordset(${json}::json) AS x(contact_id uuid, state text, error text)`,
        actor: NO_ACTOR,
        action: sql`CASE x.state WHEN 'sent' THEN 'mail_sent' WHEN 'deferred' THEN 'mail_deferred' ELSE 'mail_failed' END`,
        related: { type: 'campaign', id: campaignId },
        note: sql`CASE WHEN x.state = 'sent' THEN ${campaign.name} ELSE ${campaign.name} || ': ' || x.error END`,
      }),
    );
    for (const outcome of outcomes)
      if (outcome.bounced) await markBounced(tx, outcome.contact_id, outcome.error ?? 'Refused', campaignId);
    const moves = (['sent', 'deferred', 'failed'] as const).map((to) => ({
      from: 'sending' as const,
      to,
      n: outcomes.filter((outcome) => outcome.state === to).length,
    }));
    await tx
      .update(campaigns)
      .set({ counts: adjust(campaign.counts, moves), updatedAt: sql`now()` })
      .where(eq(campaigns.id, campaignId));
  });
  // Only once the transaction committed: a run that ends early stamps what it sent (finish.ts).
  for (const outcome of outcomes) if (outcome.state === 'sent') run.sentThisRun.push(outcome.contact_id);
}
