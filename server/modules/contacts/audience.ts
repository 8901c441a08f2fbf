// A contact query (the contacts list's filters, a campaign's audience): checked against the contact
// fields (contracts/marketing.ts contactQueryFields) and compiled to a parameterised WHERE by the one
// query-tree compiler (server/lib/query-tree/compile.ts). No SQL ever comes from the client.
import { asc, type SQL, sql } from 'drizzle-orm';
import { uuidsOnly } from '../../../contracts/domain/ids';
import { type ContactFieldKey, contactQueryFields } from '../../../contracts/marketing';
import {
  findQueryProblem,
  normalizeText,
  type QueryCondition,
  type QueryField,
  type QueryTree,
} from '../../../contracts/query-tree';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { companyTypes, contacts, mailTemplates } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import {
  type ConditionCompiler,
  compileQuery,
  dateColumn,
  enumColumn,
  orFalse,
  sqlFalse,
  textColumn,
} from '../../lib/query-tree/compile';
import { countries } from '../configs/countries';

/** A text[] column: "any of" shares an element with the values (the GIN index answers it). */
function textArrayColumn(column: SQL): ConditionCompiler {
  return ({ op, value }) => {
    const overlap = () => {
      const values = (value as (string | number)[]).map(String);
      return values.length
        ? orFalse(sql`${column} && ${`{${values.map(arrayLiteral).join(',')}}`}::text[]`)
        : sqlFalse;
    };
    switch (op) {
      case 'anyOf':
        return overlap();
      case 'noneOf':
        return sql`NOT ${overlap()}`;
      case 'isEmpty':
        return sql`cardinality(${column}) = 0`;
      case 'isNotEmpty':
        return sql`cardinality(${column}) > 0`;
      default:
        throw new Error(`tags: ${op}`);
    }
  };
}

/** One element of a Postgres array literal, quoted so commas, braces and quotes stay text. */
const arrayLiteral = (text: string) => `"${text.replace(/["\\]/g, (char) => `\\${char}`)}"`;

function booleanColumn(column: SQL): ConditionCompiler {
  return ({ op }) => {
    switch (op) {
      case 'isTrue':
        return sql`${column} = true`;
      case 'isFalse':
        return sql`${column} = false`;
      case 'isEmpty':
        return sqlFalse;
      case 'isNotEmpty':
        return sql`true`;
      default:
        throw new Error(`boolean: ${op}`);
    }
  };
}

/** Contacts already sent a mail of one of the templates. */
function receivedTemplate(): ConditionCompiler {
  const received = (ids: string[]) =>
    ids.length
      ? sql`EXISTS (SELECT 1 FROM campaign_recipients r JOIN campaigns c ON c.id = r.campaign_id
          WHERE r.contact_id = ${contacts.id} AND r.state = 'sent'
            AND c.template_id = ANY(${`{${ids.join(',')}}`}::uuid[]))`
      : sqlFalse;
  return ({ op, value }) => {
    const ids = () => uuidsOnly((value ?? []) as (string | number)[]);
    switch (op) {
      case 'anyOf':
        return received(ids());
      case 'noneOf':
        return sql`NOT ${received(ids())}`;
      case 'isEmpty':
        return sql`NOT EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.contact_id = ${contacts.id} AND r.state = 'sent')`;
      case 'isNotEmpty':
        return sql`EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.contact_id = ${contacts.id} AND r.state = 'sent')`;
      default:
        throw new Error(`receivedTemplate: ${op}`);
    }
  };
}

const compilers: Record<ContactFieldKey, ConditionCompiler> = {
  // "Is any of" compiles to an index range (contacts_audience_idx answers a 3-filter audience).
  country: enumColumn(sql`${contacts.country}`),
  companyType: enumColumn(sql`${contacts.companyTypeId}`, uuidsOnly),
  language: enumColumn(sql`${contacts.language}`),
  receivedTemplate: receivedTemplate(),
  tags: textArrayColumn(sql`${contacts.tags}`),
  source: enumColumn(sql`${contacts.source}`),
  subscription: enumColumn(sql`${contacts.subscription}`),
  consent: booleanColumn(sql`${contacts.consent}`),
  // Stored trimmed and in lower case.
  email: textColumn(sql`${contacts.email}`),
  createdAt: dateColumn(sql`${contacts.createdAt}`),
  lastContactedAt: dateColumn(sql`${contacts.lastContactedAt}`),
};

/** The most used contact tags offered in the builder (tags beyond them are still matched by value). */
const TAG_OPTIONS = 200;

/** The contact fields with today's options (company types, templates, the most used tags). */
export async function loadContactFields(db: Db | Tx): Promise<QueryField[]> {
  const [types, templates, tags] = await Promise.all([
    db
      .select({ value: companyTypes.id, label: companyTypes.name })
      .from(companyTypes)
      .orderBy(asc(companyTypes.position), asc(companyTypes.name)),
    db
      .select({ value: mailTemplates.id, label: mailTemplates.name })
      .from(mailTemplates)
      .orderBy(asc(mailTemplates.name)),
    db.execute(
      sql`SELECT tag FROM (SELECT unnest(tags) AS tag FROM contacts) t GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ${TAG_OPTIONS}`,
    ),
  ]);
  return contactQueryFields({
    countries: countries().map((country) => ({ value: country.code, label: country.name })),
    companyTypes: types,
    templates,
    tags: rowsOf<{ tag: string }>(tags).map((row) => ({ value: row.tag, label: row.tag })),
  });
}

/**
 * Checks a contact query (400 naming the condition that does not fit) and compiles it, with the search
 * box's text (name, e-mail or company contains), to a WHERE over `contacts`. The field check needs no
 * options: values are bound parameters, and an unknown value simply matches nothing.
 */
export function compileContactQuery(tree: QueryTree, search = ''): SQL {
  const problem = findQueryProblem(tree, contactFieldCatalogue);
  if (problem) throw new HttpError(400, problem, 'INVALID_QUERY');
  const where = compileQuery(tree, (key) => compilers[key as ContactFieldKey]);
  const text = normalizeText(search);
  return text ? sql`(${where} AND ${contactSearchCondition(text)})` : where;
}

/**
 * The fields as the server checks them: fixed lists (countries, languages, sources, states) are checked
 * value by value; the lists people edit (company types, templates, tags) are not, since a value removed
 * since the query was saved must still load (it matches nothing).
 */
const editedLists = new Set<string>(['companyType', 'receivedTemplate', 'tags']);
const contactFieldCatalogue: ReadonlyMap<string, QueryField> = new Map(
  contactQueryFields({
    countries: countries().map((country) => ({ value: country.code, label: country.name })),
    companyTypes: [],
    templates: [],
    tags: [],
  }).map((field) => [field.key, editedLists.has(field.key) ? { ...field, options: undefined } : field]),
);

/** Name, e-mail or company contains the text: the expression of contacts_search_trgm_idx. */
export function contactSearchCondition(normalized: string): SQL {
  return sql`${contacts.searchKey} LIKE ${containsPattern(normalized)}`;
}

/** What a contact's search key holds (written beside every change of these fields). */
export function contactSearchKey(contact: {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
}): string {
  return normalizeText(`${contact.firstName} ${contact.lastName} ${contact.email} ${contact.company}`);
}

/** Only these are ever mailed: unsubscribed and bounced contacts never are. */
export const mailableContact: SQL = sql`${contacts.subscription} = 'subscribed'`;

export type { QueryCondition };
