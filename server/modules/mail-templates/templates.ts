// Mail templates (issue 17): a name and one version per template language. Saving checks every
// {{variable}}, sanitises the HTML and generates the plain-text part, so what is stored is exactly what
// the send job renders; a stale editor gets 409 naming who saved in between, and a template that a
// campaign in flight still needs cannot be deleted.
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type {
  MailTemplate,
  SavedTemplate,
  TemplateInput,
  TemplatePreview,
  TemplatePreviewInput,
  TemplateSummary,
  TemplateVariantInput,
} from '../../../contracts/mail-templates';
import {
  fallbackProblem,
  sampleTemplateValues,
  unknownVariable,
  variablesOf,
  variableUses,
} from '../../../contracts/mail-templates';
import { type TemplateLanguage, templateLanguageLabels } from '../../../contracts/marketing';
import { normalizeText } from '../../../contracts/query-tree';
import type { Db, Tx } from '../../db/client';
import { campaigns, mailTemplates, mailTemplateVariants } from '../../db/schema';
import type { Actor } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { isUniqueViolation } from '../../lib/pg-errors';
import { missingValueWarnings } from './missing-values';
import { plainTextOf, renderTemplate, sanitizeTemplateHtml } from './render';
import { contactValues } from './values';

type TemplateRow = typeof mailTemplates.$inferSelect;
type VariantRow = typeof mailTemplateVariants.$inferSelect;

/** Campaigns in these states still need their template: it cannot be deleted under them. */
export const CAMPAIGNS_IN_FLIGHT = ['scheduled', 'sending', 'paused'] as const;

export const templateNotFound = () => new HttpError(404, 'There is no such template.', 'TEMPLATE_NOT_FOUND');

const languageName = (language: string) => templateLanguageLabels[language as TemplateLanguage] ?? language;

/**
 * What the sanitiser is about to drop, in words. A body is never refused for it: the editor pastes
 * from web pages and office documents, and refusing a whole mail over an invisible `onclick` would only
 * make people fight the editor. The HTML is stripped (sanitize-html, render.ts) and the answer says so.
 */
