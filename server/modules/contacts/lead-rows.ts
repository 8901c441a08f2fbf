// A lead sheet's row read as a contact: each mapped cell checked (e-mail, country, language, company
// type, tags, consent…), every problem named by its cell ("C7: …") so the error sheet and the report can
// say exactly what to fix. Pure: the job brings the company types and the import's defaults.
import {
  CONTACT_LIMITS,
  contactTagsSchema,
  isValidContactEmail,
  type LeadColumnMapping,
  type LeadRowProblem,
  type LeadTarget,
  leadTargetLabels,
  normalizeContactEmail,
} from '../../../contracts/contacts';
import {
  type TemplateLanguage,
  templateLanguageLabels,
  templateLanguages,
} from '../../../contracts/marketing';
import { normalizeText } from '../../../contracts/query-tree';
import type { NamedTarget } from '../../lib/sheet-import/mapping';
import { columnLetters } from '../../lib/sheets/errors';
import { countries } from '../configs/countries';
import { splitName } from './link';

/** Names sheets give the lead fields (matched like headers: case, accents and punctuation ignored). */
const synonyms: Record<LeadTarget, string[]> = {
  email: ['email', 'e-mail', 'email address', 'e-mail address', 'mail', 'work email', 'business email'],
  firstName: ['first name', 'firstname', 'given name', 'forename'],
  lastName: ['last name', 'lastname', 'surname', 'family name'],
  fullName: ['name', 'full name', 'contact name', 'contact', 'person'],
  phone: ['phone', 'phone number', 'telephone', 'mobile', 'mobile number', 'tel', 'cell'],
  company: ['company', 'company name', 'organisation', 'organization', 'business', 'account'],
  companyType: ['company type', 'business type', 'type of company', 'industry', 'segment'],
  country: ['country', 'country code', 'nation'],
  language: ['language', 'preferred language', 'lang', 'template language', 'locale'],
  tags: ['tags', 'tag', 'labels', 'label', 'lists'],
  consent: ['consent', 'opt in', 'optin', 'opted in', 'marketing consent', 'gdpr consent', 'subscribed'],
};

export const leadNamedTargets: NamedTarget[] = (Object.keys(synonyms) as LeadTarget[]).map((target) => ({
  target,
  names: [target, leadTargetLabels[target], ...synonyms[target]],
}));

export interface LeadDefaults {
  tags: string[];
  consent: boolean;
}

export interface LeadContext {
  mapping: readonly LeadColumnMapping[];
  /** Company type ids by lower-case name. */
  companyTypes: ReadonlyMap<string, string>;
  defaults: LeadDefaults;
}

/** The fields a row gives; a field the sheet leaves blank (or does not map) is undefined. */
export interface LeadFields {
  firstName?: string;
  lastName?: string;
  phone?: string;
  company?: string;
  companyTypeId?: string;
  country?: string;
  language?: TemplateLanguage;
  tags: string[];
  consent?: boolean;
}

export type LeadVerdict =
  | { line: number; cells: string[]; ok: true; email: string; fields: LeadFields }
  | { line: number; cells: string[]; ok: false; email: string; errors: LeadRowProblem[] };

const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'x', 'opted in', 'subscribed']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0', 'opted out', 'unsubscribed']);

let countryKeys: Map<string, string> | undefined;
/** A country by ISO code or English name ("in", "India", "INDIA"). */
export function countryOf(text: string): string | null {
  if (!countryKeys) {
    countryKeys = new Map();
    for (const country of countries()) {
      countryKeys.set(country.code.toLowerCase(), country.code);
      countryKeys.set(normalizeText(country.name), country.code);
    }
  }
  return countryKeys.get(normalizeText(text)) ?? null;
}

const languageKeys = new Map<string, TemplateLanguage>(
  templateLanguages.flatMap((code) => [
    [code.toLowerCase(), code] as const,
    [normalizeText(templateLanguageLabels[code]), code] as const,
  ]),
);

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

