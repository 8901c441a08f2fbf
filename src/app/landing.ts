import type { CurrentUser } from '../../contracts/auth';

/**
 * SPEC §4, landing on `/`: a blocked seller who is not new goes to the subscription payment page, any
 * other seller to the general dashboard; admins and staff stay on the campaigns dashboard (null).
 */
export const SUBSCRIPTION_PAGE = '/sellers/payment-seller-subscriptions';

/** A seller whose subscription is blocked and who is not new: only the subscription page is theirs. */
export function isBlockedSeller(user: Pick<CurrentUser, 'isSeller' | 'seller'>): boolean {
  return user.isSeller && Boolean(user.seller?.blocked && !user.seller.isNewSeller);
}

export function landingRedirect(user: Pick<CurrentUser, 'isSeller' | 'seller'>): string | null {
  if (!user.isSeller) return null;
  if (isBlockedSeller(user)) return SUBSCRIPTION_PAGE;
  return '/sellers/general-dashboard';
}
