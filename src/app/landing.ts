import type { CurrentUser } from '../../contracts/auth';

/**
 * SPEC §4, landing on `/`: a blocked seller who is not new goes to the subscription payment page, any
 * other seller to the general dashboard; admins and staff stay on the campaigns dashboard (null).
 */
export function landingRedirect(user: Pick<CurrentUser, 'isSeller' | 'seller'>): string | null {
  if (!user.isSeller) return null;
  if (user.seller?.blocked && !user.seller.isNewSeller) return '/sellers/payment-seller-subscriptions';
  return '/sellers/general-dashboard';
}
