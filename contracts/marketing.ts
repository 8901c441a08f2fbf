// The marketing module's shared words (issue 17): contact sources and subscription states, campaign and
// recipient states, lead import states, and the template languages. The contacts, templates and
// campaigns contracts build their schemas on these; the database schema types its columns with them.

/** Where a contact came from. Help chats and customer queries link their rows to the contact. */
export const contactSources = ['lead_import', 'help_chat', 'customer_query', 'manual'] as const;
export type ContactSource = (typeof contactSources)[number];
export const contactSourceLabels: Record<ContactSource, string> = {
  lead_import: 'Lead import',
  help_chat: 'Help chat',
  customer_query: 'Customer query',
  manual: 'Manual',
};

/** Unsubscribed and bounced contacts are never mailed again, and an import never resubscribes them. */
export const contactSubscriptions = ['subscribed', 'unsubscribed', 'bounced'] as const;
export type ContactSubscription = (typeof contactSubscriptions)[number];
export const contactSubscriptionLabels: Record<ContactSubscription, string> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};

/** How a contact left: the link in a mail, the one-click header (RFC 8058), a staff member, an import. */
export const unsubscribeMethods = ['link', 'one_click', 'staff'] as const;
export type UnsubscribeMethod = (typeof unsubscribeMethods)[number];

/** The languages a template may have a version in (SPEC §9 default language EN). */
export const templateLanguages = ['EN', 'HI', 'FR', 'DE', 'ES', 'AR', 'PT', 'JA'] as const;
export type TemplateLanguage = (typeof templateLanguages)[number];
export const templateLanguageLabels: Record<TemplateLanguage, string> = {
  EN: 'English',
  HI: 'Hindi',
  FR: 'French',
  DE: 'German',
  ES: 'Spanish',
  AR: 'Arabic',
  PT: 'Portuguese',
  JA: 'Japanese',
};

/**
 * draft → scheduled → sending ⇄ paused → sent; failed when the job cannot go on (no template, every
 * attempt spent on a broken SMTP server). Never "sent" while a recipient may still be retried.
 */
export const campaignStatuses = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'failed'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/**
 * queued → sending → sent; deferred (a temporary refusal, retried with backoff) → sending…; failed (a
 * permanent refusal: the contact is marked bounced; or attempts spent); skipped (unsubscribed or bounced
 * by the time its turn came).
 */
export const recipientStates = ['queued', 'sending', 'sent', 'deferred', 'failed', 'skipped'] as const;
export type RecipientState = (typeof recipientStates)[number];
export type RecipientCounts = Record<RecipientState, number>;
export const emptyRecipientCounts = (): RecipientCounts => ({
  queued: 0,
  sending: 0,
  sent: 0,
  deferred: 0,
  failed: 0,
  skipped: 0,
});

export const leadImportStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type LeadImportStatus = (typeof leadImportStatuses)[number];
/** A lead row's outcome: a new contact, an updated one, an address left alone, or a row with errors. */
export const leadRowOutcomes = ['created', 'updated', 'skipped', 'invalid'] as const;
export type LeadRowOutcome = (typeof leadRowOutcomes)[number];
export type LeadImportCounts = Record<LeadRowOutcome, number>;

// ── The contact query (contact list filters and campaign audiences) ──────────────────────────────────

import type { QueryField, QueryFieldOption } from './query-tree';

/**
 * The fields a contact query may name: the contacts list's filters and a campaign's audience are the
 * same query tree (contracts/query-tree.ts) over these, compiled by server/modules/contacts/audience.ts.
 * "Template language" is the contact's language, which picks the template's version; "Received template"
 * holds for contacts already sent a mail of that template.
 */
export const contactFieldKeys = [
  'country',
  'companyType',
  'language',
  'receivedTemplate',
  'tags',
  'source',
  'subscription',
  'consent',
  'email',
  'createdAt',
  'lastContactedAt',
] as const;
export type ContactFieldKey = (typeof contactFieldKeys)[number];

export interface ContactFieldOptions {
  countries: QueryFieldOption[];
  companyTypes: QueryFieldOption[];
  templates: QueryFieldOption[];
  tags: QueryFieldOption[];
}

export function contactQueryFields(options: ContactFieldOptions): QueryField[] {
  const group = 'Contact';
  return [
    { key: 'country', label: 'Country', kind: 'enum', group, options: options.countries },
    { key: 'companyType', label: 'Company type', kind: 'enum', group, options: options.companyTypes },
    {
      key: 'language',
      label: 'Template language',
      kind: 'enum',
      group,
      options: templateLanguages.map((value) => ({ value, label: templateLanguageLabels[value] })),
    },
    { key: 'receivedTemplate', label: 'Received template', kind: 'enum', group, options: options.templates },
    { key: 'tags', label: 'Tags', kind: 'enum', group, options: options.tags },
    {
      key: 'source',
      label: 'Source',
      kind: 'enum',
      group,
      options: contactSources.map((value) => ({ value, label: contactSourceLabels[value] })),
    },
    {
      key: 'subscription',
      label: 'Subscription',
      kind: 'enum',
      group,
      options: contactSubscriptions.map((value) => ({ value, label: contactSubscriptionLabels[value] })),
    },
    { key: 'consent', label: 'Consent', kind: 'boolean', group },
    { key: 'email', label: 'E-mail', kind: 'text', group },
    { key: 'createdAt', label: 'Created', kind: 'date', group },
    { key: 'lastContactedAt', label: 'Last contacted', kind: 'date', group },
  ];
}
