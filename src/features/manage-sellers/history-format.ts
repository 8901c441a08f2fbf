// How the update history reads: field names in words, values as text (never markup), and what each
// kind of entry says about who did what.
import type { AuditEntry } from '../../../contracts/audit';
import type { Address } from '../../../contracts/sellers';

const fieldLabels: Record<string, string> = {
  sellerName: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  sellerCode: 'Seller code',
  address: 'Address',
  status: 'Status',
  isActive: 'Active',
  isEmailVerified: 'E-mail verified',
  isKycDone: 'KYC done',
  kycRejectionReason: 'KYC rejection reason',
  isFree: 'Free',
  blocked: 'Blocked',
  logo: 'Logo',
  document: 'Document',
};

const actionVerbs: Record<string, string> = {
  created: 'created the seller',
  updated: 'edited the profile',
  status: 'changed the status',
  free: 'changed the fee',
  document: 'uploaded a document',
  logo: 'uploaded a logo',
  subscription: 'changed the subscription',
};

export const fieldLabel = (field: string) => fieldLabels[field] ?? field;
export const actionText = (entry: AuditEntry) => actionVerbs[entry.action] ?? entry.action;

function isAddress(value: unknown): value is Address {
  return !!value && typeof value === 'object' && 'addressLine1' in value;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (isAddress(value)) {
    return [value.addressLine1, value.addressLine2, value.city, value.state, value.zipcode, value.country]
      .filter((part) => part?.trim())
      .join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
