// The public enquiry form (issue 30): a storefront customer asks a shop a question or for an offer at
// /enquiry/{sellerCode}, without an account. Shared by the server, the page and the tests.
import { z } from 'zod';

export const ENQUIRY_PRODUCT_PAGE_SIZE = 20;
export const MAX_ENQUIRY_MESSAGE_LENGTH = 4000;
export const MAX_OFFER_LINES = 20;

export const ENQUIRY_MESSAGES = {
  unknownShop: 'This shop does not take enquiries.',
  /** Missing, forged or expired form token; a filled honeypot gets the same words (bots learn nothing). */
  refused: 'We could not accept this enquiry. Please reload the page and try again.',
  tooFast: 'That was quick! Please check your enquiry and send it again in a few seconds.',
  duplicate: 'We already have this enquiry; we will answer it soon.',
  tooMany: 'Too many enquiries from here. Please wait a while and try again.',
} as const;

export const enquiryModes = ['question', 'offer'] as const;
export type EnquiryMode = (typeof enquiryModes)[number];

export const enquiryConfigSchema = z.object({
  sellerName: z.string(),
  /** Settings → Content's enquiry introduction in the reader's language, as plain text ('' for none). */
  intro: z.string(),
  /** The languages the introduction is written in (ISO 639-1, upper case). */
  languages: z.array(z.string()),
  /** Signed; carries the time the form was issued (minimum fill time, expiry). */
  formToken: z.string(),
});
export type EnquiryConfig = z.infer<typeof enquiryConfigSchema>;

export const enquiryProductSchema = z.object({ id: z.string().uuid(), title: z.string(), sku: z.string() });
export type EnquiryProduct = z.infer<typeof enquiryProductSchema>;
export const enquiryProductPageSchema = z.object({
  items: z.array(enquiryProductSchema),
  hasMore: z.boolean(),
});

export const enquiryProductsQuerySchema = z.object({
  search: z.string().trim().max(100).default(''),
  skip: z.coerce.number().int().min(0).max(10_000).default(0),
});

const text = (max: number) => z.string().trim().max(max);

export const offerLineSchema = z.object({
  productId: z.string().uuid(),
  quantity: z.number().int().min(1).max(1_000_000),
});

export const enquiryBodySchema = z
  .object({
    formToken: z.string().max(500).default(''),
    /** The honeypot: hidden from people; anything in it marks a bot. */
    website: z.string().max(500).default(''),
    mode: z.enum(enquiryModes).default('question'),
    name: text(120).min(1, 'Enter your name'),
    email: z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254),
    phone: text(40).default(''),
    subject: text(200).default(''),
    message: text(MAX_ENQUIRY_MESSAGE_LENGTH).min(1, 'Write your message'),
    productId: z.string().uuid().nullable().optional(),
    lines: z.array(offerLineSchema).max(MAX_OFFER_LINES).default([]),
    shippingCountry: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'shippingCountry is a two-letter code')
      .transform((code) => code.toUpperCase())
      .nullable()
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.mode === 'question' && body.subject === '')
      context.addIssue({ code: 'custom', path: ['subject'], message: 'Enter a subject' });
    if (body.mode === 'offer' && body.lines.length === 0)
      context.addIssue({ code: 'custom', path: ['lines'], message: 'Choose at least one product' });
  });
export type EnquiryBody = z.input<typeof enquiryBodySchema>;

export const enquiryAcceptedSchema = z.object({
  mode: z.enum(enquiryModes),
  /** "Q-1042" or the offer request's reference: the customer quotes it when writing again. */
  reference: z.string(),
  message: z.string(),
});
export type EnquiryAccepted = z.infer<typeof enquiryAcceptedSchema>;
