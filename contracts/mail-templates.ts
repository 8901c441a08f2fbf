// Mail templates (issue 17): a name and one version per template language, each a subject and a body
// written in the rich-text editor with {{variables}}. The server validates the variables, sanitises the
// HTML and generates the plain-text part when a template is saved (server/modules/mail-templates).
import { z } from 'zod';
import { intParam } from './int-param';
import { type TemplateLanguage, templateLanguageLabels, templateLanguages } from './marketing';

/** What a template may say about its recipient. Values are escaped when a mail is rendered. */
export const templateVariables = [
  'firstName',
  'lastName',
  'fullName',
  'email',
  'company',
  'companyType',
  'country',
] as const;
export type TemplateVariable = (typeof templateVariables)[number];
export type TemplateValues = Record<TemplateVariable, string>;

/**
 * `{{ name }}`, or `{{ name | fallback }}`: the fallback is written when the contact has no value
 * (`{{company|your company}}`). Spaces around the name and the fallback are ignored; a fallback holds
 * no braces and no `|`. The one pattern the editor's checks, the server's checks and rendering use.
 */
export const VARIABLE_PATTERN = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\|([^{}|]*))?\}\}/g;
export const FALLBACK_MAX = 100;

/** One `{{…}}` of a text: its variable and its fallback (trimmed; null when it has none). */
export interface VariableUse {
  name: string;
  fallback: string | null;
}

export function variableUses(text: string): VariableUse[] {
  return [...text.matchAll(VARIABLE_PATTERN)].map((match) => ({
    name: match[1] as string,
    fallback: match[2] === undefined ? null : match[2].trim(),
  }));
}

/**
 * What is wrong with a text's fallbacks, or null: an empty one (`{{company|}}`), a long one, or a
 * `{{name|…}}` the pattern cannot read (a brace or a second `|` inside), which would reach the mail as is.
 */
export function fallbackProblem(text: string): string | null {
  for (const use of variableUses(text)) {
    if (use.fallback === '')
      return `Write what {{${use.name}|…}} says when a contact has no value, or remove the |.`;
    if (use.fallback && use.fallback.length > FALLBACK_MAX)
      return `The fallback of {{${use.name}}} must be at most ${FALLBACK_MAX} characters.`;
  }
  const unread = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\|/.exec(text.replace(VARIABLE_PATTERN, ''));
  if (unread) return `The fallback of {{${unread[1]}}} may not contain braces or a second |.`;
  return null;
}

/** The sample contact of the live preview (and of a test mail when the sender is no contact). */
export const sampleTemplateValues: TemplateValues = {
  firstName: 'Asha',
  lastName: 'Rao',
  fullName: 'Asha Rao',
  email: 'asha.rao@example.com',
  company: 'Rao Textiles',
  companyType: 'Retailer',
  country: 'India',
};

/** The variables a text names, in order of first use. */
export function variablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE_PATTERN)].map((match) => match[1] as string))];
}

/** The first variable a text names that templates do not know, or null. */
export function unknownVariable(text: string): string | null {
  const known = new Set<string>(templateVariables);
  return variablesOf(text).find((name) => !known.has(name)) ?? null;
}

export const TEMPLATE_HTML_MAX = 200_000;
export const templateLanguageSchema = z.enum(templateLanguages);

export const templateVariantInputSchema = z.object({
  language: templateLanguageSchema,
  subject: z.string().trim().min(1, 'Write a subject').max(200, 'The subject must be at most 200 characters'),
  html: z.string().max(TEMPLATE_HTML_MAX, 'The body is too long'),
});
export type TemplateVariantInput = z.infer<typeof templateVariantInputSchema>;

const languageName = (language: TemplateLanguage) => templateLanguageLabels[language];

export const templateInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the template').max(120, 'The name must be at most 120 characters'),
    description: z.string().trim().max(500).default(''),
    defaultLanguage: templateLanguageSchema,
    variants: z
      .array(templateVariantInputSchema)
      .min(1, 'Write at least one language')
      .max(templateLanguages.length),
  })
  .superRefine((template, context) => {
    const seen = new Set<string>();
    for (const variant of template.variants) {
      if (seen.has(variant.language)) {
        context.addIssue({
          code: 'custom',
          path: ['variants'],
          message: `${languageName(variant.language)} is there twice`,
        });
      }
      seen.add(variant.language);
    }
    if (!seen.has(template.defaultLanguage)) {
      context.addIssue({
        code: 'custom',
        path: ['defaultLanguage'],
        message: `The default language (${languageName(template.defaultLanguage)}) needs a version`,
      });
    }
  });
export type TemplateInput = z.infer<typeof templateInputSchema>;

export const templateVariantSchema = z.object({
  language: templateLanguageSchema,
  subject: z.string(),
  html: z.string(),
  /** The plain-text part, generated from the HTML when saved. */
  text: z.string(),
  variables: z.array(z.string()),
});
export type TemplateVariant = z.infer<typeof templateVariantSchema>;

export const mailTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  defaultLanguage: templateLanguageSchema,
  version: z.number().int(),
  variants: z.array(templateVariantSchema),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MailTemplate = z.infer<typeof mailTemplateSchema>;

export const templateSummarySchema = mailTemplateSchema
  .omit({ variants: true, version: true })
  .extend({ languages: z.array(templateLanguageSchema), campaigns: z.number().int() });
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const renderedMailSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type RenderedMail = z.infer<typeof renderedMailSchema>;

/** PUT /:id: the whole template as the editor holds it, and the version it was read at. */
export const updateTemplateSchema = templateInputSchema.safeExtend({ version: z.number().int() });

export const templateListQuerySchema = z.object({
  skip: intParam.default(0),
  limit: intParam.min(1).max(100).default(20),
  /** Name contains (case and accents ignored). */
  query: z.string().trim().max(100).default(''),
});
export const templateListSchema = z.object({
  result: z.array(templateSummarySchema),
  count: z.number().int(),
});

/** POST /preview: one version as the editor holds it, rendered for the sample contact or a real one. */
export const templatePreviewInputSchema = z.object({
  language: templateLanguageSchema,
  subject: z.string().max(200, 'The subject must be at most 200 characters'),
  html: z.string().max(TEMPLATE_HTML_MAX, 'The body is too long'),
  contactId: z.uuid('There is no such contact.').optional(),
});
export type TemplatePreviewInput = z.infer<typeof templatePreviewInputSchema>;

/**
 * The rendered mail and what saving would say: unknown variables (saving refuses them) and whether
 * the sanitiser removed anything (a script, an event handler) from the body.
 */
export const templatePreviewSchema = renderedMailSchema.extend({
  warnings: z.array(z.string()),
});
export type TemplatePreview = z.infer<typeof templatePreviewSchema>;

/** The answer of a save: the stored template, and what the server changed in it (see preview). */
export const savedTemplateSchema = mailTemplateSchema.extend({ warnings: z.array(z.string()) });
export type SavedTemplate = z.infer<typeof savedTemplateSchema>;
