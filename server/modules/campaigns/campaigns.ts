// Campaigns (issue 17): a draft names a template, an audience (a contact query) and a fallback language;
// sending freezes the audience (sending.ts) and the send job mails it (send-job.ts). Drafts and
// scheduled campaigns may be edited and deleted; a campaign that started sending is history.
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Campaign, CampaignInput, CampaignSummary } from '../../../contracts/campaigns';
import {
  type CampaignStatus,
  emptyRecipientCounts,
  type RecipientCounts,
  type RecipientState,
  type TemplateLanguage,
  templateLanguageLabels,
} from '../../../contracts/marketing';
import { normalizeText } from '../../../contracts/query-tree';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { campaignRecipients, campaigns, mailTemplates, mailTemplateVariants } from '../../db/schema';
import type { Actor } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { compileContactQuery } from '../contacts/audience';
import { leftAfterThisMail } from './unsubscribes';

export type CampaignRow = typeof campaigns.$inferSelect;
type ParsedInput = Required<Omit<CampaignInput, 'audience'>> & {
  audience: { query: CampaignRow['audience']; search: string };
};

/** Only these may still be edited or deleted: nothing was mailed yet. */
export const EDITABLE: readonly CampaignStatus[] = ['draft', 'scheduled'];

export const campaignNotFound = () => new HttpError(404, 'There is no such campaign.', 'CAMPAIGN_NOT_FOUND');

const languageName = (language: string) => templateLanguageLabels[language as TemplateLanguage] ?? language;

/** The campaign row locked for a change; 404 if it is gone. */
export async function lockCampaign(tx: Tx, id: string): Promise<CampaignRow> {
  const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
  if (!row) throw campaignNotFound();
  return row;
}

/** 409 naming who changed the campaign since the caller read it. */
export function assertVersion(row: CampaignRow, version: number) {
  if (row.version !== version) {
    throw new HttpError(
      409,
      `${row.updatedByName || row.createdByName || 'Someone'} changed “${row.name}” after you opened it. Reload it to see their change, then try again.`,
      'STALE_CAMPAIGN',
    );
  }
}

/**
 * The template's languages, checked for the campaign: it must exist and have the fallback version.
 * `share` locks it until the caller's transaction ends, so it cannot be deleted under a campaign
 * that is being scheduled or started (templates.ts deleteTemplate locks it for update).
 */
export async function templateLanguages(
  tx: Db | Tx,
  templateId: string | null,
  fallbackLanguage: string,
  share = false,
): Promise<string[]> {
  if (!templateId)
    throw new HttpError(400, 'Choose a template: the campaign’s template was deleted.', 'NO_TEMPLATE');
  const select = tx
    .select({ id: mailTemplates.id })
    .from(mailTemplates)
    .where(eq(mailTemplates.id, templateId));
  const [template] = share ? await select.for('share') : await select;
  if (!template) throw new HttpError(400, 'There is no such template. Choose another one.', 'NO_TEMPLATE');
  const languages = (
    await tx
      .select({ language: mailTemplateVariants.language })
      .from(mailTemplateVariants)
      .where(eq(mailTemplateVariants.templateId, templateId))
  ).map((row) => row.language);
  if (!languages.includes(fallbackLanguage)) {
    throw new HttpError(
      400,
      `The template has no ${languageName(fallbackLanguage)} version to fall back on. Choose one of its languages.`,
      'NO_FALLBACK_VERSION',
      { fallbackLanguage: 'The template has no version in this language.' },
    );
  }
  return languages;
}

/** Each language's wording must give every answer, in the answers' order. */
function responseLabelsOf(input: ParsedInput): CampaignRow['responseLabels'] {
  const options = [...new Set(input.responseOptions)];
  const labels: CampaignRow['responseLabels'] = {};
  for (const [language, words] of Object.entries(input.responseLabels) as [TemplateLanguage, string[]][]) {
    if (words.length === 0 || options.length === 0) continue;
    if (words.length !== options.length) {
      const message = `Give the ${languageName(language)} wording of each of the ${options.length} answers, in their order.`;
      throw new HttpError(400, message, 'RESPONSE_LABELS', { responseLabels: message });
    }
    labels[language] = words;
  }
  return labels;
}