export function leadVerdict(row: { line: number; cells: string[] }, context: LeadContext): LeadVerdict {
  const errors: LeadRowProblem[] = [];
  const fields: LeadFields = { tags: [...context.defaults.tags] };
  let email = '';
  let fullName = '';
  const problem = (column: LeadColumnMapping, code: string, message: string) =>
    errors.push({
      column: column.index,
      header: column.header,
      cell: `${columnLetters(column.index)}${row.line}`,
      code,
      message,
    });
  const text = (column: LeadColumnMapping, max: number, label: string) => {
    const value = (row.cells[column.index] ?? '').replace(/\s+/g, ' ').trim();
    if (value.length > max) {
      problem(column, 'TOO_LONG', `${label} is at most ${max} characters.`);
      return undefined;
    }
    return value || undefined;
  };

  for (const column of context.mapping) {
    if (!column.target) continue;
    const raw = (row.cells[column.index] ?? '').trim();
    switch (column.target) {
      case 'email':
        email = normalizeContactEmail(raw);
        if (!email) problem(column, 'EMAIL_REQUIRED', 'The e-mail is empty: every lead needs one.');
        else if (!isValidContactEmail(email))
          problem(column, 'INVALID_EMAIL', `“${clip(raw)}” is not a valid e-mail address.`);
        break;
      case 'firstName':
        fields.firstName = text(column, CONTACT_LIMITS.name, 'A first name');
        break;
      case 'lastName':
        fields.lastName = text(column, CONTACT_LIMITS.name, 'A last name');
        break;
      case 'fullName':
        fullName = text(column, 2 * CONTACT_LIMITS.name, 'A full name') ?? '';
        break;
      case 'phone': {
        const phone = text(column, CONTACT_LIMITS.phone, 'A phone number');
        if (phone && !/^[0-9+()\-.\s/]*$/.test(phone))
          problem(column, 'INVALID_PHONE', 'A phone number has digits, spaces and + ( ) - . / only.');
        else fields.phone = phone;
        break;
      }
      case 'company':
        fields.company = text(column, CONTACT_LIMITS.company, 'A company');
        break;
      case 'companyType':
        if (raw) {
          const id = context.companyTypes.get(raw.replace(/\s+/g, ' ').toLowerCase());
          if (id) fields.companyTypeId = id;
          else problem(column, 'UNKNOWN_COMPANY_TYPE', `There is no company type “${clip(raw)}”.`);
        }
        break;
      case 'country':
        if (raw) {
          const code = countryOf(raw);
          if (code) fields.country = code;
          else
            problem(
              column,
              'UNKNOWN_COUNTRY',
              `“${clip(raw)}” is not a country (use a code like IN or a name).`,
            );
        }
        break;
      case 'language':
        if (raw) {
          const code = languageKeys.get(normalizeText(raw));
          if (code) fields.language = code;
          else
            problem(
              column,
              'UNKNOWN_LANGUAGE',
              `“${clip(raw)}” is not a template language (${templateLanguages.join(', ')}).`,
            );
        }
        break;
      case 'tags':
        if (raw) {
          const parsed = contactTagsSchema.safeParse([...fields.tags, ...raw.split(/[,|]/)]);
          if (parsed.success) fields.tags = parsed.data;
          else problem(column, 'INVALID_TAGS', parsed.error.issues[0]?.message ?? 'The tags are not valid.');
        }
        break;
      case 'consent':
        if (raw) {
          const word = normalizeText(raw);
          if (TRUE_WORDS.has(word)) fields.consent = true;
          else if (FALSE_WORDS.has(word)) fields.consent = false;
          else problem(column, 'INVALID_CONSENT', `Consent is yes or no, not “${clip(raw)}”.`);
        }
        break;
    }
  }
  if (fullName && fields.firstName === undefined && fields.lastName === undefined) {
    const split = splitName(fullName);
    fields.firstName = split.firstName || undefined;
    fields.lastName = split.lastName || undefined;
  }
  if (fields.consent === undefined && context.defaults.consent) fields.consent = true;
  if (errors.length) return { line: row.line, cells: row.cells, ok: false, email, errors };
  return { line: row.line, cells: row.cells, ok: true, email, fields };
}
