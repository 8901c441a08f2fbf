// How a subscription renewal gets paid.
//
// Today the marketplace takes payment outside the product (bank transfer, invoice) and an admin's
// approval of the renewal request is the confirmation: `manualApprovalProvider`. Nothing here pretends
// to charge anyone. A real provider (Razorpay, Stripe, …) implements the same interface:
//   - `startPayment` creates a checkout for the request and answers `{ kind: 'redirect', url }`; the
//     seller's page sends them there.
//   - `confirmPayment` asks the provider whether the payment for the request was captured; approval
//     refuses (409) until it was. The provider's webhook can then approve the request itself through
//     `decideRenewal(..., SYSTEM_ACTOR)` instead of waiting for an admin.
// Plug one in with `app.register(subscriptionRoutes, { payments: myProvider })`.

export interface PaymentPlan {
  name: string;
  priceMinor: number;
  currency: string;
}

/** What the seller is told right after requesting a renewal. */
export type PaymentStart = { kind: 'manual'; instructions: string } | { kind: 'redirect'; url: string };

export interface PaymentConfirmation {
  confirmed: boolean;
  /** The provider's payment reference, kept in the seller's history. */
  reference: string | null;
  /** Why the payment is not confirmed, shown to the admin. */
  reason?: string;
}

export interface PaymentProvider {
  readonly name: string;
  startPayment(input: { requestId: string; sellerId: string; plan: PaymentPlan }): Promise<PaymentStart>;
  confirmPayment(input: { requestId: string; sellerId: string }): Promise<PaymentConfirmation>;
}

export const MANUAL_PAYMENT_INSTRUCTIONS =
  'The marketplace team will contact you about the payment and approve the renewal once it is received.';

/** Payment outside the product: the admin who approves the request vouches that it was paid. */
export const manualApprovalProvider: PaymentProvider = {
  name: 'manual',
  async startPayment() {
    return { kind: 'manual', instructions: MANUAL_PAYMENT_INSTRUCTIONS };
  },
  async confirmPayment() {
    return { confirmed: true, reference: null };
  },
};
