// Seller management by admins (/sellers/manage-sellers) and the seller's own status switch: request and
// response schemas of everything except list and search (contracts/sellers.ts), and the lifecycle table
// that both the API (which enforces it) and the page (which only offers valid actions) read.
import { z } from 'zod';
import { intParam } from './int-param';
import { addressSchema, type SellerStatus, sellerSchema } from './sellers';

// ── Lifecycle ────────────────────────────────────────────────────────────────────────────────────────

export const sellerStatusActions = [
  'verifyEmail',
  'approveKyc',
  'rejectKyc',
  'activate',
  'deactivate',
] as const;
export type SellerStatusAction = (typeof sellerStatusActions)[number];

/**
 * Every allowed transition, and nothing else (the spec leaves them open; this is the product's rule):
 * Pending Verification --verifyEmail--> Pending KYC --approveKyc--> Active --deactivate--> Inactive
 * --activate--> Active. rejectKyc keeps the seller in Pending KYC with a reason the seller sees.
 */
export const sellerTransitions: Readonly<
  Record<SellerStatus, Partial<Readonly<Record<SellerStatusAction, SellerStatus>>>>
> = {
  'Pending Verification': { verifyEmail: 'Pending KYC' },
  'Pending KYC': { approveKyc: 'Active', rejectKyc: 'Pending KYC' },
  Active: { deactivate: 'Inactive' },
  Inactive: { activate: 'Active' },
};

/** A seller may only pause (deactivate) and resume (activate) their own shop. */
export const sellerSelfActions = ['activate', 'deactivate'] as const satisfies readonly SellerStatusAction[];

/** Where `action` takes a seller in `status`, or null when the lifecycle does not allow it. */
export function nextSellerStatus(status: SellerStatus, action: SellerStatusAction): SellerStatus | null {
  return sellerTransitions[status][action] ?? null;
}

/** The actions valid for a seller in `status`, in the table's order. */
export function allowedSellerActions(status: SellerStatus): SellerStatusAction[] {
  return sellerStatusActions.filter((action) => nextSellerStatus(status, action) !== null);
}

/** How the product names each action on buttons and in messages ("Cannot approve KYC for …"). */
export const sellerActionLabels: Record<SellerStatusAction, string> = {
  verifyEmail: 'Verify e-mail',
  approveKyc: 'Approve KYC',
  rejectKyc: 'Reject KYC',
  activate: 'Activate',
  deactivate: 'Deactivate',
};

// ── Create and edit ──────────────────────────────────────────────────────────────────────────────────

const sellerName = z
  .string()
  .trim()
  .min(2, 'Enter the seller name (at least 2 characters)')
  .max(200, 'The seller name is too long');
const email = z.string().trim().max(254, 'The e-mail is too long').email('Enter a valid e-mail address');
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 ()-]{5,24}$/, 'Enter a valid phone number (digits, spaces, +, -, brackets)');
/** Readable and URL-safe; stored upper-case so "sel-7" and "SEL-7" are visibly the same code. */
const sellerCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{1,31}$/, 'Seller code: 2–32 letters, digits or hyphens')
  .transform((value) => value.toUpperCase());

export const createSellerBodySchema = z.object({
  sellerName,
  email,
  phone,
  /** Generated (SEL-0042) when absent. */
  sellerCode: sellerCode.optional(),
  address: addressSchema.nullable().optional(),
});
export type CreateSellerBody = z.input<typeof createSellerBodySchema>;

/** The code a new seller gets when the form leaves it empty (at the time of asking: a hint, not a hold). */
export const nextSellerCodeSchema = z.object({ sellerCode: z.string() });
export type NextSellerCode = z.infer<typeof nextSellerCodeSchema>;

export const updateSellerBodySchema = z
  .object({
    sellerName: sellerName.optional(),
    email: email.optional(),
    phone: phone.optional(),
    sellerCode: sellerCode.optional(),
    address: addressSchema.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Nothing to update',
  });
export type UpdateSellerBody = z.input<typeof updateSellerBodySchema>;

/** The detail view: the seller plus the user account that signs in for them, if any. */
export const sellerDetailSchema = sellerSchema.extend({ userId: z.string().nullable() });
export type SellerDetail = z.infer<typeof sellerDetailSchema>;

// ── Status ───────────────────────────────────────────────────────────────────────────────────────────

const reason = z.string().trim().max(500, 'The reason is too long (500 characters at most)');

export const updateSellerStatusBodySchema = z
  .object({ action: z.enum(sellerStatusActions), reason: reason.optional() })
  .refine((body) => body.action !== 'rejectKyc' || !!body.reason, {
    message: 'Give a reason for rejecting KYC; the seller sees it',
    path: ['reason'],
  });
export type UpdateSellerStatusBody = z.input<typeof updateSellerStatusBodySchema>;

/** The seller's own switch; other actions are refused with 409 like any disallowed transition. */
export const updateStatusBySellerBodySchema = z.object({
  action: z.enum(sellerStatusActions),
  reason: reason.optional(),
});

export const markSellerFreeBodySchema = z.object({ isFree: z.boolean() });
/** The same, as SPEC §7's GET sends it: `?isFree=true` or `false`. */
export const markSellerFreeQuerySchema = z.object({
  isFree: z.enum(['true', 'false'], 'isFree must be true or false').transform((value) => value === 'true'),
});

// ── Pickers ──────────────────────────────────────────────────────────────────────────────────────────

export const fillerSellersQuerySchema = z.object({
  query: z.string().trim().max(100).optional(),
  limit: intParam.min(1).max(50).default(20),
});
export const fillerSellerSchema = z.object({
  id: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
});
export const fillerSellersSchema = z.object({ result: z.array(fillerSellerSchema) });
export type FillerSeller = z.infer<typeof fillerSellerSchema>;

// ── Documents and logo ───────────────────────────────────────────────────────────────────────────────

export const sellerDocumentKinds = ['identity', 'address', 'tax', 'bank', 'other'] as const;
export type SellerDocumentKind = (typeof sellerDocumentKinds)[number];
export const sellerDocumentKindLabels: Record<SellerDocumentKind, string> = {
  identity: 'Identity proof',
  address: 'Address proof',
  tax: 'Tax registration',
  bank: 'Bank details',
  other: 'Other',
};

/** KYC papers: PDF, JPEG or PNG (checked by content), 5 MB at most. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
/** Logos: PNG, JPEG or WebP (checked by content), 2 MB at most. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const uploadDocumentQuerySchema = z.object({
  sellerId: z.string().uuid('sellerId must be a seller id'),
  kind: z.enum(sellerDocumentKinds),
});

export const sellerDocumentSchema = z.object({
  id: z.string(),
  sellerId: z.string(),
  kind: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
});
export type SellerDocument = z.infer<typeof sellerDocumentSchema>;
export const sellerDocumentsSchema = z.object({ result: z.array(sellerDocumentSchema) });
