// The seller's own dashboard (/sellers/general-dashboard, GET /api/v1/sellers/getSellerDashboard): the
// store's profile and live figures, all counted for the signed-in seller only.
import { z } from 'zod';
import { productStatuses } from './catalog';
import { queryStatuses } from './domain/query-status';
import { sellerStatuses } from './sellers';
import { currentSubscriptionSchema } from './subscriptions';

export { type ProductStatus, productStatuses, productStatusLabels } from './catalog';

export {
  type QueryStatus as CustomerQueryStatus,
  queryStatuses as customerQueryStatuses,
  queryStatusLabels as customerQueryStatusLabels,
} from './domain/query-status';

const countsOf = <T extends readonly [string, ...string[]]>(statuses: T) =>
  z.object(
    Object.fromEntries(statuses.map((status) => [status, z.number()])) as Record<T[number], z.ZodNumber>,
  );

export const sellerDashboardSchema = z.object({
  sellerId: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
  sellerAddress: z.string(),
  logo: z.string().nullable(),
  isActive: z.boolean(),
  isEmailVerified: z.boolean(),
  isKycDone: z.boolean(),
  isNewSeller: z.boolean(),
  blocked: z.boolean(),
  /** Where the seller stands in the lifecycle (the same rule as the Manage Sellers tabs). */
  status: z.enum(sellerStatuses),
  /** Why an admin last rejected the KYC papers; null when they never did or KYC is approved since. */
  kycRejectionReason: z.string().nullable(),
  memberSince: z.string(),
  products: z.object({
    /** Every product of the seller, whatever its status. */
    total: z.number(),
    byStatus: countsOf(productStatuses),
  }),
  queries: z.object({
    total: z.number(),
    /** Not yet resolved (new, open, waiting for the customer): the "Open queries" figure. */
    unresolved: z.number(),
    byStatus: countsOf(queryStatuses),
  }),
  chats: z.object({
    open: z.number(),
    /** Open chats whose visitor asked to talk to a person. */
    connectRequests: z.number(),
    /** Messages the seller has not read yet, over all open chats. */
    unreadMessages: z.number(),
  }),
  subscription: currentSubscriptionSchema,
});
export type SellerDashboard = z.infer<typeof sellerDashboardSchema>;
