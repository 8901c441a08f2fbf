// What the seller's dashboard says about their verification: one entry per lifecycle status, so the
// wording is decided in one place (and tested) rather than spread through the page.
import type { SellerDocumentKind } from '../../../contracts/seller-admin';
import type { SellerDashboard } from '../../../contracts/seller-dashboard';

export type VerificationStep = 'verify-email' | 'upload-kyc' | 'resume-shop';

export interface VerificationGuide {
  step: VerificationStep;
  title: string;
  description: string;
  /** Chakra Alert status of the guidance. */
  tone: 'info' | 'warning' | 'error';
  /** The admin's reason for the last KYC rejection, only while the papers are still to be fixed. */
  rejection: string | null;
  /** Whether the seller uploads their KYC documents here. */
  showDocuments: boolean;
}

/** The papers the KYC check needs, by the document kinds of the contract ('other' is optional). */
export const kycPapers: readonly { kind: SellerDocumentKind; what: string }[] = [
  { kind: 'identity', what: 'PAN card of the business or its owner, and a photo ID (Aadhaar or passport)' },
  { kind: 'address', what: 'a recent utility bill, rent agreement or bank statement with your address' },
  { kind: 'tax', what: 'your GST registration certificate' },
  { kind: 'bank', what: 'a cancelled cheque or a bank statement for payouts' },
];

/** The guidance for a seller who is not active yet (or paused), or null for an active seller. */
export function verificationGuide(
  seller: Pick<SellerDashboard, 'status' | 'kycRejectionReason'>,
): VerificationGuide | null {
  switch (seller.status) {
    case 'Active':
      return null;
    case 'Pending Verification':
      return {
        step: 'verify-email',
        title: 'Verify your e-mail address',
        description:
          'Follow the link in the e-mail we sent you when you signed up. Once your address is verified, you can upload your KYC documents here.',
        tone: 'info',
        rejection: null,
        showDocuments: false,
      };
    case 'Pending KYC': {
      const rejection = seller.kycRejectionReason?.trim() || null;
      return {
        step: 'upload-kyc',
        title: rejection ? 'Upload corrected KYC documents' : 'Upload your KYC documents',
        description: rejection
          ? 'Upload a new copy of the papers the reason names. We check them again and activate your shop once they are in order.'
          : 'We check your papers and activate your shop once they are in order.',
        tone: rejection ? 'error' : 'warning',
        rejection,
        showDocuments: true,
      };
    }
    case 'Inactive':
      return {
        step: 'resume-shop',
        title: 'Your shop is paused',
        description:
          'Your KYC is approved, but customers cannot see your products while the shop is paused. Resume it when you are ready to sell again.',
        tone: 'warning',
        rejection: null,
        showDocuments: false,
      };
  }
}
