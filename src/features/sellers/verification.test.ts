import { describe, expect, it } from 'vitest';
import { sellerDocumentKinds } from '../../../contracts/seller-admin';
import { kycPapers, verificationGuide } from './verification';

describe('the verification guidance on the seller dashboard', () => {
  it('says nothing to an active seller, whatever reason is left over', () => {
    expect(verificationGuide({ status: 'Active', kycRejectionReason: null })).toBeNull();
    expect(verificationGuide({ status: 'Active', kycRejectionReason: 'old' })).toBeNull();
  });

  it('asks for the e-mail first, without the documents', () => {
    expect(verificationGuide({ status: 'Pending Verification', kycRejectionReason: null })).toMatchObject({
      step: 'verify-email',
      title: 'Verify your e-mail address',
      showDocuments: false,
      rejection: null,
    });
  });

  it('asks for the KYC papers in Pending KYC, with the rejection reason when there is one', () => {
    expect(verificationGuide({ status: 'Pending KYC', kycRejectionReason: null })).toMatchObject({
      step: 'upload-kyc',
      tone: 'warning',
      rejection: null,
      showDocuments: true,
    });
    expect(
      verificationGuide({ status: 'Pending KYC', kycRejectionReason: '  GST scan unreadable <b>x</b> ' }),
    ).toMatchObject({ tone: 'error', rejection: 'GST scan unreadable <b>x</b>', showDocuments: true });
    // A blank reason is no reason.
    expect(verificationGuide({ status: 'Pending KYC', kycRejectionReason: '  ' })?.rejection).toBeNull();
  });

  it('tells a paused seller how to resume', () => {
    expect(verificationGuide({ status: 'Inactive', kycRejectionReason: null })).toMatchObject({
      step: 'resume-shop',
      title: 'Your shop is paused',
      showDocuments: false,
    });
  });

  it('lists papers only of kinds the contract knows, each once', () => {
    const kinds = kycPapers.map((paper) => paper.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const kind of kinds) expect(sellerDocumentKinds).toContain(kind);
  });
});