function columnsOf(input: ParsedInput) {
  // Compiled once to check it (400 naming the condition that does not fit); compiled again when sent.
  compileContactQuery(input.audience.query, input.audience.search);
  return {
    name: input.name,
    templateId: input.templateId,
    fallbackLanguage: input.fallbackLanguage,
    audience: input.audience.query,
    audienceSearch: input.audience.search,
    audienceViewId: input.audienceViewId,
    responseOptions: [...new Set(input.responseOptions)],
    responseLabels: responseLabelsOf(input),
    ratePerSecond: input.ratePerSecond,
  };
}

export async function createCampaign(db: Db, input: ParsedInput, actor: Actor): Promise<Campaign> {
  const values = columnsOf(input);
  const id = await db.transaction(async (tx) => {
    await templateLanguages(tx, values.templateId, values.fallbackLanguage);
    const [row] = await tx
      .insert(campaigns)
      .values({
        ...values,
        counts: emptyRecipientCounts(),
        createdBy: actor.id,
        createdByName: actor.name,
        updatedByName: actor.name,
      })
      .returning({ id: campaigns.id });
    if (!row) throw new Error('the campaign was not stored');
    return row.id;
  });
  return readCampaign(db, id);
}

export async function updateCampaign(
  db: Db,
  id: string,
  input: ParsedInput & { version: number },
  actor: Actor,
): Promise<Campaign> {
  const values = columnsOf(input);
  await db.transaction(async (tx) => {
    const row = await lockCampaign(tx, id);
    assertVersion(row, input.version);
    if (!EDITABLE.includes(row.status))
      throw new HttpError(
        409,
        `“${row.name}” is ${row.status}: only drafts and scheduled campaigns can be edited.`,
        'NOT_EDITABLE',
      );
    await templateLanguages(tx, values.templateId, values.fallbackLanguage);
    await tx
      .update(campaigns)
      .set({ ...values, version: row.version + 1, updatedByName: actor.name, updatedAt: sql`now()` })
      .where(eq(campaigns.id, id));
  });
  return readCampaign(db, id);
}

/** Drafts and scheduled campaigns only (a scheduled one's job then finds nothing to do). */
export async function deleteCampaign(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockCampaign(tx, id);
    if (!EDITABLE.includes(row.status))
      throw new HttpError(
        409,
        `“${row.name}” is ${row.status}: only drafts and scheduled campaigns can be deleted, a campaign that mailed anyone stays in the history.`,
        'NOT_DELETABLE',
      );
    await tx.delete(campaigns).where(eq(campaigns.id, id));
  });
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The whole counts object, whatever an older row stored. */
const countsOf = (counts: Partial<RecipientCounts> | null): RecipientCounts => ({
  ...emptyRecipientCounts(),
  ...counts,
});

function summaryOf(
  row: CampaignRow,
  templateName: string | null,
  extra: { responses: number; unsubscribes: number },
): CampaignSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    templateId: row.templateId,
    templateName,
    total: row.total,
    counts: countsOf(row.counts),
    responses: extra.responses,
    unsubscribes: extra.unsubscribes,
    scheduledAt: iso(row.scheduledAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Responses and unsubscribes of some campaigns in two grouped queries (not one per row). Unsubscribes
 * as unsubscribes.ts defines them (the dashboard counts the same).
 */
async function engagementOf(db: Db, ids: string[]) {
  const responses = new Map<string, number>();
  const unsubscribes = new Map<string, number>();
  if (ids.length === 0) return { responses, unsubscribes };
  const idArray = `{${ids.join(',')}}`;
  const [answered, left] = await Promise.all([
    db.execute(sql`SELECT campaign AS id, count(*)::int AS n FROM email_responses
      WHERE campaign = ANY(${idArray}::text[]) GROUP BY campaign`),
    // From the unsubscribed contacts (contacts_unsubscribed_idx: a few percent of them) to their
    // recipient rows by primary key, not from the campaign's 100,000 recipients to their contacts.
    db.execute(sql`SELECT r.campaign_id AS id, count(*)::int AS n
      FROM contacts c
      JOIN campaign_recipients r ON r.contact_id = c.id AND r.campaign_id = ANY(${idArray}::uuid[])
      WHERE c.subscription = 'unsubscribed' AND ${leftAfterThisMail}
      GROUP BY r.campaign_id`),
  ]);
  for (const row of rowsOf<{ id: string; n: number }>(answered)) responses.set(row.id, row.n);
  for (const row of rowsOf<{ id: string; n: number }>(left)) unsubscribes.set(row.id, row.n);
  return { responses, unsubscribes };
}

export async function listCampaigns(
  db: Db,
  query: { skip: number; limit: number; status?: CampaignStatus; query: string },
): Promise<{ result: CampaignSummary[]; count: number }> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(campaigns.status, query.status));
  const text = normalizeText(query.query);
  if (text) conditions.push(sql`lower(${campaigns.name}) LIKE ${containsPattern(text)}`);
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ campaign: campaigns, templateName: mailTemplates.name })
      .from(campaigns)
      .leftJoin(mailTemplates, eq(mailTemplates.id, campaigns.templateId))
      .where(where)
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: count() }).from(campaigns).where(where),
  ]);
  const engagement = await engagementOf(
    db,
    rows.map((row) => row.campaign.id),
  );
  return {
    result: rows.map(({ campaign, templateName }) =>
      summaryOf(campaign, templateName, {
        responses: engagement.responses.get(campaign.id) ?? 0,
        unsubscribes: engagement.unsubscribes.get(campaign.id) ?? 0,
      }),
    ),
    count: total?.n ?? 0,
  };
}

