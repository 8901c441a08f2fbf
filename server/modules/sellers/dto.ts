// A seller row as the API answers it (contracts/sellers.ts sellerSchema): list rows and detail alike.
import type { Seller, SellerStatus } from '../../../contracts/sellers';
import type { sellers } from '../../db/schema';
import { latestLogoPath } from '../users/current-user';

type SellerRow = typeof sellers.$inferSelect;

/** Where a seller stands in the lifecycle; the same rule as the four tabs (SPEC §4). */
export function sellerStatus(
  row: Pick<SellerRow, 'isActive' | 'isEmailVerified' | 'isKycDone'>,
): SellerStatus {
  if (row.isActive) return 'Active';
  if (!row.isEmailVerified) return 'Pending Verification';
  if (!row.isKycDone) return 'Pending KYC';
  return 'Inactive';
}

export function toSellerDto(row: SellerRow): Seller {
  return {
    id: row.id,
    sellerCode: row.sellerCode,
    sellerName: row.sellerName,
    email: row.email,
    phone: row.phone,
    address: row.address ?? null,
    logo: latestLogoPath(row.sellerLogos),
    sellerLogos: row.sellerLogos,
    isActive: row.isActive,
    isEmailVerified: row.isEmailVerified,
    isKycDone: row.isKycDone,
    isNewSeller: row.isNewSeller,
    blocked: row.blocked,
    isFree: row.isFree,
    status: sellerStatus(row),
    kycRejectionReason: row.kycRejectionReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
