// How the settings name their sections and fields, in words: the page's tabs and History panels, and the
// server's messages and the history export, read this one table (data only).
import type { SettingsSection, StoredSection } from './settings';

/** Each section's title, as its tab names it. */
export const sectionTitles: Record<SettingsSection, string> = {
  profile: 'Profile',
  localization: 'Localization',
  communication: 'Communication',
  shipping: 'Shipping',
  website: 'Website',
  company: 'Company',
  content: 'Content',
};

/** Each stored field's label, as the page and the history name it (a key without one shows as is). */
const fieldLabels: Record<string, string> = {
  defaultCountry: 'Default country',
  defaultLanguage: 'Default language',
  defaultCurrency: 'Default currency',
  currencies: 'Currencies offered',
  languages: 'Languages offered',
  timeZone: 'Time zone',
  locale: 'Date and number format',
  weekStart: 'First day of the week',
  senderName: 'Sender name',
  senderAddress: 'Sender address',
  replyTo: 'Reply-to',
  transport: 'Mail delivery',
  smtpHost: 'SMTP host',
  smtpPort: 'SMTP port',
  smtpSecure: 'SMTP over TLS',
  smtpUser: 'SMTP user',
  smtpPassword: 'SMTP password',
  notificationChannels: 'Notification channels',
  officeHours: 'Office hours',
  holidays: 'Holidays',
  slaTargets: 'SLA targets',
  divisor: 'Volumetric divisor',
  lengthUnit: 'Length unit',
  zones: 'Shipping zones',
  storefrontUrl: 'Storefront URL',
  embedOrigins: 'Sites allowed to embed',
  widgetColour: 'Widget colour',
  widgetTextColour: 'Widget text colour',
  widgetGreeting: 'Widget greeting',
  widgetPosition: 'Widget position',
  legalName: 'Legal name',
  address: 'Address',
  taxId: 'Tax id',
  logo: 'Logo',
  bankAccountName: 'Account name',
  bankAccountNumber: 'Account number',
  bankCode: 'Bank code (IFSC, BIC)',
  bankName: 'Bank',
  fiscalYearStartMonth: 'Fiscal year starts in',
  seriesPreset: 'Series preset',
  invoiceSeries: 'Invoice series',
  creditNoteSeries: 'Credit note series',
  invoiceFooter: 'Invoice footer',
  taxOptions: 'Tax options',
  offerValidityDays: 'Offer validity (days)',
  offerReminderDays: 'Offer reminder (days before the end)',
  invoicePaymentDays: 'Invoice payment terms (days)',
  invoiceReminderDays: 'Overdue invoice reminders (every N days)',
  botWelcome: 'Chat bot welcome',
  botGeneralReply: 'Chat bot general reply',
  enquiryIntro: 'Enquiry form introduction',
  unsubscribeText: 'Unsubscribe page text',
  responsePageText: 'Response page text',
  termsUrl: 'Terms link',
};

export function fieldLabel(_section: StoredSection, field: string): string {
  return fieldLabels[field] ?? field;
}
