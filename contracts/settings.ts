/**
 * Settings (SPEC §1, §2; issue 29): what each section holds, who may change which field, and the API's
 * shapes. Two scopes: the marketplace's (admins) and a seller's own. A seller sees every field of the
 * sections that concern their shop with the marketplace's value, **inherited**, or their own,
 * **overridden**, and may reset an override to inherited. The profile section is the user's own record
 * (`users/{id}`), not a stored section.
 *
 * A field's schema validates one value; a section's defaults are complete, so the effective value of a
 * field is always defined: the seller's override, else the marketplace's value, else the default.
 */
import { z } from 'zod';
import {
  defaultFiscalYearStartMonth,
  SERIES_PRESETS,
  seriesPatternProblems,
} from './domain/document-numbering';
import { shippingZonesSchema } from './domain/shipping-rates';
import { taxOptions } from './domain/tax-options';
import { isValidUrl, validationMessages } from './domain/validators';
import { VOLUMETRIC_DIVISOR } from './domain/volumetric-weight';
import { intParam } from './int-param';

export const SETTINGS_ROUTE = '/settings/manage-settings';

export const settingsSections = [
  'profile',
  'localization',
  'communication',
  'shipping',
  'website',
  'company',
  'content',
] as const;
export type SettingsSection = (typeof settingsSections)[number];

/** The sections kept in the settings store (the profile is the user's own record). */
export const storedSections = [
  'localization',
  'communication',
  'shipping',
  'website',
  'company',
  'content',
] as const;
export type StoredSection = (typeof storedSections)[number];
export const storedSectionSchema = z.enum(storedSections);

// ── Field schemas shared by several sections ──────────────────────────────────────────────────────

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Z]{2}$/, 'A country is an ISO 3166 alpha-2 code, e.g. IN.');
export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, 'A currency is an ISO 4217 code, e.g. INR.');
export const languageCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'A language is a two-letter code, e.g. EN.');

/** An http(s) URL by SPEC §5's URL check (contracts/domain/validators.ts); empty for "none". */
export const webUrlSchema = z
  .string()
  .trim()
  .refine((text) => text === '' || isValidUrl(text), validationMessages.url);

/** An origin allowed to embed the widget: scheme, host and optional port, nothing else. */
export const originSchema = z
  .string()
  .trim()
  .max(300)
  .refine(
    (text) => /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i.test(text) && isValidUrl(text),
    'An allowed site is an origin such as https://shop.example.com (no path).',
  )
  .transform((text) => text.toLowerCase());

export const colourSchema = z.string().regex(/^#[0-9a-f]{6}$/i, 'A colour is written #RRGGBB.');

const shortText = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

export const addressSchema = z.object({
  fullName: shortText(120),
  email: z.union([z.literal(''), z.email('Enter a valid e-mail address.')]),
  addressLine1: shortText(200),
  addressLine2: shortText(200),
  city: shortText(100),
  state: shortText(100),
  country: z.union([z.literal(''), countryCodeSchema]),
  zipcode: shortText(20),
});
export type SettingsAddress = z.infer<typeof addressSchema>;

export const weekdays = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof weekdays)[number];

/** The week as Localization's first day of the week starts it (Monday in India, Sunday in the USA…). */
export function weekdaysFrom(first: 'monday' | 'sunday' | 'saturday'): Weekday[] {
  const start = weekdays.indexOf(first);
  return [...weekdays.slice(start), ...weekdays.slice(0, start)];
}

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time is written HH:MM (24-hour).');
export const openingSpanSchema = z
  .object({ from: clockTime, to: clockTime })
  .refine((span) => span.from < span.to, { message: 'Office hours end after they start.', path: ['to'] });
export const officeHoursSchema = z.object(
  Object.fromEntries(weekdays.map((day) => [day, z.array(openingSpanSchema).max(4)])) as Record<
    Weekday,
    z.ZodArray<typeof openingSpanSchema>
  >,
);
export type OfficeHours = z.infer<typeof officeHoursSchema>;

