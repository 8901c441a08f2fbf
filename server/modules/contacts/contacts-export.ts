// The contacts export: the list's filters (query tree and search, compiled by the one contact query
// compiler) in the list's order, through the one export job (exports/export-job.ts). A sheet of what
// the Contacts page shows, with the subscription state and its when and how, for mailing tools and
// audits; no internal ids beyond the contact's own.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { contactSortFields, contactsExportBodySchema } from '../../../contracts/contacts';
import { exportFormats } from '../../../contracts/exports';
import {
  type ContactSource,
  type ContactSubscription,
  contactSourceLabels,
  contactSubscriptionLabels,
} from '../../../contracts/marketing';
import { decodeQuery, emptyQuery } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { companyTypes, contacts } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { FileStorage } from '../../lib/storage/types';
import { countries } from '../configs/countries';
import {
  type ExportCursor,
  type ExportDefinition,
  exportJobHandler,
  pastCursor,
} from '../exports/export-job';
import type { Column } from '../exports/table';
import { compileContactQuery } from './audience';
import { sortKeys } from './list';

export const CONTACTS_EXPORT_KIND = 'export.contacts';
export const CONTACTS_EXPORT_NAME = 'Contacts export';

export const contactsExportPayloadSchema = contactsExportBodySchema.extend({
  sort: z.enum(contactSortFields),
  order: z.enum(['asc', 'desc']),
  format: z.enum(exportFormats),
});
export type ContactsExportPayload = z.infer<typeof contactsExportPayloadSchema>;

/** The body as the job keeps it; a filter that is no valid query is refused before a job starts. */
export function contactsExportPayload(body: z.input<typeof contactsExportBodySchema>): ContactsExportPayload {
  const payload = contactsExportPayloadSchema.parse(body);
  whereOf(payload);
  return payload;
}

function whereOf(payload: ContactsExportPayload) {
  const tree = payload.query ? decodeQuery(payload.query) : emptyQuery();
  if (!tree) throw new HttpError(400, 'The filter is not a valid query.', 'INVALID_QUERY');
  return compileContactQuery(tree, payload.search);
}

interface ExportRow {
  id: string;
  cursorKey: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  company: string;
  company_type: string | null;
  country: string | null;
  language: string;
  tags: string[];
  source: ContactSource;
  consent: boolean;
  subscription: ContactSubscription;
  unsubscribed_at: string | Date | null;
  unsubscribe_method: string | null;
  bounce_reason: string | null;
  created_at: string | Date;
  last_contacted_at: string | Date | null;
}

const columns: Column[] = [
  { header: 'First name', width: 16 },
  { header: 'Last name', width: 16 },
  { header: 'E-mail', width: 30 },
  { header: 'Phone', width: 16 },
  { header: 'Company', width: 24 },
  { header: 'Company type', width: 18 },
  { header: 'Country', width: 16 },
  { header: 'Language', width: 10 },
  { header: 'Tags', width: 20 },
  { header: 'Source', width: 14 },
  { header: 'Consent', width: 9 },
  { header: 'Subscription', width: 14 },
  { header: 'Unsubscribed at', width: 20 },
  { header: 'Unsubscribed by', width: 14 },
  { header: 'Bounce reason', width: 30 },
  { header: 'Created', width: 20 },
  { header: 'Last contacted', width: 20 },
];

const dateOf = (value: string | Date | null) => (value === null ? null : new Date(value));

const contactsExport: ExportDefinition<ContactsExportPayload, ExportRow> = {
  kind: CONTACTS_EXPORT_KIND,
  name: CONTACTS_EXPORT_NAME,
  fileStem: 'contacts',
  sheetName: 'Contacts',
  noun: ['contact', 'contacts'],
  payloadSchema: contactsExportPayloadSchema,
  async columns() {
    return { columns, context: new Map(countries().map((country) => [country.code, country.name])) };
  },
  async count(db, payload) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::integer AS n FROM ${contacts} WHERE ${whereOf(payload)}`),
    );
    return row?.n ?? 0;
  },
  async readBatch(db, payload, after: ExportCursor | null, limit) {
    const key = sortKeys[payload.sort];
    // Every order's key is text, a timestamp or the coalesced timestamp; its text form casts back.
    const keyType = payload.sort === 'name' || payload.sort === 'email' ? 'text' : 'timestamptz';
    const descending = payload.order === 'desc';
    const direction = sql.raw(descending ? 'DESC' : 'ASC');
    const keyset = pastCursor(key, contacts.id, after, keyType, descending);
    return rowsOf<ExportRow>(
      await db.execute(sql`
        SELECT ${contacts.id} AS id, (${key})::text AS "cursorKey", ${contacts.firstName} AS first_name,
               ${contacts.lastName} AS last_name, ${contacts.email} AS email, ${contacts.phone} AS phone,
               ${contacts.company} AS company, ${companyTypes.name} AS company_type,
               ${contacts.country} AS country, ${contacts.language} AS language, ${contacts.tags} AS tags,
               ${contacts.source} AS source, ${contacts.consent} AS consent,
               ${contacts.subscription} AS subscription, ${contacts.unsubscribedAt} AS unsubscribed_at,
               ${contacts.unsubscribeMethod} AS unsubscribe_method, ${contacts.bounceReason} AS bounce_reason,
               ${contacts.createdAt} AS created_at, ${contacts.lastContactedAt} AS last_contacted_at
        FROM ${contacts}
        LEFT JOIN ${companyTypes} ON ${companyTypes.id} = ${contacts.companyTypeId}
        WHERE ${whereOf(payload)} AND ${keyset}
        ORDER BY ${key} ${direction}, ${contacts.id} ${direction}
        LIMIT ${limit}`),
    );
  },
  cellsOf(row, _payload, context) {
    const countryNames = context as Map<string, string>;
    return [
      row.first_name,
      row.last_name,
      row.email,
      row.phone,
      row.company,
      row.company_type,
      row.country ? (countryNames.get(row.country) ?? row.country) : null,
      row.language,
      row.tags.join(', '),
      contactSourceLabels[row.source],
      row.consent ? 'Yes' : 'No',
      contactSubscriptionLabels[row.subscription],
      dateOf(row.unsubscribed_at),
      row.unsubscribe_method,
      row.bounce_reason,
      dateOf(row.created_at),
      dateOf(row.last_contacted_at),
    ];
  },
};

export const contactsExportHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(contactsExport, options);
