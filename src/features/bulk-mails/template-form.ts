// The template editor's form: what it holds, what the browser checks before saving (the contract's
// rules plus unknown {{variables}}, named the way the server names them), and where a refusal from the
// server belongs (the field it is about, or above the form).
import {
  fallbackProblem,
  type MailTemplate,
  type TemplateInput,
  templateInputSchema,
  templateVariables,
  unknownVariable,
} from '../../../contracts/mail-templates';
import {
  type TemplateLanguage,
  templateLanguageLabels,
  templateLanguages,
} from '../../../contracts/marketing';
import { ApiError } from '../../services/api-error';

export interface VariantForm {
  language: TemplateLanguage;
  subject: string;
  html: string;
}

export interface TemplateForm {
  name: string;
  description: string;
  defaultLanguage: TemplateLanguage;
  variants: VariantForm[];
}

/** Where a message shows: `name`, `description`, `defaultLanguage`, `variants`, `subject.EN`, `html.EN`. */
export type TemplateErrors = Record<string, string>;

export const subjectKey = (language: TemplateLanguage) => `subject.${language}`;
export const htmlKey = (language: TemplateLanguage) => `html.${language}`;

export const emptyVariant = (language: TemplateLanguage): VariantForm => ({
  language,
  subject: '',
  html: '',
});

export const newTemplateForm = (language: TemplateLanguage = 'EN'): TemplateForm => ({
  name: '',
  description: '',
  defaultLanguage: language,
  variants: [emptyVariant(language)],
});

export const formOfTemplate = (template: MailTemplate): TemplateForm => ({
  name: template.name,
  description: template.description,
  defaultLanguage: template.defaultLanguage,
  // In the order of the language list, the default first.
  variants: [...template.variants]
    .sort(
      (a, b) =>
        Number(b.language === template.defaultLanguage) - Number(a.language === template.defaultLanguage) ||
        templateLanguages.indexOf(a.language) - templateLanguages.indexOf(b.language),
    )
    .map(({ language, subject, html }) => ({ language, subject, html })),
});

export const inputOfForm = (form: TemplateForm): TemplateInput => ({
  name: form.name.trim(),
  description: form.description.trim(),
  defaultLanguage: form.defaultLanguage,
  variants: form.variants.map((variant) => ({ ...variant, subject: variant.subject.trim() })),
});

/** Languages a version may still be added in. */
export const missingLanguages = (form: TemplateForm): TemplateLanguage[] =>
  templateLanguages.filter((language) => !form.variants.some((variant) => variant.language === language));

const languageName = (language: TemplateLanguage) => templateLanguageLabels[language];
const KNOWN = templateVariables.map((name) => `{{${name}}}`).join(', ');

export const unknownVariableMessage = (name: string) => `Unknown variable {{${name}}}. Use one of ${KNOWN}.`;

/** True when the HTML shows nothing: no text and no image. */
export function isBlankHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

/** The browser's checks before saving; an empty object means the form may be sent. */
export function validateTemplateForm(form: TemplateForm): TemplateErrors {
  const errors: TemplateErrors = {};
  const parsed = templateInputSchema.safeParse(inputOfForm(form));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, index, part] = issue.path;
      let key = String(head ?? 'form');
      if (head === 'variants' && typeof index === 'number') {
        const language = form.variants[index]?.language;
        if (language && part === 'subject') key = subjectKey(language);
        else if (language && part === 'html') key = htmlKey(language);
      }
      errors[key] ??= issue.message;
    }
  }
  for (const variant of form.variants) {
    const inSubject = unknownVariable(variant.subject);
    if (inSubject) errors[subjectKey(variant.language)] ??= unknownVariableMessage(inSubject);
    const inBody = unknownVariable(variant.html);
    if (inBody) errors[htmlKey(variant.language)] ??= unknownVariableMessage(inBody);
    const subjectFallback = fallbackProblem(variant.subject);
    if (subjectFallback) errors[subjectKey(variant.language)] ??= subjectFallback;
    const bodyFallback = fallbackProblem(variant.html);
    if (bodyFallback) errors[htmlKey(variant.language)] ??= bodyFallback;
    if (isBlankHtml(variant.html))
      errors[htmlKey(variant.language)] ??= `Write the ${languageName(variant.language)} body.`;
  }
  return errors;
}

/** The language whose tab holds the first error, so the editor can show it. */
export function firstErrorLanguage(errors: TemplateErrors, form: TemplateForm): TemplateLanguage | null {
  for (const variant of form.variants) {
    if (errors[subjectKey(variant.language)] || errors[htmlKey(variant.language)]) return variant.language;
  }
  return null;
}

const LANGUAGE_BY_NAME = new Map(templateLanguages.map((language) => [languageName(language), language]));

/**
 * Where the server's refusal of a save belongs. Unknown variables and empty bodies name their language
 * and part ("… in the French subject"), a taken name goes on the name; anything else above the form.
 */
export function serverTemplateErrors(error: unknown): TemplateErrors {
  if (!(error instanceof ApiError)) return {};
  const data = error.data as { fields?: Record<string, string> } | undefined;
  if (data?.fields && Object.keys(data.fields).length) return { ...data.fields };
  const languageIn = (text: string) => {
    for (const [name, language] of LANGUAGE_BY_NAME) if (text.includes(name)) return language;
    return null;
  };
  const language = languageIn(error.message);
  if (error.code === 'UNKNOWN_VARIABLE' && language) {
    return { [/ subject\b/.test(error.message) ? subjectKey(language) : htmlKey(language)]: error.message };
  }
  if (error.code === 'EMPTY_BODY' && language) return { [htmlKey(language)]: error.message };
  if (error.code === 'DUPLICATE_TEMPLATE') return { name: error.message };
  return {};
}

const variableLabels: Record<(typeof templateVariables)[number], string> = {
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name',
  email: 'E-mail',
  company: 'Company',
  companyType: 'Company type',
  country: 'Country',
};

/** The "Insert variable" menu: each variable as it is typed, with what it stands for. */
export const variableItems = templateVariables.map((name) => ({
  text: `{{${name}}}`,
  label: `${variableLabels[name]} — {{${name}}}`,
}));
