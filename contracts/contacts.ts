// The Contacts API (issue 17, `/marketing/contacts`): contacts, company types, a contact's timeline and
// lead imports. E-mails are normalised here (trimmed, lower case) so the client and the server agree on
// what "the same address" is; the server also checks a country against its countries list.
//
// Every edit names the `version` it read; a stale one answers 409 saying who changed the contact.
import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { exportFormats } from './exports';
import { columnMappingSchema } from './imports';
import { intParam } from './int-param';
import {
  contactSources,
  contactSubscriptions,
  leadImportStatuses,
  leadRowOutcomes,
  templateLanguages,
  unsubscribeMethods,
} from './marketing';

export const CONTACTS_ROUTE = '/marketing/contacts';

export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phone: 40,
  company: 200,
  tags: 20,
  tagChars: 40,
  companyTypeName: 60,
} as const;

const EMAIL_MESSAGE = 'Enter a valid e-mail address, like name@example.com.';
/** A conservative address check: one @, a dotted domain, no spaces or control characters. */
export const EMAIL_PATTERN =
  /^[^\s@<>()[\]\\,;:"\p{Cc}]+@[^\s@<>()[\]\\,;:"\p{Cc}]+\.[^\s@<>()[\]\\,;:"\p{Cc}.]{2,}$/u;

export const normalizeContactEmail = (email: string) => email.trim().toLowerCase();
export const isValidContactEmail = (email: string) =>
  email.length <= CONTACT_LIMITS.email && EMAIL_PATTERN.test(email) && !email.includes('..');

export const contactEmailSchema = z
  .string()
  .transform(normalizeContactEmail)
  .refine((email) => email.length > 0, 'Enter the e-mail address.')
  .refine(isValidContactEmail, EMAIL_MESSAGE);

const nameSchema = (label: string) =>
  z
    .string()
    .trim()
    .max(CONTACT_LIMITS.name, `${label} is at most ${CONTACT_LIMITS.name} characters.`)
    .refine((text) => !/[\r\n]/.test(text), `${label} is one line.`);

/** Trimmed, blank ones dropped, the same tag once (case ignored), at most 20 of at most 40 characters. */
export const contactTagsSchema = z
  .array(z.string().max(200))
  .max(100)
  .transform((tags) => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const raw of tags) {
      const tag = raw.trim().replace(/\s+/g, ' ');
      if (!tag || seen.has(tag.toLowerCase())) continue;
      seen.add(tag.toLowerCase());
      out.push(tag);
    }
    return out;
  })
  .refine((tags) => tags.length <= CONTACT_LIMITS.tags, `A contact has at most ${CONTACT_LIMITS.tags} tags.`)
  .refine(
    (tags) => tags.every((tag) => tag.length <= CONTACT_LIMITS.tagChars),
    `A tag is at most ${CONTACT_LIMITS.tagChars} characters.`,
  );

/** ISO 3166-1 alpha-2; the server checks it is a country of getCountriesList. */
export const countryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Choose a country from the list.');

export const contactInputSchema = z.object({
  firstName: nameSchema('The first name').default(''),
  lastName: nameSchema('The last name').default(''),
  email: contactEmailSchema,
  phone: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.phone, `The phone number is at most ${CONTACT_LIMITS.phone} characters.`)
    .regex(/^[0-9+()\-.\s/]*$/, 'A phone number has digits, spaces and + ( ) - . / only.')
    .default(''),
  company: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.company, `The company is at most ${CONTACT_LIMITS.company} characters.`)
    .default(''),
  companyTypeId: z.string().uuid('Choose a company type from the list.').nullable().default(null),
  country: countryCodeSchema.nullable().default(null),
  language: z.enum(templateLanguages, 'Choose a language from the list.').default('EN'),
  tags: contactTagsSchema.default([]),
  consent: z.boolean().default(false),
});
export type ContactInput = z.input<typeof contactInputSchema>;

export const createContactBodySchema = contactInputSchema;
export const updateContactBodySchema = contactInputSchema.extend({
  version: z.number().int().min(1),
});
export type UpdateContactBody = z.input<typeof updateContactBodySchema>;
export const versionBodySchema = z.object({ version: z.number().int().min(1) });

