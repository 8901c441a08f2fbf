// The seller form (create and edit share it): what the inputs hold, how they become a request body,
// and the per-field messages of the contract's own validation.
import type { z } from 'zod';
import {
  type CreateSellerBody,
  createSellerBodySchema,
  type UpdateSellerBody,
  updateSellerBodySchema,
} from '../../../contracts/seller-admin';
import type { Address, Seller } from '../../../contracts/sellers';

export const addressFields = [
  'fullName',
  'email',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'zipcode',
  'country',
] as const satisfies readonly (keyof Address)[];

export const addressLabels: Record<keyof Address, string> = {
  fullName: 'Contact name',
  email: 'Contact e-mail',
  addressLine1: 'Address line 1',
  addressLine2: 'Address line 2',
  city: 'City',
  state: 'State',
  zipcode: 'PIN / ZIP code',
  country: 'Country',
};

export interface SellerFormValues {
  sellerName: string;
  email: string;
  phone: string;
  sellerCode: string;
  address: Address;
}

/** Field key → message; address fields are keyed `address.city` and so on. */
export type SellerFormErrors = Record<string, string>;

const emptyAddress: Address = {
  fullName: '',
  email: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  country: '',
  zipcode: '',
};

export const emptySellerForm: SellerFormValues = {
  sellerName: '',
  email: '',
  phone: '',
  sellerCode: '',
  address: emptyAddress,
};

export function formFromSeller(seller: Seller): SellerFormValues {
  return {
    sellerName: seller.sellerName,
    email: seller.email,
    phone: seller.phone,
    sellerCode: seller.sellerCode,
    address: { ...emptyAddress, ...(seller.address ?? {}) },
  };
}

/** An address with every field blank is no address. */
function addressOf(values: SellerFormValues): Address | null {
  return Object.values(values.address).some((value) => value.trim()) ? values.address : null;
}

/** Field by field: the stored JSON may list the keys in another order. */
function sameAddress(a: Address | null, b: Address | null): boolean {
  if (!a || !b) return a === b;
  return addressFields.every((field) => a[field].trim() === (b[field] ?? '').trim());
}

function errorsOf(issues: readonly z.core.$ZodIssue[]): SellerFormErrors {
  const errors: SellerFormErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

export type Parsed<T> = { ok: true; body: T } | { ok: false; errors: SellerFormErrors };

export function parseCreate(values: SellerFormValues): Parsed<CreateSellerBody> {
  const body: CreateSellerBody = {
    sellerName: values.sellerName,
    email: values.email,
    phone: values.phone,
    sellerCode: values.sellerCode.trim() || undefined,
    address: addressOf(values),
  };
  const parsed = createSellerBodySchema.safeParse(body);
  return parsed.success ? { ok: true, body } : { ok: false, errors: errorsOf(parsed.error.issues) };
}

/** Only the fields that differ from the seller, so the history shows exactly what the admin changed. */
export function parseUpdate(values: SellerFormValues, seller: Seller): Parsed<UpdateSellerBody> {
  const current = formFromSeller(seller);
  const body: UpdateSellerBody = {};
  if (values.sellerName.trim() !== current.sellerName) body.sellerName = values.sellerName;
  if (values.email.trim() !== current.email) body.email = values.email;
  if (values.phone.trim() !== current.phone) body.phone = values.phone;
  if (values.sellerCode.trim().toUpperCase() !== current.sellerCode) body.sellerCode = values.sellerCode;
  const address = addressOf(values);
  if (!sameAddress(address, seller.address)) body.address = address;
  if (Object.keys(body).length === 0) return { ok: false, errors: { form: 'Nothing has changed.' } };
  const parsed = updateSellerBodySchema.safeParse(body);
  return parsed.success ? { ok: true, body } : { ok: false, errors: errorsOf(parsed.error.issues) };
}
