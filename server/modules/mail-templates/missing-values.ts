// The editor's warning about holes: for each variable a template uses without a fallback, how many of
// the contacts who can be mailed have no value for it ("This month  can list products…" for a contact
// without a company). Counted over every subscribed contact rather than one campaign's audience: a
// template is written before (and for more than) one audience, and the author needs to know whether a
// fallback is worth writing, which this tells exactly. One pass over the contacts, only when some
// variable lacks a fallback.
import { sql } from 'drizzle-orm';
import { formatNumber, plural } from '../../../contracts/domain/format';
import { type TemplateVariable, variableUses } from '../../../contracts/mail-templates';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** When a contact has no value for a variable (values.ts templateValuesOf makes the values). */
const missing: Record<TemplateVariable, ReturnType<typeof sql> | null> = {
  firstName: sql`trim(c.first_name) = ''`,
  lastName: sql`trim(c.last_name) = ''`,
  fullName: sql`trim(c.first_name) = '' AND trim(c.last_name) = ''`,
  // Every contact has an address.
  email: null,
  company: sql`trim(c.company) = ''`,
  companyType: sql`ct.name IS NULL`,
  country: sql`coalesce(c.country, '') = ''`,
};

const EXAMPLES: Partial<Record<TemplateVariable, string>> = {
  firstName: 'there',
  fullName: 'there',
  company: 'your company',
  companyType: 'business',
  country: 'your country',
};

/** The variables of these texts used at least once without a fallback (and that may be empty). */
export function variablesWithoutFallback(texts: string[]): TemplateVariable[] {
  const names = new Set<TemplateVariable>();
  for (const use of texts.flatMap(variableUses))
    if (use.fallback === null && use.name in missing && missing[use.name as TemplateVariable])
      names.add(use.name as TemplateVariable);
  return [...names];
}

export async function missingValueWarnings(db: Db, texts: string[]): Promise<string[]> {
  const names = variablesWithoutFallback(texts);
  if (names.length === 0) return [];
  const counts = sql.join(
    names.map((name) => sql`count(*) FILTER (WHERE ${missing[name]})::int AS ${sql.identifier(name)}`),
    sql`, `,
  );
  const [row] = rowsOf<Record<string, number>>(
    await db.execute(sql`SELECT count(*)::int AS total, ${counts}
      FROM contacts c LEFT JOIN company_types ct ON ct.id = c.company_type_id
      WHERE c.subscription = 'subscribed'`),
  );
  const total = row?.total ?? 0;
  return names.flatMap((name) => {
    const lacking = row?.[name] ?? 0;
    if (lacking === 0) return [];
    const example = EXAMPLES[name] ?? '…';
    return [
      `${formatNumber(lacking)} of ${plural(total, 'subscribed contact')} ${lacking === 1 ? 'has' : 'have'} no ${name}: {{${name}}} is empty in their mail. Give it a fallback, e.g. {{${name}|${example}}}.`,
    ];
  });
}
