// Sellers (SPEC §3, §4, §7): the seller record, the four tabs with their counts, list and search, and
// the lifecycle. Shared by the API, the admin pages and the benchmark.
import { z } from 'zod';
import { intParam } from './int-param';

export const addressSchema = z.object({
  fullName: z.string().trim().max(200),
  email: z.string().trim().max(254),
  addressLine1: z.string().trim().max(200),
  addressLine2: z.string().trim().max(200),
  city: z.string().trim().max(100),
  state: z.string().trim().max(100),
  country: z.string().trim().max(100),
  zipcode: z.string().trim().max(20),
});
export type Address = z.infer<typeof addressSchema>;

/**
 * The lifecycle (the spec leaves transitions open; this is the product's definition):
 * sign-up → Pending Verification → (e-mail verified) → Pending KYC → (KYC approved) → Active ⇄ Inactive.
 * A KYC rejection keeps the seller in Pending KYC with a reason the seller sees.
 */
export const sellerStatuses = ['Pending Verification', 'Pending KYC', 'Active', 'Inactive'] as const;
export type SellerStatus = (typeof sellerStatuses)[number];

/** The four tabs of /sellers/manage-sellers, in order (SPEC §2), with their filters (SPEC §4). */
export const sellerTabs = [
  { key: 'active', label: 'Active Sellers', filter: { isActive: true }, countKey: 'isActive' },
  {
    key: 'pending-verification',
    label: 'Pending Verification',
    filter: { isActive: false, isEmailVerified: false },
    countKey: 'isEmailVerified',
  },
  {
    key: 'pending-kyc',
    label: 'Pending KYC',
    filter: { isActive: false, isEmailVerified: true, isKycDone: false },
    countKey: 'isKycDone',
  },
  {
    key: 'inactive',
    label: 'Inactive Sellers',
    filter: { isActive: false, isEmailVerified: true, isKycDone: true },
    countKey: 'isInActive',
  },
] as const;
export type SellerTabKey = (typeof sellerTabs)[number]['key'];

/**
 * SPEC §4: the search query of Pending KYC filters only isActive false and isKycDone false (the list
 * query also needs isEmailVerified true). Both readings hold: each endpoint applies exactly the flags
 * it is given, and the page sends these for search.
 */
export const searchFilterOf: Record<
  SellerTabKey,
  Partial<Record<'isActive' | 'isEmailVerified' | 'isKycDone', boolean>>
> = {
  active: { isActive: true },
  'pending-verification': { isActive: false, isEmailVerified: false },
  'pending-kyc': { isActive: false, isKycDone: false },
  inactive: { isActive: false, isEmailVerified: true, isKycDone: true },
};

export const sellerLogoSchema = z.object({ path: z.string(), uploadedAt: z.string() });

/** A seller as the API answers it (list rows and detail). */
export const sellerSchema = z.object({
  id: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: addressSchema.nullable(),
  /** The path of the last entry of sellerLogos (SPEC §3), or null. */
  logo: z.string().nullable(),
  sellerLogos: z.array(sellerLogoSchema),
  isActive: z.boolean(),
  isEmailVerified: z.boolean(),
  isKycDone: z.boolean(),
  isNewSeller: z.boolean(),
  blocked: z.boolean(),
  isFree: z.boolean(),
  status: z.enum(sellerStatuses),
  kycRejectionReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Seller = z.infer<typeof sellerSchema>;

/** Query-string booleans: "true"/"false" (and 1/0). Absent means "do not filter on it". */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1')
  .optional();

export const SELLER_PAGE_SIZES = [10, 20, 50, 100] as const;
export const sellerSortFields = ['createdAt', 'sellerName', 'sellerCode'] as const;

export const listSellersQuerySchema = z.object({
  isActive: flag,
  isEmailVerified: flag,
  isKycDone: flag,
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(10),
  sort: z.enum(sellerSortFields).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ListSellersQuery = z.input<typeof listSellersQuerySchema>;

export const searchSellersQuerySchema = listSellersQuerySchema.extend({
  /** Name, code, e-mail or phone; case-insensitive, partial. */
  query: z.string().trim().min(1, 'Enter something to search for').max(100),
});
export type SearchSellersQuery = z.input<typeof searchSellersQuerySchema>;

/** Per-tab counts (SPEC §3/§4): Active, Pending Verification, Pending KYC, Inactive. */
export const countHashSchema = z.object({
  isActive: z.number().int(),
  isEmailVerified: z.number().int(),
  isKycDone: z.number().int(),
  isInActive: z.number().int(),
});
export type CountHash = z.infer<typeof countHashSchema>;

export const sellerListSchema = z.object({
  result: z.array(sellerSchema),
  /** Rows matching the filters (and the query), for paging. */
  count: z.number().int(),
  countHash: countHashSchema,
});
export type SellerList = z.infer<typeof sellerListSchema>;