export const notificationChannels = ['mail', 'in-app', 'both', 'none'] as const;
export const notificationTypes = [
  'task',
  'help-chat',
  'missed-call',
  'customer-query',
  'offer',
  'order',
  'invoice',
  'auction',
] as const;

export const taxOptionSettingSchema = z.object({
  id: z.string().trim().min(1).max(60),
  label: z.string().trim().min(1, 'Name the tax.').max(80),
  value: z.number().min(0, 'A tax rate may not be negative.').max(100, 'A tax rate is at most 100 %.'),
  country: z.string().regex(/^([A-Z]{2})$/, 'A tax applies to a country code, e.g. DE (or EU).'),
});

const seriesSchema = z
  .string()
  .trim()
  .min(1, 'Enter a series format.')
  .max(40)
  .superRefine((pattern, context) => {
    for (const problem of seriesPatternProblems(pattern))
      context.addIssue({ code: 'custom', message: problem });
  });

const slaMinutes = z
  .number()
  .int('Minutes are whole numbers.')
  .min(1, 'A target is at least a minute.')
  .max(60 * 24 * 90, 'A target is at most 90 days of office hours.');
const slaTargetSchema = z.object({ firstResponseMinutes: slaMinutes, resolutionMinutes: slaMinutes });
export const slaTargetsSchema = z.object({
  low: slaTargetSchema,
  normal: slaTargetSchema,
  high: slaTargetSchema,
  urgent: slaTargetSchema,
});
export type SlaTargets = z.infer<typeof slaTargetsSchema>;

// ── Sections ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Each field: its schema, whether a seller may override it (`seller`), and whether it is a secret
 * (write-only: never answered, audited as "changed").
 */
export interface FieldDefinition {
  schema: z.ZodType;
  seller?: boolean;
  secret?: boolean;
}

function fields<T extends Record<string, FieldDefinition>>(definitions: T): T {
  return definitions;
}