function strippedWarnings(language: string, html: string): string[] {
  const where = `the ${languageName(language)} body`;
  const warnings: string[] = [];
  if (/<script\b/i.test(html)) warnings.push(`A script was removed from ${where}.`);
  if (/<(iframe|object|embed|form|input|style|link|meta)\b/i.test(html) || /\son[a-z]+\s*=/i.test(html))
    warnings.push(`Frames, forms, styles and event handlers were removed from ${where}.`);
  if (/(href|src)\s*=\s*["']?\s*(javascript|data|vbscript):/i.test(html))
    warnings.push(`Links to scripts were removed from ${where}.`);
  return warnings;
}

function unknownVariableError(name: string, language: string, part: 'subject' | 'body') {
  return new HttpError(
    400,
    `Unknown variable {{${name}}} in the ${languageName(language)} ${part}. Use one of the listed variables.`,
    'UNKNOWN_VARIABLE',
  );
}

/** A malformed `{{name|fallback}}` in a version's subject or body, as a 400. */
function fallbackError(variant: { language: string; subject: string; html: string }): HttpError | null {
  for (const [part, text] of [
    ['subject', variant.subject],
    ['body', variant.html],
  ] as const) {
    const problem = fallbackProblem(text);
    if (problem)
      return new HttpError(400, `${problem} (the ${languageName(variant.language)} ${part})`, 'BAD_FALLBACK');
  }
  return null;
}

/** A version as stored: sanitised, its text generated, its variables listed; 400 on an unknown variable. */
export function prepareVariant(variant: TemplateVariantInput) {
  const subjectUnknown = unknownVariable(variant.subject);
  if (subjectUnknown) throw unknownVariableError(subjectUnknown, variant.language, 'subject');
  const bodyUnknown = unknownVariable(variant.html);
  if (bodyUnknown) throw unknownVariableError(bodyUnknown, variant.language, 'body');
  const fallback = fallbackError(variant);
  if (fallback) throw fallback;
  const html = sanitizeTemplateHtml(variant.html);
  // Formatting inside a fallback would reach the mail as visible tags: a fallback is text.
  const formatted = variableUses(html).find((use) => use.fallback?.includes('<'));
  if (formatted)
    throw new HttpError(
      400,
      `Format the whole {{${formatted.name}|…}} in the ${languageName(variant.language)} body, not part of its fallback.`,
      'BAD_FALLBACK',
    );
  const text = plainTextOf(html);
  if (!text && !/<img\b/i.test(html))
    throw new HttpError(400, `Write the ${languageName(variant.language)} body.`, 'EMPTY_BODY');
  return {
    row: {
      language: variant.language,
      subject: variant.subject,
      html,
      text,
      variables: variablesOf(`${variant.subject}\n${html}`),
    },
    warnings: strippedWarnings(variant.language, variant.html),
  };
}

const toTemplate = (row: TemplateRow, variants: VariantRow[]): MailTemplate => ({
  id: row.id,
  name: row.name,
  description: row.description,
  defaultLanguage: row.defaultLanguage as TemplateLanguage,
  version: row.version,
  variants: variants.map((variant) => ({
    language: variant.language as TemplateLanguage,
    subject: variant.subject,
    html: variant.html,
    text: variant.text,
    variables: variant.variables,
  })),
  createdByName: row.createdByName,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function variantsOf(db: Db | Tx, templateId: string) {
  return db
    .select()
    .from(mailTemplateVariants)
    .where(eq(mailTemplateVariants.templateId, templateId))
    .orderBy(asc(mailTemplateVariants.language));
}

export async function readTemplate(db: Db | Tx, id: string): Promise<MailTemplate> {
  const [row] = await db.select().from(mailTemplates).where(eq(mailTemplates.id, id));
  if (!row) throw templateNotFound();
  return toTemplate(row, await variantsOf(db, id));
}

/** A page of templates by name, each with its languages and how many campaigns use it. */
export async function listTemplates(
  db: Db,
  query: { skip: number; limit: number; query: string },
): Promise<{ result: TemplateSummary[]; count: number }> {
  const text = normalizeText(query.query);
  // Templates are few (tens, hundreds): a name scan is cheap and needs no index of its own.
  const where = text ? sql`lower(${mailTemplates.name}) LIKE ${containsPattern(text)}` : undefined;
  // Spelled out: drizzle writes a column of the only table unqualified, which a subquery's own
  // tables would capture.
  const templateId = sql.raw('mail_templates.id');
  const [rows, [total]] = await Promise.all([
    db
      .select({
        template: mailTemplates,
        languages: sql<string[]>`coalesce((SELECT array_agg(v.language ORDER BY v.language)
          FROM ${mailTemplateVariants} v WHERE v.template_id = ${templateId}), '{}')`,
        campaigns:
          sql<number>`(SELECT count(*) FROM ${campaigns} c WHERE c.template_id = ${templateId})`.mapWith(
            Number,
          ),
      })
      .from(mailTemplates)
      .where(where)
      .orderBy(asc(sql`lower(${mailTemplates.name})`), asc(mailTemplates.id))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: count() }).from(mailTemplates).where(where),
  ]);
  return {
    result: rows.map(({ template, languages, campaigns: used }) => {
      const { variants: _variants, version: _version, ...summary } = toTemplate(template, []);
      return { ...summary, languages: languages as TemplateLanguage[], campaigns: used };
    }),
    count: total?.n ?? 0,
  };
}

const duplicateName = (name: string) =>
  new HttpError(
    409,
    `A template named “${name}” already exists. Choose another name.`,
    'DUPLICATE_TEMPLATE',
    {
      name: 'This name is taken.',
    },
  );

/** Runs a write, turning the name index's refusal into a 409 that names the clash. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'mail_templates_name_uq')) throw duplicateName(name);
    throw error;
  }
}

function prepareAll(input: TemplateInput) {
  const prepared = input.variants.map(prepareVariant);
  return { rows: prepared.map((entry) => entry.row), warnings: prepared.flatMap((entry) => entry.warnings) };
}

/** What the stored versions leave empty for some contacts (missing-values.ts). */
const holesOf = (db: Db, rows: { subject: string; html: string }[]) =>
  missingValueWarnings(
    db,
    rows.flatMap((row) => [row.subject, row.html]),
  );

export async function createTemplate(db: Db, input: TemplateInput, actor: Actor): Promise<SavedTemplate> {
  const { rows, warnings } = prepareAll(input);
  const id = await uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(mailTemplates)
        .values({
          name: input.name,
          description: input.description,
          defaultLanguage: input.defaultLanguage,
          createdBy: actor.id,
          createdByName: actor.name,
          updatedByName: actor.name,
        })
        .returning({ id: mailTemplates.id });
      if (!row) throw new Error('the template was not stored');
      await tx
        .insert(mailTemplateVariants)
        .values(rows.map((variant) => ({ ...variant, templateId: row.id })));
      return row.id;
    }),
  );
  return { ...(await readTemplate(db, id)), warnings: [...warnings, ...(await holesOf(db, rows))] };
}

