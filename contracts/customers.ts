// Marketplace customers (/sellers/list-of-customers and its edit page). Admins and staff see every
// customer; a seller sees only the customers who registered through their store.
import { z } from 'zod';
import { emailSchema } from './auth';
import { intParam } from './int-param';
import { addressSchema } from './sellers';

export const CUSTOMER_PAGE_SIZE = 10;

const paging = {
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(CUSTOMER_PAGE_SIZE),
};

/** GET /api/v1/users/listCustomers */
export const listCustomersQuerySchema = z.object(paging);
export type ListCustomersQuery = z.input<typeof listCustomersQuerySchema>;

/** GET /api/v1/users/searchCustomers: name, e-mail or phone; case-insensitive, partial. */
export const searchCustomersQuerySchema = z.object({
  ...paging,
  query: z
    .string()
    .trim()
    .min(1, 'Enter something to search for')
    .max(100, 'Search must be at most 100 characters'),
});
export type SearchCustomersQuery = z.input<typeof searchCustomersQuerySchema>;

export const customerSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** The full name, otherwise the part of the e-mail before the @ (as SPEC §3 names users). */
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: addressSchema.nullable(),
  /** The seller the customer registered through; null for customers of the marketplace itself. */
  sellerId: z.string().nullable(),
  sellerName: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

/** SPEC §3: "A user list response has a rows array". */
export const customerListSchema = z.object({ rows: z.array(customerSchema), count: z.number().int() });
export type CustomerList = z.infer<typeof customerListSchema>;

/** Digits with the usual separators and an optional leading +; empty means no phone. */
export const phoneSchema = z
  .string()
  .trim()
  .max(30, 'Phone must be at most 30 characters')
  .regex(/^(\+?[0-9][0-9 ()-]{4,28})?$/, 'Enter a phone number: digits, spaces, ( ) - and a leading +');

/** PUT /api/v1/users/customers/{id}: everything an admin may change. */
export const updateCustomerBodySchema = z.object({
  firstName: z
    .string()
    .trim()
    .min(1, 'Enter the first name')
    .max(100, 'First name must be at most 100 characters'),
  lastName: z.string().trim().max(100, 'Last name must be at most 100 characters'),
  email: emailSchema,
  phone: phoneSchema,
  /** Null removes the address. */
  address: addressSchema.nullable(),
  isActive: z.boolean(),
});
export type UpdateCustomerBody = z.input<typeof updateCustomerBodySchema>;