export const sectionFields = {
  localization: fields({
    defaultCountry: { schema: countryCodeSchema },
    defaultLanguage: { schema: languageCodeSchema },
    defaultCurrency: { schema: currencyCodeSchema },
    currencies: { schema: z.array(currencyCodeSchema).min(1, 'Offer at least one currency.').max(60) },
    languages: { schema: z.array(languageCodeSchema).min(1, 'Offer at least one language.').max(30) },
    timeZone: { schema: z.string().min(1).max(64), seller: true },
    /** BCP 47 locale of dates and numbers (contracts/domain/format.ts). */
    locale: { schema: z.string().min(2).max(20) },
    weekStart: { schema: z.enum(['monday', 'sunday', 'saturday']) },
  }),
  communication: fields({
    senderName: { schema: shortText(80).min(1, 'Name the sender.') },
    senderAddress: { schema: z.email('Enter a valid sender address.') },
    replyTo: { schema: z.union([z.literal(''), z.email('Enter a valid reply-to address.')]) },
    /** 'outbox': mail is written to DATA_DIR/outbox; 'smtp': sent through the SMTP fields. */
    transport: { schema: z.enum(['outbox', 'smtp']) },
    smtpHost: { schema: shortText(253) },
    smtpPort: { schema: z.number().int().min(1).max(65535) },
    smtpSecure: { schema: z.boolean() },
    smtpUser: { schema: shortText(200) },
    smtpPassword: { schema: z.string().max(500), secret: true },
    /** role → notification type → channel. */
    notificationChannels: {
      schema: z.record(
        z.enum(['Admin', 'Staff', 'Seller']),
        z.record(z.string(), z.enum(notificationChannels)),
      ),
    },
    officeHours: { schema: officeHoursSchema },
    /** Days (YYYY-MM-DD) nobody answers. */
    holidays: { schema: z.array(z.iso.date('A holiday is a date, YYYY-MM-DD.')).max(366) },
    /** Customer queries' SLA targets per priority, in office-hour minutes (issue 30). */
    slaTargets: { schema: slaTargetsSchema },
  }),
  shipping: fields({
    /** Volumetric divisor, cm³ per kg (SPEC §9: 5000). */
    divisor: { schema: z.number().int().min(1000, 'A divisor is at least 1000.').max(10000), seller: true },
    lengthUnit: { schema: z.enum(['cm', 'm', 'in']), seller: true },
    zones: { schema: shippingZonesSchema, seller: true },
  }),
  website: fields({
    storefrontUrl: { schema: webUrlSchema, seller: true },
    /** Origins that may embed the chat widget and the enquiry form (frame-ancestors, CORS). */
    embedOrigins: { schema: z.array(originSchema).max(50), seller: true },
    widgetColour: { schema: colourSchema, seller: true },
    widgetTextColour: { schema: colourSchema, seller: true },
    widgetGreeting: { schema: shortText(120), seller: true },
    widgetPosition: { schema: z.enum(['bottom-right', 'bottom-left']), seller: true },
  }),
  company: fields({
    legalName: { schema: shortText(160), seller: true },
    address: { schema: addressSchema, seller: true },
    taxId: { schema: shortText(30), seller: true },
    /** A stored file's path (uploaded through the company logo upload), or null. */
    logo: { schema: z.string().max(500).nullable(), seller: true },
    bankAccountName: { schema: shortText(120), seller: true },
    bankAccountNumber: { schema: shortText(40), seller: true },
    bankCode: { schema: shortText(40), seller: true },
    bankName: { schema: shortText(120), seller: true },
    fiscalYearStartMonth: { schema: z.number().int().min(1).max(12), seller: true },
    seriesPreset: { schema: z.enum(['india', 'eu', 'custom']), seller: true },
    invoiceSeries: { schema: seriesSchema, seller: true },
    creditNoteSeries: { schema: seriesSchema, seller: true },
    invoiceFooter: { schema: shortText(2000), seller: true },
    taxOptions: { schema: z.array(taxOptionSettingSchema).max(200) },
    /** An offer's default validity, and how many days before its end the customer is reminded. */
    offerValidityDays: {
      schema: z.number().int().min(1, 'An offer is valid at least a day.').max(365),
      seller: true,
    },
    offerReminderDays: { schema: z.number().int().min(0).max(60), seller: true },
    /** An invoice is due this many days after its issue date. */
    invoicePaymentDays: { schema: z.number().int().min(0).max(365), seller: true },
    /** Days between the reminders of an overdue invoice (0: none). */
    invoiceReminderDays: { schema: z.number().int().min(0).max(90), seller: true },
  }),
  content: fields({
    /** Language → sanitised HTML. */
    botWelcome: { schema: z.record(languageCodeSchema, shortText(4000)), seller: true },
    botGeneralReply: { schema: z.record(languageCodeSchema, shortText(4000)), seller: true },
    enquiryIntro: { schema: z.record(languageCodeSchema, shortText(4000)), seller: true },
    unsubscribeText: { schema: z.record(languageCodeSchema, shortText(4000)) },
    responsePageText: { schema: z.record(languageCodeSchema, shortText(4000)) },
    termsUrl: { schema: webUrlSchema },
  }),
} as const satisfies Record<StoredSection, Record<string, FieldDefinition>>;

type FieldValues<F extends Record<string, FieldDefinition>> = {
  [K in keyof F]: z.output<F[K]['schema']>;
};
export type SectionValues<S extends StoredSection> = FieldValues<(typeof sectionFields)[S]>;
export type AllSettings = { [S in StoredSection]: SectionValues<S> };

export function fieldNames(section: StoredSection): string[] {
  return Object.keys(sectionFields[section]);
}

export function fieldDefinition(section: StoredSection, field: string): FieldDefinition | undefined {
  const definitions = sectionFields[section] as Record<string, FieldDefinition>;
  return Object.hasOwn(definitions, field) ? definitions[field] : undefined;
}

/** The sections a seller may see and override (some of their fields). */
export const sellerSections = storedSections.filter((section) =>
  Object.values(sectionFields[section] as Record<string, FieldDefinition>).some((field) => field.seller),
);