/** Replaces the template (name, languages, versions) if it is still at `version`; 409 otherwise. */
export async function updateTemplate(
  db: Db,
  id: string,
  input: TemplateInput & { version: number },
  actor: Actor,
): Promise<SavedTemplate> {
  const { rows, warnings } = prepareAll(input);
  await uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(mailTemplates).where(eq(mailTemplates.id, id)).for('update');
      if (!current) throw templateNotFound();
      if (current.version !== input.version) {
        throw new HttpError(
          409,
          `${current.updatedByName || 'Someone'} changed “${current.name}” after you opened it. Reload it to see their change, then try again.`,
          'STALE_TEMPLATE',
        );
      }
      await assertLanguagesStillServe(tx, id, input);
      await tx
        .update(mailTemplates)
        .set({
          name: input.name,
          description: input.description,
          defaultLanguage: input.defaultLanguage,
          version: current.version + 1,
          updatedByName: actor.name,
          updatedAt: sql`now()`,
        })
        .where(eq(mailTemplates.id, id));
      await tx.delete(mailTemplateVariants).where(eq(mailTemplateVariants.templateId, id));
      await tx.insert(mailTemplateVariants).values(rows.map((variant) => ({ ...variant, templateId: id })));
    }),
  );
  return { ...(await readTemplate(db, id)), warnings: [...warnings, ...(await holesOf(db, rows))] };
}

/**
 * A campaign in flight renders the version it froze for each recipient, falling back to its fallback
 * language: removing that language under it would leave recipients with nothing to send.
 */
async function assertLanguagesStillServe(tx: Tx, id: string, input: TemplateInput) {
  const kept = new Set<string>(input.variants.map((variant) => variant.language));
  const needing = await tx
    .select({ name: campaigns.name, fallbackLanguage: campaigns.fallbackLanguage })
    .from(campaigns)
    .where(and(eq(campaigns.templateId, id), inArray(campaigns.status, [...CAMPAIGNS_IN_FLIGHT])));
  const broken = needing.find((campaign) => !kept.has(campaign.fallbackLanguage));
  if (broken) {
    throw new HttpError(
      409,
      `The campaign “${broken.name}” falls back to the ${languageName(broken.fallbackLanguage)} version. Keep that version until the campaign is sent.`,
      'TEMPLATE_IN_USE',
    );
  }
}

/** Deletes a template no scheduled, sending or paused campaign needs; drafts and sent ones keep their name. */
export async function deleteTemplate(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Locked first: a campaign starting now takes this row in share mode, so it waits for the delete
    // (and then finds no template) or the delete waits for it (and sees it in flight).
    const [current] = await tx
      .select({ id: mailTemplates.id, name: mailTemplates.name })
      .from(mailTemplates)
      .where(eq(mailTemplates.id, id))
      .for('update');
    if (!current) throw templateNotFound();
    const inFlight = await tx
      .select({ name: campaigns.name, status: campaigns.status })
      .from(campaigns)
      .where(and(eq(campaigns.templateId, id), inArray(campaigns.status, [...CAMPAIGNS_IN_FLIGHT])))
      .orderBy(desc(campaigns.createdAt))
      .limit(3);
    if (inFlight.length) {
      const names = inFlight.map((campaign) => `“${campaign.name}” (${campaign.status})`).join(', ');
      throw new HttpError(
        409,
        `“${current.name}” cannot be deleted while campaigns use it: ${names}. Let them finish or delete them first.`,
        'TEMPLATE_IN_USE',
      );
    }
    await tx.delete(mailTemplates).where(eq(mailTemplates.id, id));
  });
}

/** One version as the editor holds it, rendered for the sample contact or a real one. */
export async function previewTemplate(db: Db, input: TemplatePreviewInput): Promise<TemplatePreview> {
  const warnings: string[] = [];
  const subjectUnknown = unknownVariable(input.subject);
  if (subjectUnknown) warnings.push(unknownVariableError(subjectUnknown, input.language, 'subject').message);
  const bodyUnknown = unknownVariable(input.html);
  if (bodyUnknown) warnings.push(unknownVariableError(bodyUnknown, input.language, 'body').message);
  const fallback = fallbackError(input);
  if (fallback) warnings.push(fallback.message);
  warnings.push(...strippedWarnings(input.language, input.html));
  warnings.push(...(await missingValueWarnings(db, [input.subject, input.html])));
  let values = sampleTemplateValues;
  if (input.contactId) {
    const contact = await contactValues(db, { id: input.contactId });
    if (!contact) throw new HttpError(404, 'There is no such contact.', 'CONTACT_NOT_FOUND');
    values = contact.values;
  }
  const html = sanitizeTemplateHtml(input.html);
  return { ...renderTemplate({ subject: input.subject, html, text: plainTextOf(html) }, values), warnings };
}
