// Offer requests and offers (issue 30; ANCHORS §8): a customer asks for an offer, the seller drafts
// priced lines, sends a frozen version by a signed link, the customer accepts or declines it there.
// Money is integer minor units of the offer's currency (contracts/domain/currency.ts moneyDigits).
import { z } from 'zod';
import { offerStatuses } from './domain/offer-status';
import { intParam } from './int-param';
import { addressSchema } from './sellers';

export const OFFERS_ROUTE = '/customers/offer-requests';
export const OFFERS_API = '/api/v1/offers';
/** One offer's page (its permission guards the offer's own API: read, draft, send). */
export const OFFER_PAGE = '/customers/offer';
export const offerPageLink = (id: string) => `${OFFER_PAGE}?id=${id}`;

const text = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const day = z.iso.date('A date is written YYYY-MM-DD.');

// ---------------------------------------------------------------------------------------------------
// Requests

export const requestedItemSchema = z.object({
  productId: z.uuid('Choose a product from the list.'),
  quantity: z
    .number()
    .int('A quantity is a whole number.')
    .min(1, 'A quantity is at least 1.')
    .max(1_000_000),
  note: z.string().trim().max(1000).default(''),
});
export type RequestedItem = z.infer<typeof requestedItemSchema>;

/** POST /api/v1/offers: staff or a seller records a request on a customer's behalf. */
export const createOfferBodySchema = z.object({
  customerName: text(200, 'Enter the customer’s name.'),
  email: z.email('Enter a valid e-mail address.').max(320),
  phone: z.string().trim().max(40).default(''),
  /** Admins and staff choose the seller; a seller's is always their own. */
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  items: z.array(requestedItemSchema).max(100, 'At most 100 items.').default([]),
  message: z.string().trim().max(20_000).default(''),
  shippingAddress: addressSchema.nullable().optional(),
  queryId: z.uuid().nullable().optional(),
});
export type CreateOfferBody = z.infer<typeof createOfferBodySchema>;

// ---------------------------------------------------------------------------------------------------
// List

export const offerListQuerySchema = z.object({
  status: z.enum(offerStatuses).optional(),
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'A currency is a three-letter code.')
    .optional(),
  /** Created on or after / before the end of these days (YYYY-MM-DD, UTC). */
  from: day.optional(),
  to: day.optional(),
  /** Name, e-mail, message or the offer number. */
  query: z.string().trim().max(200, 'Search with at most 200 characters.').default(''),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});
export type OfferListQuery = z.infer<typeof offerListQuerySchema>;

export const offerListItemSchema = z.object({
  id: z.string(),
  number: z.number(),
  sellerId: z.string(),
  sellerName: z.string().nullable(),
  customerName: z.string(),
  email: z.string(),
  status: z.enum(offerStatuses),
  currentVersion: z.number(),
  currency: z.string().nullable(),
  totalMinor: z.number().nullable(),
  expiresAt: z.string().nullable(),
  toConvert: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OfferListItem = z.infer<typeof offerListItemSchema>;

export const offerTabsSchema = z.object(
  Object.fromEntries(offerStatuses.map((status) => [status, z.number()])) as Record<
    (typeof offerStatuses)[number],
    z.ZodNumber
  >,
);
export type OfferTabs = z.infer<typeof offerTabsSchema>;

export const offerListSchema = z.object({
  result: z.array(offerListItemSchema),
  /** Rows matching every filter (bounded: `totalCapped` when there are more). */
  total: z.number(),
  totalCapped: z.boolean(),
  /** Offers per status the caller may see, from offer_status_counts (the tabs). */
  tabs: offerTabsSchema,
});
export type OfferList = z.infer<typeof offerListSchema>;

// ---------------------------------------------------------------------------------------------------
// Draft and pricing

export const quantityBreakSchema = z.object({
  minQuantity: z.number().int().min(1, 'A quantity break starts at 1 or more.'),
  unitPriceMinor: z.number().int('Prices are whole minor units.').min(0),
});
export type QuantityBreak = z.infer<typeof quantityBreakSchema>;

export const draftLineSchema = z
  .object({
    productId: z.uuid('Choose a product from the list.').nullable().default(null),
    name: text(300, 'Give every line a name.'),
    sku: z.string().trim().max(100).default(''),
    quantity: z
      .number()
      .int('A quantity is a whole number.')
      .min(1, 'A quantity is at least 1.')
      .max(1_000_000),
    unitPriceMinor: z.number().int('Prices are whole minor units.').min(0).max(1e13),
    quantityBreaks: z.array(quantityBreakSchema).max(20).default([]),
    /** Percent off the line (0–100, two decimals at most); or a fixed amount off the line. */
    discountPercent: z.number().min(0).max(100).nullable().default(null),
    discountMinor: z.number().int().min(0).nullable().default(null),
    /** contracts/domain/tax-options.ts id; null: no tax on this line. */
    taxOptionId: z.string().max(40).nullable().default(null),
  })
  .refine((l) => l.discountPercent === null || l.discountMinor === null, {
    message: 'Give a line a percent or an amount off, not both.',
    path: ['discountMinor'],
  });
export type DraftLine = z.infer<typeof draftLineSchema>;

/** PUT /api/v1/offers/{id}/draft */
export const offerDraftBodySchema = z.object({
  lines: z.array(draftLineSchema).min(1, 'Add at least one line.').max(200),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'A currency is a three-letter code.'),
  /** Where the goods go: picks the tax options and the shipping zone; null: the customer's address's. */
  shippingCountry: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, 'A country is a two-letter code.')
    .nullable()
    .default(null),
  /** YYYY-MM-DD; default today + company.offerValidityDays in the seller's time zone. */
  validUntil: day.nullable().default(null),
  notes: z.string().trim().max(5000).default(''),
});
export type OfferDraftBody = z.infer<typeof offerDraftBodySchema>;