/** A value shown in place of a secret that is set: never the secret itself. */
export const SECRET_SET = '••••••••';

// ── API shapes ────────────────────────────────────────────────────────────────────────────────────

/** Where a field's effective value comes from, as a seller's page labels it. */
export const fieldSourceSchema = z.enum(['default', 'marketplace', 'overridden']);
export type FieldSource = z.infer<typeof fieldSourceSchema>;

export const fieldStateSchema = z.object({
  value: z.unknown(),
  source: fieldSourceSchema,
  /** Seller scope: the marketplace's value, shown beside an override and restored by a reset. */
  inherited: z.unknown().optional(),
  editable: z.boolean(),
  secret: z.boolean().optional(),
  /** Set from the environment (SMTP_URL): shown read-only. */
  fromEnvironment: z.boolean().optional(),
});
export type FieldState = z.infer<typeof fieldStateSchema>;

export const scopeSchema = z.object({
  type: z.enum(['marketplace', 'seller']),
  sellerId: z.string().uuid().nullable(),
});
export type SettingsScope = z.infer<typeof scopeSchema>;

export const sectionStateSchema = z.object({
  section: storedSectionSchema,
  scope: scopeSchema,
  /** The stored version the page read; a save names it, and a stale one gets 409. */
  version: z.number().int().min(0),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  fields: z.record(z.string(), fieldStateSchema),
});
export type SectionState = z.infer<typeof sectionStateSchema>;

export const settingsOverviewSchema = z.object({
  scope: scopeSchema,
  /** The stored sections this user may see, in page order (plus `profile`, always). */
  sections: z.array(z.enum(settingsSections)),
  canEdit: z.boolean(),
});

export const saveSectionBodySchema = z.object({
  version: z.number().int().min(0),
  /** Fields to set, by name. */
  set: z.record(z.string(), z.unknown()).default({}),
  /** Fields to reset: a seller's back to inherited, the marketplace's back to the default. */
  reset: z.array(z.string()).max(100).default([]),
});
export type SaveSectionBody = z.input<typeof saveSectionBodySchema>;

export const settingsQuerySchema = z.object({
  /** Admins: a seller's scope instead of the marketplace's. */
  sellerId: z.string().uuid('sellerId must be a seller id').optional(),
});

/** What every signed-in browser needs: the request defaults and the formats (SPEC §7). */
export const clientSettingsSchema = z.object({
  defaultCountry: z.string(),
  defaultLanguage: z.string(),
  defaultCurrency: z.string(),
  currencies: z.array(z.string()),
  languages: z.array(z.string()),
  locale: z.string(),
  timeZone: z.string(),
  weekStart: z.enum(['monday', 'sunday', 'saturday']),
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

/** The broker message that tells open browsers to refetch (payload on the settings topic). */
export const settingsChangedMessageSchema = z.object({
  type: z.literal('SETTINGS_CHANGED'),
  section: z.enum(settingsSections),
  /** null: the marketplace's settings (everyone refetches); else only that seller's people. */
  sellerId: z.string().nullable(),
  /** The profile of one user changed (their own defaults): only that user refetches. */
  userId: z.string().nullable().optional(),
});
export type SettingsChangedMessage = z.infer<typeof settingsChangedMessageSchema>;

export const settingsHistoryQuerySchema = z.object({
  section: storedSectionSchema.optional(),
  userId: z.string().uuid().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  sellerId: z.string().uuid().optional(),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(200).default(25),
});

export const settingsHistoryRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
  section: z.string(),
  sellerId: z.string().nullable(),
  requestId: z.string().nullable(),
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
});
export type SettingsHistoryRow = z.infer<typeof settingsHistoryRowSchema>;

export const settingsHistoryPageSchema = z.object({
  result: z.array(settingsHistoryRowSchema),
  count: z.number().int(),
});

// ── Defaults ──────────────────────────────────────────────────────────────────────────────────────

const noHours: OfficeHours = Object.fromEntries(weekdays.map((day) => [day, []])) as unknown as OfficeHours;
const workingDay = [{ from: '09:00', to: '18:00' }];

