// An offer request (issue 30): what a customer asks a shop to quote. Every source calls
// createOfferRequest: the public enquiry form ("ask for an offer"), staff or a seller entering one on a
// customer's behalf (POST /api/v1/offers). The request is linked to the marketing contact of its address
// (made if new, never overwritten), to the registered customer with that e-mail, and its products must
// all be the seller's. The seller's users are told.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { offerPageLink } from '../../../contracts/offers';
import type { Address } from '../../../contracts/sellers';
import type { Db } from '../../db/client';
import { customerQueries, customers, offers, products, sellers, users } from '../../db/schema';
import { type Actor, NO_ACTOR, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import type { NotificationInput } from '../../lib/notifications';
import { linkContact } from '../contacts/link';

export interface NewOfferRequest {
  sellerId: string;
  customerName: string;
  email: string;
  phone?: string;
  items: { productId: string; quantity: number; note?: string }[];
  message?: string;
  shippingAddress?: Address | null;
  queryId?: string | null;
}

export interface OfferRequestOptions {
  /** Who entered it (staff or the seller); none: the customer through the enquiry form. */
  actor?: Actor | null;
  /** app.notifications.notify: the seller's users hear of the request. */
  notify?: (userId: string, input: NotificationInput) => Promise<unknown>;
  now?: Date;
}

/** "OFR-12": how an offer is named to the customer and in lists. */
export const offerReference = (number: number) => `OFR-${number}`;

export async function createOfferRequest(
  db: Db,
  input: NewOfferRequest,
  options: OfferRequestOptions = {},
): Promise<{ id: string; number: number; reference: string }> {
  const now = options.now ?? new Date();
  const created = await db.transaction(async (tx) => {
    // An unknown shop is the caller's mistake (400), not a foreign-key failure (500).
    const [shop] = await tx.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, input.sellerId));
    if (!shop) throw new HttpError(400, 'Choose a seller from the list.', 'SELLER_NOT_FOUND');
    const ids = [...new Set(input.items.map((item) => item.productId))];
    const found = ids.length
      ? await tx
          .select({ id: products.id, name: products.title })
          .from(products)
          .where(and(inArray(products.id, ids), eq(products.sellerId, input.sellerId)))
      : [];
    if (found.length !== ids.length) {
      throw new HttpError(400, 'Choose products of this shop.', 'PRODUCT_NOT_OF_SELLER');
    }
    const names = new Map(found.map((p) => [p.id, p.name]));
    if (input.queryId) {
      const [query] = await tx
        .select({ sellerId: customerQueries.sellerId })
        .from(customerQueries)
        .where(eq(customerQueries.id, input.queryId));
      if (!query || query.sellerId !== input.sellerId) {
        throw new HttpError(400, 'Choose a query of this shop.', 'QUERY_NOT_OF_SELLER');
      }
    }
    const contactId = await linkContact(
      tx,
      { email: input.email, name: input.customerName, source: 'customer_query' },
      now,
    );
    const [customer] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(sql`lower(${customers.email}) = lower(${input.email.trim()})`)
      .limit(1);
    const [row] = await tx
      .insert(offers)
      .values({
        sellerId: input.sellerId,
        contactId,
        customerId: customer?.id ?? null,
        customerName: input.customerName.trim(),
        email: input.email.trim(),
        phone: input.phone?.trim() ?? '',
        shippingAddress: input.shippingAddress ?? null,
        message: input.message?.trim() ?? '',
        requestedItems: input.items.map((item) => ({
          productId: item.productId,
          name: names.get(item.productId) ?? '',
          quantity: item.quantity,
          note: item.note ?? '',
        })),
        queryId: input.queryId ?? null,
        status: 'requested',
        createdBy: options.actor?.id ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: offers.id, number: offers.number });
    await recordAudit(tx, {
      subject: { type: 'offer', id: row!.id },
      actor: options.actor ?? NO_ACTOR,
      action: 'created',
      note: options.actor ? 'Request entered on the customer’s behalf' : 'Requested by the customer',
    });
    return row!;
  });
  if (options.notify) {
    const sellerUsers = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.sellerId, input.sellerId));
    for (const user of sellerUsers) {
      if (user.id === options.actor?.id) continue;
      await options.notify(user.id, {
        type: 'offer',
        title: `New offer request ${offerReference(created.number)}`,
        body: `${input.customerName.trim()} asks for an offer.`,
        link: offerPageLink(created.id),
      });
    }
  }
  return { ...created, reference: offerReference(created.number) };
}