export const pricedLineSchema = z.object({
  productId: z.string().nullable(),
  name: z.string(),
  sku: z.string(),
  quantity: z.number(),
  /** The list price entered and the one the quantity breaks chose. */
  listUnitPriceMinor: z.number(),
  unitPriceMinor: z.number(),
  quantityBreaks: z.array(quantityBreakSchema),
  discountPercent: z.number().nullable(),
  discountMinor: z.number().nullable(),
  /** quantity × unitPrice, the discount taken, the net line. */
  grossMinor: z.number(),
  discountTotalMinor: z.number(),
  netMinor: z.number(),
  taxOptionId: z.string().nullable(),
  taxLabel: z.string().nullable(),
  taxRate: z.number(),
  taxMinor: z.number(),
  totalMinor: z.number(),
});
export type PricedLine = z.infer<typeof pricedLineSchema>;

export const offerTotalsSchema = z.object({
  subtotalMinor: z.number(),
  discountMinor: z.number(),
  taxMinor: z.number(),
  shippingMinor: z.number(),
  totalMinor: z.number(),
});
export type OfferTotals = z.infer<typeof offerTotalsSchema>;

/** A draft's or a version's priced content: what the customer sees. */
export const offerPricingSchema = z.object({
  currency: z.string(),
  shippingCountry: z.string().nullable(),
  lines: z.array(pricedLineSchema),
  totals: offerTotalsSchema,
  validUntil: z.string(),
  notes: z.string(),
  /** Why pricing could not be completed (a tax or shipping rate lookup), apart from the lifecycle. */
  pricingErrors: z.array(z.string()),
});
export type OfferPricing = z.infer<typeof offerPricingSchema>;

// ---------------------------------------------------------------------------------------------------
// Detail

export const offerVersionSummarySchema = z.object({
  version: z.number(),
  currency: z.string(),
  totalMinor: z.number(),
  validUntil: z.string(),
  expiresAt: z.string(),
  sentAt: z.string(),
  sentByName: z.string(),
  openedAt: z.string().nullable(),
  snapshotSha256: z.string(),
});
export type OfferVersionSummary = z.infer<typeof offerVersionSummarySchema>;

export const offerResponseSchema = z.object({
  version: z.number(),
  decision: z.enum(['accepted', 'declined']),
  typedName: z.string(),
  comment: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  snapshotSha256: z.string(),
  createdAt: z.string(),
});
export type OfferResponse = z.infer<typeof offerResponseSchema>;

export const offerHistoryEntrySchema = z.object({
  at: z.string(),
  actorName: z.string(),
  action: z.string(),
  note: z.string(),
});

