import { eq } from 'drizzle-orm';
import type { CurrentUser } from '../../../contracts/auth';
import type { AllSettings } from '../../../contracts/settings';
import type { Db } from '../../db/client';
import { type Address, type SellerLogo, sellers, users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { readEffectiveSettings } from '../settings/read';

/** The marketplace's Localization, whose defaults a user without their own inherits. */
export type MarketplaceLocalization = () => Promise<AllSettings['localization']>;

/** SPEC §3: the full name, otherwise the part of the e-mail before the @. */
export function displayName(firstName: string, lastName: string, email: string): string {
  return `${firstName} ${lastName}`.trim() || email.split('@')[0] || email;
}

export function formatAddress(address: Address | null): string {
  if (!address) return '';
  return [
    address.addressLine1,
    address.addressLine2,
    address.city,
    address.state,
    address.zipcode,
    address.country,
  ]
    .filter(Boolean)
    .join(', ');
}

/** SPEC §3: the logo shown everywhere is the path of the last entry of sellerLogos. */
export function latestLogoPath(logos: SellerLogo[]): string | null {
  return logos.at(-1)?.path ?? null;
}

/**
 * The current-user fields of SPEC §3, built from the database (never from token claims alone). The
 * defaults are the user's own, else the marketplace's: code with `app` passes its cached settings,
 * others (sign-in) read them when a default is inherited.
 */
export async function loadCurrentUser(
  db: Db,
  userId: string,
  marketplace: MarketplaceLocalization = async () => (await readEffectiveSettings(db, null)).localization,
): Promise<CurrentUser> {
  const [row] = await db
    .select({ user: users, seller: sellers })
    .from(users)
    .leftJoin(sellers, eq(users.sellerId, sellers.id))
    .where(eq(users.id, userId));
  if (!row?.user.isActive) throw new HttpError(401, 'Your account is no longer active', 'ACCOUNT_INACTIVE');
  const { user, seller } = row;
  const inherits = !user.defaultCurrency || !user.defaultCountry || !user.defaultLanguage;
  const localization = inherits ? await marketplace() : undefined;
  return {
    id: user.id,
    username: displayName(user.firstName, user.lastName, user.email),
    email: user.email,
    userAvatar: user.avatarUrl,
    defaultCurrency: user.defaultCurrency ?? localization?.defaultCurrency ?? 'INR',
    defaultCountry: user.defaultCountry ?? localization?.defaultCountry ?? 'IN',
    defaultLanguage: user.defaultLanguage ?? localization?.defaultLanguage ?? 'EN',
    roles: [user.role],
    isAdmin: user.role === 'Admin',
    isStaff: user.role === 'Staff',
    isSeller: user.role === 'Seller',
    seller: seller
      ? {
          sellerId: seller.id,
          sellerCode: seller.sellerCode,
          sellerName: seller.sellerName,
          sellerAddress: formatAddress(seller.address),
          logo: latestLogoPath(seller.sellerLogos),
          isNewSeller: seller.isNewSeller,
          blocked: seller.blocked,
        }
      : null,
  };
}
