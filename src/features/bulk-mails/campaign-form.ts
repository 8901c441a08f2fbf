// The campaign composer's form: what it holds, the input it sends (only complete conditions of the
// audience), the browser's checks, where the server's refusals belong, and the schedule's time.
import {
  type Audience,
  type Campaign,
  type CampaignInput,
  campaignInputSchema,
  MAX_RESPONSE_OPTIONS,
} from '../../../contracts/campaigns';
import type { TemplateLanguage } from '../../../contracts/marketing';
import { emptyQuery, type QueryField, type QueryTree } from '../../../contracts/query-tree';
import { ApiError } from '../../services/api-error';
import { completeConditionsOnly } from '../../ui/query-builder';

export interface CampaignForm {
  name: string;
  templateId: string;
  fallbackLanguage: TemplateLanguage;
  /** The builder's tree, incomplete conditions included. */
  query: QueryTree;
  search: string;
  audienceViewId: string | null;
  responseOptions: string[];
  /** Per template language, the answers' wording, index for index with responseOptions ('' = not given). */
  responseLabels: Partial<Record<TemplateLanguage, string[]>>;
  ratePerSecond: number;
}

export type CampaignErrors = Partial<Record<keyof CampaignForm | 'audience' | 'form', string>>;

export const DEFAULT_RATE = 50;

export const newCampaignForm = (): CampaignForm => ({
  name: '',
  templateId: '',
  fallbackLanguage: 'EN',
  query: emptyQuery(),
  search: '',
  audienceViewId: null,
  responseOptions: [],
  responseLabels: {},
  ratePerSecond: DEFAULT_RATE,
});

export const formOfCampaign = (campaign: Campaign): CampaignForm => ({
  name: campaign.name,
  templateId: campaign.templateId ?? '',
  fallbackLanguage: campaign.fallbackLanguage,
  query: campaign.audience.query,
  search: campaign.audience.search,
  audienceViewId: campaign.audienceViewId,
  responseOptions: [...campaign.responseOptions],
  responseLabels: { ...campaign.responseLabels },
  ratePerSecond: campaign.ratePerSecond,
});

/** The audience as the server reads it: the complete conditions only. */
export const audienceOf = (
  form: Pick<CampaignForm, 'query' | 'search'>,
  fields?: readonly QueryField[],
): Audience => ({
  query: completeConditionsOnly(form.query, fields),
  search: form.search.trim(),
});

export const inputOfForm = (form: CampaignForm, fields?: readonly QueryField[]): CampaignInput => ({
  name: form.name.trim(),
  templateId: form.templateId,
  fallbackLanguage: form.fallbackLanguage,
  audience: audienceOf(form, fields),
  audienceViewId: form.audienceViewId,
  responseOptions: form.responseOptions,
  responseLabels: responseLabelsInput(form),
  ratePerSecond: form.ratePerSecond,
});

/**
 * The wordings to save: a language with no wording given is left out (its mail shows the answers as
 * written), and an answer left blank in a language keeps its own text there.
 */
export function responseLabelsInput(
  form: Pick<CampaignForm, 'responseOptions' | 'responseLabels'>,
): Partial<Record<TemplateLanguage, string[]>> {
  const labels: Partial<Record<TemplateLanguage, string[]>> = {};
  for (const [language, words] of Object.entries(form.responseLabels) as [TemplateLanguage, string[]][]) {
    if (!form.responseOptions.some((_, index) => words[index]?.trim())) continue;
    labels[language] = form.responseOptions.map((option, index) => words[index]?.trim() || option);
  }
  return labels;
}

/** The wordings after the answer at `index` was removed: every language loses its word for it. */
export function withoutAnswerLabel(
  labels: CampaignForm['responseLabels'],
  index: number,
): CampaignForm['responseLabels'] {
  return Object.fromEntries(
    Object.entries(labels).map(([language, words]) => [language, words.filter((_, at) => at !== index)]),
  );
}

const FIELDS = new Set([
  'name',
  'templateId',
  'fallbackLanguage',
  'audience',
  'responseOptions',
  'responseLabels',
  'ratePerSecond',
]);

export function validateCampaignForm(form: CampaignForm): CampaignErrors {
  const errors: CampaignErrors = {};
  const parsed = campaignInputSchema.safeParse(inputOfForm(form));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const head = String(issue.path[0] ?? 'form');
      const key = (FIELDS.has(head) ? head : 'form') as keyof CampaignErrors;
      if (key === 'ratePerSecond') errors.ratePerSecond ??= 'Send between 1 and 2,000 mails a second';
      else errors[key] ??= issue.message;
    }
  }
  return errors;
}

/** A new answer for the response buttons: why it cannot be added, or null when it may. */
export function responseOptionProblem(options: readonly string[], answer: string): string | null {
  const text = answer.trim();
  if (!text) return 'Write the answer first';
  if (text.length > 40) return 'An answer must be at most 40 characters';
  if (options.length >= MAX_RESPONSE_OPTIONS) return `At most ${MAX_RESPONSE_OPTIONS} answers`;
  if (options.some((option) => option.toLowerCase() === text.toLowerCase()))
    return 'That answer is there already';
  return null;
}

/** Where the server's refusal of a save or a send belongs; an empty object: above the form. */
export function serverCampaignErrors(error: unknown): CampaignErrors {
  if (!(error instanceof ApiError)) return {};
  const data = error.data as { fields?: Record<string, string> } | undefined;
  if (data?.fields) {
    const errors: CampaignErrors = {};
    for (const [path, message] of Object.entries(data.fields)) {
      const head = path.split('.')[0] ?? '';
      if (FIELDS.has(head)) errors[head as keyof CampaignErrors] ??= message;
    }
    if (Object.keys(errors).length) return errors;
  }
  switch (error.code) {
    case 'NO_TEMPLATE':
      return { templateId: error.message };
    case 'NO_FALLBACK_VERSION':
      return { fallbackLanguage: error.message };
    default:
      return {};
  }
}

/** The schedule's ISO time, or why it cannot be used. */
export function scheduleOf(local: string, now: Date = new Date()): { at: string } | { problem: string } {
  if (!local) return { problem: 'Choose when to send it' };
  const date = new Date(local);
  if (Number.isNaN(date.getTime())) return { problem: 'Choose a date and a time' };
  if (date.getTime() <= now.getTime() + 60_000)
    return { problem: 'Choose a time at least a minute from now' };
  return { at: date.toISOString() };
}
