// The seller lifecycle as data changes: which flags an allowed action sets, and the 409 a disallowed one
// answers. Pure (no database), so every (status, action) pair is unit-tested; the table itself lives in
// contracts/seller-admin.ts because the page offers only the actions it allows.
import {
  nextSellerStatus,
  type SellerStatusAction,
  sellerSelfActions,
} from '../../../contracts/seller-admin';
import type { SellerStatus } from '../../../contracts/sellers';
import { HttpError } from '../../lib/http-error';

export interface LifecycleFlags {
  isActive: boolean;
  isEmailVerified: boolean;
  isKycDone: boolean;
  kycRejectionReason: string | null;
}

/** The flags of each status; the same rule as the tabs and `sellerStatus` (SPEC §4), read backwards. */
const flagsOf: Record<SellerStatus, Omit<LifecycleFlags, 'kycRejectionReason'>> = {
  'Pending Verification': { isActive: false, isEmailVerified: false, isKycDone: false },
  'Pending KYC': { isActive: false, isEmailVerified: true, isKycDone: false },
  Active: { isActive: true, isEmailVerified: true, isKycDone: true },
  Inactive: { isActive: false, isEmailVerified: true, isKycDone: true },
};

export type Transition =
  | { ok: true; to: SellerStatus; flags: LifecycleFlags }
  | { ok: false; error: HttpError };

/** The action as a verb phrase, so the refusal reads as a sentence. */
const actionPhrase: Record<SellerStatusAction, string> = {
  verifyEmail: 'verify the e-mail of',
  approveKyc: 'approve KYC for',
  rejectKyc: 'reject KYC for',
  activate: 'activate',
  deactivate: 'deactivate',
};

/** "Cannot approve KYC for a seller who is Active." */
export function invalidTransition(action: SellerStatusAction, status: SellerStatus): HttpError {
  return new HttpError(
    409,
    `Cannot ${actionPhrase[action]} a seller who is ${status}.`,
    'INVALID_TRANSITION',
  );
}

/**
 * What `action` does to a seller in `status`. A KYC rejection records its reason (the seller sees it);
 * approving KYC clears it; the other actions leave it as it was.
 */
export function transition(
  status: SellerStatus,
  current: Pick<LifecycleFlags, 'kycRejectionReason'>,
  action: SellerStatusAction,
  reason?: string | null,
): Transition {
  const to = nextSellerStatus(status, action);
  if (!to) return { ok: false, error: invalidTransition(action, status) };
  const kycRejectionReason =
    action === 'rejectKyc' ? (reason ?? null) : action === 'approveKyc' ? null : current.kycRejectionReason;
  return { ok: true, to, flags: { ...flagsOf[to], kycRejectionReason } };
}

/** The seller's own switch: only pause and resume, and only where the lifecycle allows them. */
export function sellerSelfTransition(
  status: SellerStatus,
  current: Pick<LifecycleFlags, 'kycRejectionReason'>,
  action: SellerStatusAction,
): Transition {
  if (!(sellerSelfActions as readonly SellerStatusAction[]).includes(action)) {
    return {
      ok: false,
      error: new HttpError(409, 'Sellers can only pause or resume their own shop.', 'INVALID_TRANSITION'),
    };
  }
  return transition(status, current, action);
}
