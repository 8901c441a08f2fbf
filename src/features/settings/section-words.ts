// How the settings page names sections and fields and reads a stored value, for the History panel and
// the overall history (secrets were recorded as "changed" by the server, never as values).
import type { SettingsSection, StoredSection } from '../../../contracts/settings';

export const sectionTitles: Record<SettingsSection, string> = {
  profile: 'Profile',
  localization: 'Localization',
  communication: 'Communication',
  shipping: 'Shipping',
  website: 'Website',
  company: 'Company',
  content: 'Content',
};

const labels: Record<string, string> = {
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
  botWelcome: 'Chat bot welcome',
  botGeneralReply: 'Chat bot general reply',
  enquiryIntro: 'Enquiry form introduction',
  unsubscribeText: 'Unsubscribe page text',
  responsePageText: 'Response page text',
  termsUrl: 'Terms link',
};

export function fieldLabel(_section: StoredSection, field: string): string {
  return labels[field] ?? field;
}

const MAX_SHOWN = 120;

/** A value as one line of text; long ones are cut (the export has them whole). */
export function formatSettingValue(_section: StoredSection, _field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'boolean'
        ? value
          ? 'Yes'
          : 'No'
        : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
