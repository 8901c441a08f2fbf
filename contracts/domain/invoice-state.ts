/**
 * An invoice's status (issue 31), computed from its money and dates, never typed in:
 * - draft: no number yet; it may still change or be deleted;
 * - unpaid: issued, nothing paid; pending: part of it paid; paid: all of it;
 * - overdue: unpaid or pending after its due date (the daily sweep moves it there);
 * - failed: its payment was refused (a subscription's card, or marked so by hand) until money arrives;
 * - cancelled: credit notes cover all of it.
 * A credit note is `issued` from the moment it has its number: the money it gives back is the refund's.
 */
export const invoiceStatuses = [
  'draft',
  'unpaid',
  'pending',
  'overdue',
  'paid',
  'failed',
  'cancelled',
  'issued',
] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export const invoiceKinds = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  unpaid: 'Unpaid',
  pending: 'Pending',
  overdue: 'Overdue',
  paid: 'Paid',
  failed: 'Failed',
  cancelled: 'Cancelled',
  issued: 'Credit note',
};

export interface InvoiceMoney {
  totalMinor: number;
  paidMinor: number;
  creditedMinor: number;
}

/**
 * The status of an issued invoice after a change of its money: credits covering it cancel it; paid in
 * full (what credits leave) is paid; otherwise a failed payment stays failed, a past due date is overdue,
 * part paid is pending, none unpaid.
 */
export function issuedInvoiceStatus(
  money: InvoiceMoney,
  options: { dueDate: string | null; today: string; failed?: boolean },
): InvoiceStatus {
  const owed = money.totalMinor - money.creditedMinor;
  if (money.creditedMinor > 0 && owed <= 0) return 'cancelled';
  if (money.paidMinor >= owed) return 'paid';
  if (options.failed) return 'failed';
  if (options.dueDate !== null && options.dueDate < options.today) return 'overdue';
  return money.paidMinor > 0 ? 'pending' : 'unpaid';
}

/** What is still to pay: the total less credits and payments, never below 0. */
export function invoiceBalanceMinor(money: InvoiceMoney): number {
  return Math.max(0, money.totalMinor - money.creditedMinor - money.paidMinor);
}

/** What credit notes may still take back from an issued invoice. */
export function creditableMinor(money: InvoiceMoney): number {
  return Math.max(0, money.totalMinor - money.creditedMinor);
}

export type InvoiceAction = 'issue' | 'delete' | 'pay' | 'fail' | 'cancel' | 'mail';

/** Why the action is refused for this invoice now, or null when it is allowed. */
export function invoiceActionProblem(
  action: InvoiceAction,
  invoice: InvoiceMoney & { kind: InvoiceKind; status: InvoiceStatus; fromOrder: boolean },
): string | null {
  const draft = invoice.status === 'draft';
  switch (action) {
    case 'issue':
      return draft ? null : 'It is issued already.';
    case 'delete':
      return draft ? null : 'An issued invoice is never deleted: cancel it with a credit note.';
    case 'mail':
      return draft ? 'Issue it first: a draft has no number.' : null;
    case 'pay':
    case 'fail':
      if (invoice.kind === 'credit_note') return 'A credit note is not paid.';
      if (draft) return 'Issue it first: a draft has no number.';
      if (invoice.fromOrder) return 'Its order takes the payments: record them there.';
      if (invoiceBalanceMinor(invoice) === 0) return 'Nothing is left to pay.';
      if (action === 'fail' && invoice.status === 'failed') return 'Its payment is marked failed already.';
      return null;
    case 'cancel':
      if (invoice.kind === 'credit_note') return 'A credit note is not cancelled.';
      if (draft) return 'A draft is deleted, not cancelled.';
      if (invoice.paidMinor > 0)
        return 'Money was paid on it: refund it first (a refund issues its credit note).';
      return creditableMinor(invoice) === 0 ? 'Credit notes cover all of it already.' : null;
  }
}