/**
 * The languages of a frozen audience, counted once per campaign and process: they never change once
 * the audience is frozen, and counting 100,000 recipients on every read of a sending campaign (the page
 * refreshes every 2 s) took the send job's thread on PGlite.
 */
const frozenLanguages = new Map<string, { language: string; count: number }[]>();
const FROZEN_LANGUAGES_KEPT = 200;

/** The recipients by the template language they get, without those failed or skipped. */
async function recipientLanguages(db: Db, row: CampaignRow): Promise<{ language: string; count: number }[]> {
  const byLanguage = (states?: RecipientState[]) =>
    db
      .select({ language: campaignRecipients.language, count: count() })
      .from(campaignRecipients)
      .where(
        and(
          eq(campaignRecipients.campaignId, row.id),
          states ? inArray(campaignRecipients.state, states) : undefined,
        ),
      )
      .groupBy(campaignRecipients.language)
      .orderBy(asc(campaignRecipients.language));
  // Frozen once it started (a scheduled campaign freezes when its time comes).
  if (!row.startedAt || row.total === 0) return byLanguage(['sent', 'sending', 'queued', 'deferred']);
  const key = `${row.id}@${row.startedAt.toISOString()}`;
  let all = frozenLanguages.get(key);
  if (!all) {
    all = await byLanguage();
    if (frozenLanguages.size >= FROZEN_LANGUAGES_KEPT) {
      const oldest = frozenLanguages.keys().next().value;
      if (oldest !== undefined) frozenLanguages.delete(oldest);
    }
    frozenLanguages.set(key, all);
  }
  // Failed and skipped are final states and few: the state index finds them at once.
  const gone = new Map(
    (await byLanguage(['failed', 'skipped'])).map((entry) => [entry.language, entry.count]),
  );
  return all
    .map((entry) => ({ language: entry.language, count: entry.count - (gone.get(entry.language) ?? 0) }))
    .filter((entry) => entry.count > 0);
}

export async function readCampaign(db: Db, id: string): Promise<Campaign> {
  const [found] = await db
    .select({ campaign: campaigns, templateName: mailTemplates.name })
    .from(campaigns)
    .leftJoin(mailTemplates, eq(mailTemplates.id, campaigns.templateId))
    .where(eq(campaigns.id, id));
  if (!found) throw campaignNotFound();
  const { campaign: row, templateName } = found;
  const [engagement, answers, languages] = await Promise.all([
    engagementOf(db, [id]),
    db.execute(sql`SELECT response, count(*)::int AS count FROM email_responses
      WHERE campaign = ${id} GROUP BY response ORDER BY count(*) DESC, response`),
    recipientLanguages(db, row),
  ]);
  return {
    ...summaryOf(row, templateName, {
      responses: engagement.responses.get(id) ?? 0,
      unsubscribes: engagement.unsubscribes.get(id) ?? 0,
    }),
    version: row.version,
    fallbackLanguage: row.fallbackLanguage as TemplateLanguage,
    audience: { query: row.audience, search: row.audienceSearch },
    audienceViewId: row.audienceViewId,
    responseOptions: row.responseOptions,
    responseLabels: row.responseLabels,
    ratePerSecond: row.ratePerSecond,
    error: row.error,
    responsesByAnswer: rowsOf<{ response: string; count: number }>(answers),
    byLanguage: languages,
  };
}
