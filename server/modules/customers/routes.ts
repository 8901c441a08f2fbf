import { and, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Customer,
  customerListSchema,
  customerSchema,
  listCustomersQuerySchema,
  searchCustomersQuerySchema,
  updateCustomerBodySchema,
} from '../../../contracts/customers';
import type { Db } from '../../db/client';
import { customers, sellers } from '../../db/schema';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { isUniqueViolation } from '../../lib/pg-errors';
import { displayName } from '../users/current-user';

const LIST = '/sellers/list-of-customers';
const EDIT = '/sellers/seller-customers/customer-edit';
const idParams = z.object({ id: z.string().uuid('id must be a customer id') });

/**
 * Which customers the signed-in user may see at all: a seller only those who registered through their
 * own store (a seller account without a store sees none); admins and staff every customer. Applied to
 * every query, reads and writes alike, so another seller's customer is simply not there (404).
 */
function visibleTo(request: FastifyRequest): SQL | undefined {
  if (request.user.role !== 'Seller') return undefined;
  return request.user.sellerId ? eq(customers.sellerId, request.user.sellerId) : sql`false`;
}

const columns = { customer: customers, sellerName: sellers.sellerName };
type Row = { customer: typeof customers.$inferSelect; sellerName: string | null };

function toCustomer({ customer, sellerName }: Row): Customer {
  return {
    id: customer.id,
    firstName: customer.firstName,
    lastName: customer.lastName,
    name: displayName(customer.firstName, customer.lastName, customer.email),
    email: customer.email,
    phone: customer.phone,
    address: customer.address ?? null,
    sellerId: customer.sellerId,
    sellerName,
    isActive: customer.isActive,
    createdAt: customer.createdAt.toISOString(),
    updatedAt: customer.updatedAt.toISOString(),
  };
}

/** One page of customers, newest first, with the total for the pager. */
async function page(db: Db, where: SQL | undefined, skip: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(customers)
      .leftJoin(sellers, eq(customers.sellerId, sellers.id))
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit)
      .offset(skip),
    db.select({ value: count() }).from(customers).where(where),
  ]);
  return { rows: rows.map(toCustomer), count: total?.value ?? 0 };
}

async function findVisible(db: Db, request: FastifyRequest, id: string): Promise<Row> {
  const [row] = await db
    .select(columns)
    .from(customers)
    .leftJoin(sellers, eq(customers.sellerId, sellers.id))
    .where(and(eq(customers.id, id), visibleTo(request)));
  if (!row) throw new HttpError(404, 'Customer not found', 'CUSTOMER_NOT_FOUND');
  return row;
}

const emailTaken = () =>
  new HttpError(409, 'Another customer already uses this e-mail address.', 'EMAIL_TAKEN');

/**
 * Customers, registered under /api/v1/users as SPEC §7 names listCustomers and searchCustomers; the
 * edit page's read and update sit beside them.
 */
export async function customerRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/listCustomers',
    {
      config: { permission: { route: LIST, action: 'view' } },
      schema: {
        tags: ['customers'],
        summary: 'Customers the user may see, newest first, paged',
        querystring: listCustomersQuerySchema,
        response: { 200: customerListSchema, ...errors },
      },
    },
    (request) => page(app.db, visibleTo(request), request.query.skip, request.query.limit),
  );

  api.get(
    '/searchCustomers',
    {
      config: { permission: { route: LIST, action: 'view' } },
      schema: {
        tags: ['customers'],
        summary: 'Customers by name, e-mail or phone (case-insensitive, partial), paged',
        querystring: searchCustomersQuerySchema,
        response: { 200: customerListSchema, ...errors },
      },
    },
    (request) => {
      const { query, skip, limit } = request.query;
      const pattern = containsPattern(query);
      const matches = or(
        ilike(sql`${customers.firstName} || ' ' || ${customers.lastName}`, pattern),
        ilike(customers.email, pattern),
        ilike(customers.phone, pattern),
      );
      return page(app.db, and(visibleTo(request), matches), skip, limit);
    },
  );

  api.get(
    '/customers/:id',
    {
      config: { permission: { route: EDIT, action: 'view' } },
      schema: {
        tags: ['customers'],
        summary: 'One customer',
        params: idParams,
        response: { 200: customerSchema, ...errors },
      },
    },
    async (request) => toCustomer(await findVisible(app.db, request, request.params.id)),
  );

  api.put(
    '/customers/:id',
    {
      config: { permission: { route: EDIT, action: 'edit' } },
      schema: {
        tags: ['customers'],
        summary: "Update a customer's name, contact details, address and active flag",
        params: idParams,
        body: updateCustomerBodySchema,
        response: { 200: customerSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      await findVisible(app.db, request, id);
      const [clash] = await app.db
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(sql`lower(${customers.email})`, body.email), sql`${customers.id} <> ${id}`));
      if (clash) throw emailTaken();
      try {
        await app.db
          .update(customers)
          .set({ ...body, updatedAt: new Date() })
          .where(and(eq(customers.id, id), visibleTo(request)));
      } catch (error) {
        if (isUniqueViolation(error, 'customers_email_uq')) throw emailTaken();
        throw error;
      }
      return toCustomer(await findVisible(app.db, request, id));
    },
  );
}
