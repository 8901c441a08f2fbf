// An order's status and payment state (issue 31), computed from its sums and its fulfilment, never typed
// in. Money is integer minor units. Pure: the server writes what these answer, the SPA shows the same.
//
//   pending ──(paid ≥ total)──▶ paid ──ship──▶ shipped ──▶ delivered
//      │  ◀──(an edit raises the total)──┘         │
//      └──cancel (nothing captured)──▶ cancelled   └─ a full refund ▶ refunded (from any live status)

export const orderStatuses = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orderStatusLabels: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

export const paymentStates = ['unpaid', 'partly_paid', 'paid', 'partly_refunded', 'refunded'] as const;
export type PaymentState = (typeof paymentStates)[number];

export const paymentStateLabels: Record<PaymentState, string> = {
  unpaid: 'Unpaid',
  partly_paid: 'Partly paid',
  paid: 'Paid',
  partly_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

export interface OrderMoney {
  totalMinor: number;
  paidMinor: number;
  refundedMinor: number;
}

/** What the payments and refunds add up to. */
export function paymentStateOf({ totalMinor, paidMinor, refundedMinor }: OrderMoney): PaymentState {
  if (refundedMinor > 0) return refundedMinor >= paidMinor ? 'refunded' : 'partly_refunded';
  if (paidMinor <= 0) return 'unpaid';
  return paidMinor < totalMinor ? 'partly_paid' : 'paid';
}

/** The money kept: what was paid less what was refunded. */
export const capturedMinor = (money: OrderMoney) => money.paidMinor - money.refundedMinor;

/** What may still be refunded. */
export const refundableMinor = (money: OrderMoney) => Math.max(0, capturedMinor(money));

/** What is still to be paid (0 when paid in full or over). */
export const balanceDueMinor = (money: OrderMoney) => Math.max(0, money.totalMinor - money.paidMinor);

/** Statuses whose lines may still change, be paid for and be shipped. */
export const isOpen = (status: OrderStatus) => status === 'pending' || status === 'paid';

/**
 * The status after a change of money: an open order is paid once the payments cover its total, pending
 * again when they no longer do; any live order whose captured money was all refunded is refunded.
 */
export function statusAfterMoney(status: OrderStatus, money: OrderMoney): OrderStatus {
  if (status === 'cancelled' || status === 'refunded') return status;
  if (money.refundedMinor > 0 && money.refundedMinor >= money.paidMinor) return 'refunded';
  if (!isOpen(status)) return status;
  return money.paidMinor >= money.totalMinor ? 'paid' : 'pending';
}

/** Why an action is refused in this status, or null when it is allowed. */
export function orderActionProblem(
  action: 'edit' | 'pay' | 'ship' | 'deliver' | 'cancel' | 'refund',
  status: OrderStatus,
  money: OrderMoney,
): string | null {
  const label = orderStatusLabels[status].toLowerCase();
  switch (action) {
    case 'edit':
      return isOpen(status) ? null : `A ${label} order cannot be edited.`;
    case 'pay':
      if (status === 'cancelled' || status === 'refunded') return `A ${label} order takes no payments.`;
      return balanceDueMinor(money) > 0 ? null : 'This order is paid in full.';
    case 'ship':
      return isOpen(status) ? null : `A ${label} order cannot be shipped.`;
    case 'deliver':
      return status === 'shipped' ? null : 'Only a shipped order can be marked delivered.';
    case 'cancel':
      if (!isOpen(status)) return `A ${label} order cannot be cancelled.`;
      return capturedMinor(money) > 0
        ? 'Refund what was paid before cancelling: a cancelled order keeps no money.'
        : null;
    case 'refund':
      if (status === 'cancelled' || status === 'refunded') return `A ${label} order has nothing to refund.`;
      return refundableMinor(money) > 0 ? null : 'Nothing was paid that is not refunded already.';
  }
}

export const orderReference = (number: number) => `ORD-${number}`;
