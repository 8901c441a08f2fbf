import { describe, expect, it } from 'vitest';
import {
  allowedSellerActions,
  type SellerStatusAction,
  sellerStatusActions,
} from '../../../contracts/seller-admin';
import { type SellerStatus, sellerStatuses } from '../../../contracts/sellers';
import { sellerStatus } from './dto';
import { sellerSelfTransition, transition } from './lifecycle';

/** The whole table, written out: every (status, action) pair and where it leads (null = refused). */
const expected: Record<SellerStatus, Record<SellerStatusAction, SellerStatus | null>> = {
  'Pending Verification': {
    verifyEmail: 'Pending KYC',
    approveKyc: null,
    rejectKyc: null,
    activate: null,
    deactivate: null,
  },
  'Pending KYC': {
    verifyEmail: null,
    approveKyc: 'Active',
    rejectKyc: 'Pending KYC',
    activate: null,
    deactivate: null,
  },
  Active: { verifyEmail: null, approveKyc: null, rejectKyc: null, activate: null, deactivate: 'Inactive' },
  Inactive: { verifyEmail: null, approveKyc: null, rejectKyc: null, activate: 'Active', deactivate: null },
};

const pairs = sellerStatuses.flatMap((status) =>
  sellerStatusActions.map((action) => [status, action, expected[status][action]] as const),
);

describe('seller lifecycle', () => {
  it.each(pairs)('%s --%s--> %s', (status, action, to) => {
    const result = transition(status, { kycRejectionReason: 'old reason' }, action, 'Blurred scan');
    if (to === null) {
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.status).toBe(409);
      expect(result.error.code).toBe('INVALID_TRANSITION');
      expect(result.error.message).toMatch(new RegExp(`^Cannot .+ a seller who is ${status}\\.$`));
      return;
    }
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.to).toBe(to);
    // The flags written are exactly the ones the tabs read back as the target status.
    expect(sellerStatus(result.flags)).toBe(to);
    const reason = action === 'rejectKyc' ? 'Blurred scan' : action === 'approveKyc' ? null : 'old reason';
    expect(result.flags.kycRejectionReason).toBe(reason);
  });

  it('offers exactly the allowed actions per status', () => {
    expect(allowedSellerActions('Pending Verification')).toEqual(['verifyEmail']);
    expect(allowedSellerActions('Pending KYC')).toEqual(['approveKyc', 'rejectKyc']);
    expect(allowedSellerActions('Active')).toEqual(['deactivate']);
    expect(allowedSellerActions('Inactive')).toEqual(['activate']);
  });

  it('words a refusal as a sentence', () => {
    const result = transition('Active', { kycRejectionReason: null }, 'approveKyc');
    expect(result.ok ? null : result.error.message).toBe('Cannot approve KYC for a seller who is Active.');
  });

  it.each(pairs)('a seller themself: %s --%s-->', (status, action, to) => {
    const result = sellerSelfTransition(status, { kycRejectionReason: null }, action);
    const selfAllowed = (action === 'activate' || action === 'deactivate') && to !== null;
    expect(result.ok).toBe(selfAllowed);
    if (!result.ok) expect(result.error.status).toBe(409);
    else expect(result.to).toBe(to);
  });
});
