// A contact's {{variables}}: what a template may say about its recipient (contracts/mail-templates.ts
// templateVariables). Used by the live preview, the test mail and the send job, so a contact reads the
// same in all three.
import { eq, sql } from 'drizzle-orm';
import type { TemplateValues } from '../../../contracts/mail-templates';
import type { Db, Tx } from '../../db/client';
import { companyTypes, contacts } from '../../db/schema';
import { countries } from '../configs/countries';

let countryNames: Map<string, string> | undefined;
const countryName = (code: string | null) => {
  if (!code) return '';
  countryNames ??= new Map(countries().map((country) => [country.code, country.name]));
  return countryNames.get(code) ?? code;
};

/** The columns a contact's values are made of (the send job reads them in one set-based query). */
export interface ContactValueFields {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  companyType: string | null;
  country: string | null;
}

export function templateValuesOf(contact: ContactValueFields): TemplateValues {
  return {
    firstName: contact.firstName,
    lastName: contact.lastName,
    fullName: `${contact.firstName} ${contact.lastName}`.trim(),
    email: contact.email,
    company: contact.company,
    companyType: contact.companyType ?? '',
    country: countryName(contact.country),
  };
}

/** The select list of ContactValueFields (join company_types on contacts.company_type_id). */
export const contactValueColumns = {
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  email: contacts.email,
  company: contacts.company,
  companyType: companyTypes.name,
  country: contacts.country,
};

/** One contact's values and language, or null when there is no such contact. */
export async function contactValues(
  db: Db | Tx,
  where: { id: string } | { email: string },
): Promise<{ id: string; language: string; values: TemplateValues } | null> {
  const [row] = await db
    .select({ id: contacts.id, language: contacts.language, ...contactValueColumns })
    .from(contacts)
    .leftJoin(companyTypes, eq(companyTypes.id, contacts.companyTypeId))
    .where(
      'id' in where
        ? eq(contacts.id, where.id)
        : eq(contacts.email, sql`${where.email.trim().toLowerCase()}`),
    );
  return row ? { id: row.id, language: row.language, values: templateValuesOf(row) } : null;
}
