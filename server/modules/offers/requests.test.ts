import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, offerStatusCounts, offers, products, users } from '../../db/schema';
import { createTestApp, demoEmails, type TestApp, testBackends } from '../../test-support';
import { createOfferRequest } from './requests';

describe.each(testBackends)('createOfferRequest (%s)', (backend) => {
  let t: TestApp;
  let sellerId: string;
  let productId: string;
  let otherProductId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    const db = t.app.db;
    const [seller] = await db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const [own] = await db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.sellerId, sellerId))
      .limit(1);
    const [other] = await db
      .select({ id: products.id })
      .from(products)
      .where(ne(products.sellerId, sellerId))
      .limit(1);
    productId = own!.id;
    otherProductId = other!.id;
  }, 120_000);
  afterAll(() => t?.close());

  it('stores a requested offer linked to the contact, counts it and tells the seller', async () => {
    const told: string[] = [];
    const made = await createOfferRequest(
      t.app.db,
      {
        sellerId,
        customerName: 'Grace Hopper',
        email: 'Grace.Offer@example.com',
        items: [{ productId, quantity: 3, note: 'blue ones' }],
        message: 'Please quote 3.',
      },
      { notify: async (userId) => void told.push(userId) },
    );
    expect(made.reference).toBe(`OFR-${made.number}`);
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, made.id));
    expect(row).toMatchObject({
      status: 'requested',
      sellerId,
      email: 'Grace.Offer@example.com',
      currentVersion: 0,
    });
    expect(row!.requestedItems[0]).toMatchObject({ productId, quantity: 3, note: 'blue ones' });
    const [contact] = await t.app.db.select().from(contacts).where(eq(contacts.id, row!.contactId!));
    expect(contact!.email).toBe('grace.offer@example.com');
    const [count] = await t.app.db
      .select()
      .from(offerStatusCounts)
      .where(and(eq(offerStatusCounts.sellerKey, sellerId), eq(offerStatusCounts.status, 'requested')));
    expect(count!.offers).toBeGreaterThanOrEqual(1);
    expect(told.length).toBeGreaterThanOrEqual(1);
  });

  it("refuses another seller's product", async () => {
    await expect(
      createOfferRequest(t.app.db, {
        sellerId,
        customerName: 'Grace Hopper',
        email: 'grace@example.com',
        items: [{ productId: otherProductId, quantity: 1 }],
      }),
    ).rejects.toMatchObject({ status: 400, message: 'Choose products of this shop.' });
  });
});