export const contactSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  company: z.string(),
  companyTypeId: z.string().nullable(),
  companyTypeName: z.string().nullable(),
  country: z.string().nullable(),
  language: z.string(),
  tags: z.array(z.string()),
  source: z.enum(contactSources),
  consent: z.boolean(),
  consentAt: z.string().nullable(),
  subscription: z.enum(contactSubscriptions),
  unsubscribedAt: z.string().nullable(),
  unsubscribeMethod: z.string().nullable(),
  bouncedAt: z.string().nullable(),
  bounceReason: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastContactedAt: z.string().nullable(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactSortFields = ['createdAt', 'name', 'email', 'lastContactedAt'] as const;
export type ContactSortField = (typeof contactSortFields)[number];
export const CONTACT_PAGE_SIZES = [25, 50, 100] as const;
/**
 * The columns a saved contacts view (an audience) records: the Contacts page shows these, always, so
 * a view saved from the page and one saved from a campaign's audience compare alike.
 */
export const CONTACT_VIEW_COLUMNS = [
  'name',
  'email',
  'company',
  'companyType',
  'country',
  'language',
  'subscription',
];

/** The list's query string: the filters travel as one query tree, JSON-encoded (as in the page URL). */
export const contactListQuerySchema = z.object({
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(200).default(25),
  /** A query tree (contracts/query-tree.ts) as JSON; checked against the contact fields. */
  query: z.string().max(20_000).default(''),
  /** Name, e-mail or company contains. */
  search: z.string().trim().max(100).default(''),
  sort: z.enum(contactSortFields).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ContactListQuery = z.input<typeof contactListQuerySchema>;

/** The export of the list (POST /contacts/export): its filters and order plus the file format; no paging. */
export const contactsExportBodySchema = contactListQuerySchema.omit({ skip: true, limit: true }).extend({
  format: z.enum(exportFormats).default('csv'),
});
export type ContactsExportBody = z.input<typeof contactsExportBodySchema>;

export const contactListSchema = z.object({
  result: z.array(contactSchema),
  count: z.number().int(),
  /** False when `count` is an estimate (many matches on a large table: shown as "about …"). */
  countExact: z.boolean(),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const unsubscribeBodySchema = versionBodySchema;

// ── The timeline ────────────────────────────────────────────────────────────────────────────────────

export const timelineQuerySchema = z.object({
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});

/**
 * One thing that happened to a contact, in the audit timeline's shape (src/ui/history-timeline.tsx):
 * its own history (created, updated, imported, mailed, bounced, unsubscribed, responded…) and the help
 * chats and customer queries linked to it (action `help_chat` / `customer_query`, `link` to open them).
 */
export const timelineEntrySchema = auditEntrySchema.extend({
  campaignId: z.string().nullable(),
  link: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const contactTimelineSchema = z.object({
  result: z.array(timelineEntrySchema),
  count: z.number().int(),
});
export type ContactTimeline = z.infer<typeof contactTimelineSchema>;

// ── Company types ───────────────────────────────────────────────────────────────────────────────────

export const companyTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  /** How many contacts have it (they keep no type if it is deleted). */
  contacts: z.number().int(),
});
export type CompanyType = z.infer<typeof companyTypeSchema>;
export const companyTypeListSchema = z.object({ result: z.array(companyTypeSchema) });
export const companyTypeBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Enter the company type’s name.')
    .max(CONTACT_LIMITS.companyTypeName, `A name is at most ${CONTACT_LIMITS.companyTypeName} characters.`)
    .refine((text) => !/[\r\n]/.test(text), 'A name is one line.'),
  position: z.number().int().min(0).max(10_000).optional(),
});
export type CompanyTypeBody = z.input<typeof companyTypeBodySchema>;

// ── Lead imports ────────────────────────────────────────────────────────────────────────────────────

/** What a lead sheet's column may fill. */
export const leadTargets = [
  'email',
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'company',
  'companyType',
  'country',
  'language',
  'tags',
  'consent',
] as const;
export type LeadTarget = (typeof leadTargets)[number];
export const leadTargetLabels: Record<LeadTarget, string> = {
  email: 'E-mail',
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name',
  phone: 'Phone',
  company: 'Company',
  companyType: 'Company type',
  country: 'Country',
  language: 'Language',
  tags: 'Tags',
  consent: 'Consent',
};
export const leadTargetHints: Record<LeadTarget, string> = {
  email: 'Required. One address per row; rows with the same address after the first are skipped.',
  firstName: 'Text.',
  lastName: 'Text.',
  fullName: 'Split at the first space into first and last name (when those are not mapped).',
  phone: 'Digits, spaces and + ( ) - . /',
  company: 'Text.',
  companyType: 'The name of a company type the admin manages (case ignored).',
  country: 'An ISO code (IN, FR) or the English name (India, France).',
  language: `A template language code: ${templateLanguages.join(', ')} (or its English name).`,
  tags: 'Several tags separated by , or |',
  consent: 'Yes or no (also true/false, 1/0).',
};

export const leadMappingSchema = z.array(
  columnMappingSchema.extend({ target: z.enum(leadTargets).nullable() }),
);
export type LeadColumnMapping = z.infer<typeof leadMappingSchema>[number];

export const leadDuplicatePolicies = ['skip', 'update'] as const;
export type LeadDuplicatePolicy = (typeof leadDuplicatePolicies)[number];

export const leadImportSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  fileSize: z.number().int(),
  headers: z.array(z.string()),
  mapping: leadMappingSchema,
  duplicates: z.enum(leadDuplicatePolicies),
  tags: z.array(z.string()),
  consent: z.boolean(),
  status: z.enum(leadImportStatuses),
  /** True while the user has not confirmed the mapping (the import waits, `queued`, with no task). */
  awaitingMapping: z.boolean(),
  rowsRead: z.number().int(),
  progress: z.number().int(),
  counts: z.record(z.enum(leadRowOutcomes), z.number().int()),
  rowsPerSecond: z.number().nullable(),
  error: z.string().nullable(),
  taskId: z.string().nullable(),
  createdByName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type LeadImport = z.infer<typeof leadImportSchema>;

export const leadImportUploadSchema = z.object({
  import: leadImportSchema,
  targets: z.array(
    z.object({ target: z.enum(leadTargets), label: z.string(), hint: z.string(), required: z.boolean() }),
  ),
});
export type LeadImportUpload = z.infer<typeof leadImportUploadSchema>;

export const startLeadImportBodySchema = z.object({
  mapping: leadMappingSchema,
  duplicates: z.enum(leadDuplicatePolicies),
  /** Added to every imported contact's tags. */
  tags: contactTagsSchema.default([]),
  /** The person importing vouches that these people agreed to be mailed (a consent column wins). */
  consent: z.boolean().default(false),
});
export type StartLeadImportBody = z.input<typeof startLeadImportBodySchema>;

export const leadImportListSchema = z.object({ result: z.array(leadImportSchema), count: z.number().int() });
export const leadImportListQuerySchema = z.object({
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(10),
});

export const leadRowsQuerySchema = z.object({
  outcome: z.enum(leadRowOutcomes).optional(),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(200).default(50),
});
export const leadRowProblemSchema = z.object({
  column: z.number().int().nullable(),
  header: z.string().nullable(),
  cell: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type LeadRowProblem = z.infer<typeof leadRowProblemSchema>;
export const leadRowSchema = z.object({
  line: z.number().int(),
  outcome: z.enum(leadRowOutcomes),
  email: z.string(),
  contactId: z.string().nullable(),
  cells: z.array(z.string()),
  errors: z.array(leadRowProblemSchema),
});
export type LeadRow = z.infer<typeof leadRowSchema>;
export const leadRowsSchema = z.object({ result: z.array(leadRowSchema), count: z.number().int() });
export type LeadRows = z.infer<typeof leadRowsSchema>;

export const leadErrorSheetBodySchema = z.object({ format: z.enum(['csv', 'xlsx']).optional() });

export { unsubscribeMethods };
