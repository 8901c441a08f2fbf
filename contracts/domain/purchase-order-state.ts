/**
 * Purchase orders (issue 31): a line counts as received when what arrived is within the supplier's (or
 * the product's) tolerance under what was ordered; more than the tolerance over it needs a confirmation
 * with a reason. Tolerances are whole units or a percent in basis points (2.5 % = 250), compared with
 * integers only: received × 10 000 ≥ ordered × (10 000 − bp). ERPNext compares received quantities as
 * floats and OCA leaves a PO open for ever after 101 of 100 (../shared/ANCHORS.md §10); neither can
 * happen here.
 */
export const purchaseOrderStatuses = [
  'draft',
  'sent',
  'partially_received',
  'received',
  'cancelled',
] as const;
export type PurchaseOrderStatus = (typeof purchaseOrderStatuses)[number];

export const purchaseOrderStatusLabels: Record<PurchaseOrderStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  partially_received: 'Partly received',
  received: 'Received',
  cancelled: 'Cancelled',
};

export interface Tolerance {
  kind: 'percent' | 'units';
  /** Basis points for a percent (250 = 2.5 %), whole units otherwise. */
  value: number;
}

export const NO_TOLERANCE: Tolerance = { kind: 'units', value: 0 };

/** The fewest units that count the line as received. */
export function lowestAccepted(ordered: number, tolerance: Tolerance): number {
  if (tolerance.kind === 'units') return Math.max(0, ordered - tolerance.value);
  // ceil(ordered × (10 000 − bp) / 10 000) in integers.
  const numerator = BigInt(ordered) * BigInt(10_000 - tolerance.value);
  return Number((numerator + 9_999n) / 10_000n);
}

/** The most units accepted without a confirmation. */
export function highestAccepted(ordered: number, tolerance: Tolerance): number {
  if (tolerance.kind === 'units') return ordered + tolerance.value;
  return Number((BigInt(ordered) * BigInt(10_000 + tolerance.value)) / 10_000n);
}

export const lineReceived = (line: { ordered: number; received: number; tolerance: Tolerance }) =>
  line.received >= lowestAccepted(line.ordered, line.tolerance);

/** The status the lines give a purchase order that was sent (drafts and cancelled ones keep theirs). */
export function receivedStatus(
  lines: readonly { ordered: number; received: number; tolerance: Tolerance }[],
): PurchaseOrderStatus {
  if (lines.length > 0 && lines.every(lineReceived)) return 'received';
  return lines.some((line) => line.received > 0) ? 'partially_received' : 'sent';
}

export const toleranceText = (tolerance: Tolerance) =>
  tolerance.kind === 'units'
    ? `${tolerance.value} ${tolerance.value === 1 ? 'unit' : 'units'}`
    : `${tolerance.value / 100} %`;

export const purchaseOrderReference = (number: number) => `PO-${number}`;