/** What the draft editor may choose from: the seller's effective settings, read by the server. */
export const offerChoicesSchema = z.object({
  currencies: z.array(z.string()),
  defaultCurrency: z.string(),
  /** Every tax option of the settings; a line may use the shipping country's (taxRatesFor). */
  taxOptions: z.array(
    z.object({ id: z.string(), label: z.string(), value: z.number(), country: z.string() }),
  ),
  /** The customer's shipping country when their address names one by its code. */
  shippingCountry: z.string().nullable(),
  timeZone: z.string(),
  /** Today + company.offerValidityDays in the seller's time zone. */
  defaultValidUntil: z.string(),
});
export type OfferChoices = z.infer<typeof offerChoicesSchema>;

export const offerDetailSchema = offerListItemSchema.extend({
  phone: z.string(),
  message: z.string(),
  shippingAddress: addressSchema.nullable(),
  requestedItems: z.array(
    z.object({ productId: z.string(), name: z.string(), quantity: z.number(), note: z.string() }),
  ),
  contactId: z.string().nullable(),
  customerId: z.string().nullable(),
  queryId: z.string().nullable(),
  /** The order an accepted offer became (issue 31); null until then. */
  orderId: z.string().nullable(),
  /** The working copy of the next version, priced; null before the first save. */
  draft: offerPricingSchema.nullable(),
  /** The last sent version's snapshot (for the draft-vs-sent diff); null before the first send. */
  lastSent: offerPricingSchema.nullable(),
  versions: z.array(offerVersionSummarySchema),
  responses: z.array(offerResponseSchema),
  history: z.array(offerHistoryEntrySchema),
  /** The draft may be sent now (a requested, expired or declined offer, or a revision of an open one). */
  canSend: z.boolean(),
  choices: offerChoicesSchema,
});
export type OfferDetail = z.infer<typeof offerDetailSchema>;

// ---------------------------------------------------------------------------------------------------
// Diff

export const diffFieldSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export const lineDiffSchema = z.object({
  kind: z.enum(['added', 'removed', 'changed']),
  /** productId, else the SKU, else the name: how lines are matched between versions. */
  key: z.string(),
  name: z.string(),
  changes: z.array(diffFieldSchema),
});
export const offerDiffSchema = z.object({
  lines: z.array(lineDiffSchema),
  /** currency, validUntil, notes, shippingCountry, totals.* */
  fields: z.array(diffFieldSchema),
});
export type OfferDiff = z.infer<typeof offerDiffSchema>;

export const diffQuerySchema = z.object({ against: intParam.min(0).optional() });
export const versionDiffSchema = z.object({
  version: z.number(),
  against: z.number(),
  diff: offerDiffSchema,
});

// ---------------------------------------------------------------------------------------------------
// Public link (no account)

export const publicOfferSchema = z.object({
  number: z.number(),
  version: z.number(),
  sellerName: z.string(),
  customerName: z.string(),
  status: z.enum(offerStatuses),
  offer: offerPricingSchema,
  expiresAt: z.string(),
  sentAt: z.string(),
  /** A newer version was sent: this one can no longer be answered; its own link was mailed. */
  newerVersion: z.number().nullable(),
  /** The public token of the newest version (the page links to it). */
  newerToken: z.string().nullable(),
  /** Accept/decline possible now (offered, not expired, not superseded, not answered). */
  canRespond: z.boolean(),
  /** Why not, in words, when canRespond is false. */
  reason: z.string().nullable(),
  response: offerResponseSchema.pick({ decision: true, typedName: true, createdAt: true }).nullable(),
});
export type PublicOffer = z.infer<typeof publicOfferSchema>;

export const publicResponseBodySchema = z.object({
  typedName: text(200, 'Type your full name to sign.'),
  comment: z.string().trim().max(2000).default(''),
});
export type PublicResponseBody = z.infer<typeof publicResponseBodySchema>;

export const publicResponseResultSchema = z.object({
  decision: z.enum(['accepted', 'declined']),
  version: z.number(),
  typedName: z.string(),
  createdAt: z.string(),
  /** false: this was answered before; the stored decision is returned. */
  recorded: z.boolean(),
});
export type PublicResponseResult = z.infer<typeof publicResponseResultSchema>;
