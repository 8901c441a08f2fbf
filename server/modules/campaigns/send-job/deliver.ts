// The send job's step 2 (send-job.ts): a claimed chunk's mails go out, outside any transaction,
// throttled to the campaign's rate, each ending as an outcome: sent, deferred (a temporary refusal,
// retried later) or failed. A recipient is sent only once the transport accepted its mail.
import type { TemplateValues } from '../../../../contracts/mail-templates';
import { JobFailure } from '../../../jobs/worker';
import { templateValuesOf } from '../../mail-templates/values';
import type { CampaignRow } from '../campaigns';
import { type ComposeContext, composeCampaignMail, type StoredVariant } from '../compose';
import { templateVariants, variantFor } from '../template-variants';
import { TokenBucket } from '../token-bucket';
import type { Claimed, Outcome, SendRun, SendSettings } from './run-state';

/** Backoff of a temporary refusal: base · 2^(attempts − 1), capped. */
export function retryDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

/** How a refusal is treated: SMTP 5xx is permanent (the address bounces); 4xx and anything else (a
 * connection refused, a timeout, a full disk) is temporary and retried. */
export function classifyError(error: unknown): { permanent: boolean; reason: string } {
  const failure = error as { responseCode?: unknown; response?: unknown; message?: unknown };
  const reason = String(
    typeof failure?.response === 'string' && failure.response
      ? failure.response
      : (failure?.message ?? error),
  ).slice(0, 500);
  const code = typeof failure?.responseCode === 'number' ? failure.responseCode : null;
  return { permanent: code !== null && code >= 500 && code < 600, reason };
}

/** Sends a chunk, at most `concurrency` mails in flight; the outcomes in the order they settled. */
export async function deliverChunk(run: SendRun, campaign: CampaignRow, rows: Claimed[]): Promise<Outcome[]> {
  const { settings } = run;
  run.variants ??= await loadVariants(settings, campaign);
  if (!run.bucket || run.bucket.rate !== campaign.ratePerSecond)
    run.bucket = new TokenBucket(campaign.ratePerSecond);
  const { variants, bucket } = run;
  const compose: ComposeContext = {
    links: settings.links,
    campaignId: run.campaignId,
    responseOptions: campaign.responseOptions,
    responseLabels: campaign.responseLabels,
    // Asked per chunk: a sender changed in Settings → Communication mid-campaign is followed at once.
    fromAddress: await settings.mailer.senderAddress(),
    messageIdHost: settings.messageIdHost,
  };
  const outcomes: Outcome[] = [];
  const inFlight = new Set<Promise<void>>();
  for (const row of rows) {
    await bucket.take();
    const variant = variantFor(variants, row.language, campaign.fallbackLanguage) as StoredVariant;
    const sending = deliverOne(settings, compose, variant, row).then((outcome) => {
      outcomes.push(outcome);
      inFlight.delete(sending);
    });
    inFlight.add(sending);
    if (inFlight.size >= settings.concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return outcomes;
}

/** The template's versions, read once per run (a run renders thousands of mails from a handful). */
async function loadVariants(
  settings: SendSettings,
  campaign: CampaignRow,
): Promise<Map<string, StoredVariant>> {
  if (!campaign.templateId) throw new JobFailure('The campaign’s template was deleted.', true);
  const variants = await templateVariants(settings.db, campaign.templateId);
  if (variants.size === 0) throw new JobFailure('The campaign’s template was deleted.', true);
  return variants;
}

async function deliverOne(
  settings: SendSettings,
  compose: ComposeContext,
  variant: StoredVariant,
  row: Claimed,
): Promise<Outcome> {
  const attempts = row.attempts + 1;
  try {
    const values: TemplateValues = templateValuesOf({
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      company: row.company,
      companyType: row.company_type,
      country: row.country,
    });
    await settings.mailer.send(
      composeCampaignMail(compose, variant, { email: row.email, values, messageKey: row.message_key }),
    );
    return outcomeOf(row, attempts, { state: 'sent' });
  } catch (error) {
    return refusalOutcome(settings, row, attempts, classifyError(error));
  }
}

/** A refused mail: failed (and bounced) when permanent or out of attempts, else deferred with backoff. */
function refusalOutcome(
  settings: SendSettings,
  row: Claimed,
  attempts: number,
  { permanent, reason }: { permanent: boolean; reason: string },
): Outcome {
  if (permanent) return outcomeOf(row, attempts, { state: 'failed', error: reason, bounced: true });
  if (attempts >= settings.maxAttempts)
    return outcomeOf(row, attempts, {
      state: 'failed',
      error: `Gave up after ${attempts} attempts: ${reason}`,
    });
  return outcomeOf(row, attempts, {
    state: 'deferred',
    error: reason,
    delay_ms: retryDelay(attempts, settings.retryBaseMs, settings.maxRetryDelayMs),
  });
}

function outcomeOf(
  row: Claimed,
  attempts: number,
  result: Pick<Outcome, 'state'> & Partial<Pick<Outcome, 'error' | 'delay_ms' | 'bounced'>>,
): Outcome {
  return {
    contact_id: row.contact_id,
    state: result.state,
    attempts,
    delay_ms: result.delay_ms ?? null,
    error: result.error ?? null,
    bounced: result.bounced ?? false,
  };
}