/**
 * Every field's value until someone changes it. A few depend on the marketplace's country (the
 * fiscal year starts in April in India, in January elsewhere; India's invoice series keeps Rule 46), so
 * they are computed from it: changing the country moves them too, unless they were set.
 */
export function settingsDefaults(country = 'IN'): AllSettings {
  const india = country === 'IN';
  const preset = india ? SERIES_PRESETS.india : SERIES_PRESETS.eu;
  return {
    localization: {
      defaultCountry: 'IN',
      defaultLanguage: 'EN',
      defaultCurrency: 'INR',
      currencies: ['INR', 'USD', 'EUR', 'GBP', 'JPY', 'CHF', 'DZD', 'PLN'],
      languages: ['EN', 'HI', 'DE', 'FR', 'ES', 'AR'],
      timeZone: india ? 'Asia/Kolkata' : 'UTC',
      locale: 'en-GB',
      weekStart: 'monday',
    },
    communication: {
      senderName: 'Marketplace',
      senderAddress: 'no-reply@marketplace.local',
      replyTo: '',
      transport: 'outbox',
      smtpHost: '',
      smtpPort: 587,
      smtpSecure: false,
      smtpUser: '',
      smtpPassword: '',
      notificationChannels: {
        Admin: Object.fromEntries(notificationTypes.map((type) => [type, 'in-app'])),
        Staff: Object.fromEntries(notificationTypes.map((type) => [type, 'in-app'])),
        // A task's outcome is awaited in the app by whoever started it: in-app only, unless chosen.
        Seller: Object.fromEntries(
          notificationTypes.map((type) => [type, type === 'task' ? 'in-app' : 'both']),
        ),
      },
      officeHours: {
        ...noHours,
        monday: workingDay,
        tuesday: workingDay,
        wednesday: workingDay,
        thursday: workingDay,
        friday: workingDay,
      },
      holidays: [],
      // Office-hour minutes: an urgent query is answered within the hour, a low one within two days.
      slaTargets: {
        low: { firstResponseMinutes: 16 * 60, resolutionMinutes: 40 * 60 },
        normal: { firstResponseMinutes: 8 * 60, resolutionMinutes: 24 * 60 },
        high: { firstResponseMinutes: 2 * 60, resolutionMinutes: 8 * 60 },
        urgent: { firstResponseMinutes: 60, resolutionMinutes: 4 * 60 },
      },
    },
    shipping: { divisor: VOLUMETRIC_DIVISOR, lengthUnit: 'cm', zones: [] },
    website: {
      storefrontUrl: '',
      embedOrigins: [],
      widgetColour: '#2b6cb0',
      widgetTextColour: '#ffffff',
      widgetGreeting: 'Chat with us',
      widgetPosition: 'bottom-right',
    },
    company: {
      legalName: '',
      address: {
        fullName: '',
        email: '',
        addressLine1: '',
        addressLine2: '',
        city: '',
        state: '',
        country: '',
        zipcode: '',
      },
      taxId: '',
      logo: null,
      bankAccountName: '',
      bankAccountNumber: '',
      bankCode: '',
      bankName: '',
      fiscalYearStartMonth: defaultFiscalYearStartMonth(country),
      seriesPreset: india ? 'india' : 'eu',
      invoiceSeries: preset.invoice,
      creditNoteSeries: preset.creditNote,
      invoiceFooter: '',
      taxOptions: taxOptions.map(({ id, label, value, country: taxCountry }) => ({
        id,
        label,
        value,
        country: taxCountry,
      })),
      offerValidityDays: 30,
      offerReminderDays: 3,
      invoicePaymentDays: 14,
      invoiceReminderDays: 7,
    },
    content: {
      botWelcome: { EN: '' },
      botGeneralReply: { EN: '' },
      enquiryIntro: { EN: '' },
      unsubscribeText: { EN: '' },
      responsePageText: { EN: '' },
      termsUrl: '',
    },
  };
}
