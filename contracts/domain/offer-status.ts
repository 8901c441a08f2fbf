// An offer request's lifecycle (issue 30): requested → offered → accepted / declined / expired. A
// declined or expired offer is reopened only by the seller sending a new version (offered again).

export const offerStatuses = ['requested', 'offered', 'accepted', 'declined', 'expired'] as const;
export type OfferStatus = (typeof offerStatuses)[number];

export const offerStatusLabels: Record<OfferStatus, string> = {
  requested: 'Requested',
  offered: 'Offered',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
};
