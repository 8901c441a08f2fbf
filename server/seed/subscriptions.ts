// Demo subscriptions and the demo seller's own figures: plans, each seller's periods consistent with
// their state, a few renewal requests (pending and decided), and products and customer queries for the
// demo seller (and a few for the blocked one, so "only your own" is visible). Their help chats are
// seeded by chats.ts (DEMO_SELLER_FIGURES.chats are its figures). A handful of multi-row inserts:
// seeding stays fast.
import { asc, eq } from 'drizzle-orm';
import type { ProductStatus } from '../../contracts/catalog';
import type { Tx } from '../db/client';
import {
  customerQueries,
  products,
  sellerSubscriptions,
  sellers,
  subscriptionPlans,
  subscriptionRequests,
  users,
} from '../db/schema';
import { productKeys } from '../modules/products/product-keys';
import type { DemoSellerIds } from './sellers';

const DAY_MS = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

/** The demo seller's figures, as the seller dashboard must show them (API and e2e tests read these). */
export const DEMO_SELLER_FIGURES = {
  products: { draft: 3, in_review: 2, approved: 1, live: 8, rejected: 1, inactive: 1 },
  queries: { new: 1, open: 1, waiting: 1, resolved: 2, closed: 4 },
  /** What the conversations of seed/chats.ts DEMO_CHATS add up to, as the seller reads them. */
  chats: { open: 3, closed: 2, connectRequests: 1, unreadMessages: 5 },
  /** Days left on the current (Quarterly) period. */
  subscriptionDaysLeft: 70,
} as const;

/** kyc@demo.local paid for a month at sign-up; this many days of it are left. */
export const DEMO_KYC_SELLER_DAYS_LEFT = 24;

const demoProducts = [
  'Handloom Cotton Saree',
  'Block-print Table Runner',
  'Brass Diya Set',
  'Jute Storage Basket',
  'Terracotta Planter',
  'Kalamkari Cushion Cover',
  'Sandalwood Incense Box',
  'Copper Water Bottle',
  'Madhubani Wall Art',
  'Bamboo Serving Tray',
  'Pashmina Stole',
  'Indigo Dabu Bedsheet',
  'Marble Coaster Set',
  'Khadi Kurta',
];

const demoQueries = [
  ['Riya Kapoor', 'Is the saree colour fast?', 'Will the colour run in the first wash?'],
  ['Arjun Mehta', 'Bulk order of diya sets', 'Can I order 40 sets for a wedding in March?'],
  ['Neha Iyer', 'Delivery to Guwahati', 'Do you ship to Assam, and how long does it take?'],
  ['Kabir Singh', 'Planter drainage hole', 'Does the terracotta planter have a drainage hole?'],
  ['Meera Das', 'Cushion cover size', 'Is the cover 16 or 18 inches?'],
  ['Vikram Rao', 'Return of bottle', 'The bottle arrived dented, how do I return it?'],
  ['Ananya Bose', 'Gift wrapping', 'Can you gift-wrap the stole?'],
  ['Farhan Ali', 'Invoice with GST', 'I need a GST invoice for my company.'],
  ['Pooja Nair', 'Restock of runners', 'When will the block-print runner be back?'],
] as const;

type SellerRow = typeof sellers.$inferSelect;
type PlanRow = typeof subscriptionPlans.$inferSelect;
type PeriodInsert = typeof sellerSubscriptions.$inferInsert;

/** Back-to-back periods of `plan` ending at `endsAt`, going back no further than the seller's sign-up. */
function periodsEndingAt(seller: SellerRow, plan: PlanRow, endsAt: Date, max = 4): PeriodInsert[] {
  const periods: PeriodInsert[] = [];
  let end = endsAt;
  for (let i = 0; i < max; i++) {
    const start = new Date(end.getTime() - plan.periodDays * DAY_MS);
    if (i > 0 && start.getTime() < seller.createdAt.getTime() - DAY_MS) break;
    periods.push({ sellerId: seller.id, planId: plan.id, startsAt: start, endsAt: end, createdAt: start });
    end = start;
  }
  return periods;
}

export async function seedSubscriptions(tx: Tx, ids: DemoSellerIds) {
  const [monthly, quarterly, yearly] = await tx
    .insert(subscriptionPlans)
    .values([
      { name: 'Monthly', priceMinor: 99_900, currency: 'INR', periodDays: 30 },
      { name: 'Quarterly', priceMinor: 269_900, currency: 'INR', periodDays: 90 },
      { name: 'Yearly', priceMinor: 999_900, currency: 'INR', periodDays: 365 },
    ])
    .returning();
  if (!monthly || !quarterly || !yearly) throw new Error('plans were not created');

  const allSellers = await tx.select().from(sellers).orderBy(asc(sellers.sellerCode));
  const periods: PeriodInsert[] = [];
  const expiringOrExpired: SellerRow[] = [];
  let generated = 0;
  for (const seller of allSellers) {
    if (seller.id === ids.demoSellerId) {
      periods.push(
        ...periodsEndingAt(seller, quarterly, daysFromNow(DEMO_SELLER_FIGURES.subscriptionDaysLeft)),
      );
      continue;
    }
    if (seller.id === ids.blockedSellerId) {
      // Lapsed 20 days ago and blocked for it (seedSellers sets blocked, not new).
      periods.push(...periodsEndingAt(seller, quarterly, daysFromNow(-20)));
      continue;
    }
    if (seller.id === ids.kycSellerId) {
      // Subscribed at sign-up while the KYC papers are checked: approving them is all that is left.
      periods.push(...periodsEndingAt(seller, monthly, daysFromNow(DEMO_KYC_SELLER_DAYS_LEFT)));
      continue;
    }
    const n = generated++;
    if (seller.isFree) continue; // free sellers need no period
    if (seller.blocked) {
      periods.push(...periodsEndingAt(seller, monthly, daysFromNow(-10 - (n % 20))));
    } else if (!seller.isKycDone) {
      // Still onboarding (verification or KYC): no subscription yet.
    } else if (seller.isActive) {
      const plan = [monthly, quarterly, yearly][n % 3] ?? monthly;
      // Every fifth active seller is about to run out, so "Expiring soon" has rows.
      const endsIn = n % 5 === 0 ? 2 + (n % 5) : 15 + ((n * 37) % (plan.periodDays - 15));
      periods.push(...periodsEndingAt(seller, plan, daysFromNow(endsIn)));
      if (n % 5 === 0) expiringOrExpired.push(seller);
    } else {
      // Inactive sellers let their subscription lapse; an admin has not blocked them (yet).
      periods.push(...periodsEndingAt(seller, monthly, daysFromNow(-3 - (n % 37))));
      expiringOrExpired.push(seller);
    }
  }
  if (periods.length) await tx.insert(sellerSubscriptions).values(periods);

  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.local'));
  const requests: (typeof subscriptionRequests.$inferInsert)[] = [
    // The demo seller's last renewal, approved when its current period was added.
    {
      sellerId: ids.demoSellerId,
      planId: quarterly.id,
      status: 'approved',
      note: 'Renewing for another quarter.',
      decidedBy: admin?.id ?? null,
      decisionNote: 'Payment received by bank transfer.',
      decidedAt: daysFromNow(-21),
      createdAt: daysFromNow(-23),
    },
  ];
  const [firstLapsed, secondLapsed, thirdLapsed] = expiringOrExpired;
  if (firstLapsed) {
    requests.push({
      sellerId: firstLapsed.id,
      planId: quarterly.id,
      note: 'Please renew us for a quarter; paying by NEFT today.',
      createdAt: daysFromNow(-2),
    });
  }
  if (secondLapsed) {
    requests.push({
      sellerId: secondLapsed.id,
      planId: monthly.id,
      note: null,
      createdAt: daysFromNow(-1),
    });
  }
  if (thirdLapsed) {
    requests.push({
      sellerId: thirdLapsed.id,
      planId: yearly.id,
      status: 'rejected',
      note: 'Yearly plan, invoice to the company please.',
      decidedBy: admin?.id ?? null,
      decisionNote: 'The payment did not reach us. Please send the transfer reference and ask again.',
      decidedAt: daysFromNow(-4),
      createdAt: daysFromNow(-6),
    });
  }
  await tx.insert(subscriptionRequests).values(requests);

  await seedSellerActivity(tx, ids);
}

/** Products and customer queries: the demo seller's match DEMO_SELLER_FIGURES exactly. */
async function seedSellerActivity(tx: Tx, ids: { demoSellerId: string; blockedSellerId: string }) {
  const statuses = Object.entries(DEMO_SELLER_FIGURES.products).flatMap(([status, n]) =>
    Array.from({ length: n }, () => status),
  );
  await tx.insert(products).values([
    ...statuses.map((status, index) => ({
      sellerId: ids.demoSellerId,
      ...productKeys(
        demoProducts[index % demoProducts.length] ?? `Product ${index + 1}`,
        `SEL-0001-${String(index + 1).padStart(3, '0')}`,
      ),
      status: status as ProductStatus,
      priceMinor: 49_900 + index * 25_000,
      createdAt: daysFromNow(-60 + index * 3),
      updatedAt: daysFromNow(-30 + index),
    })),
    // The blocked seller's catalogue: never counted on the demo seller's dashboard.
    ...(['live', 'live', 'draft', 'in_review'] as const).map((status, index) => ({
      sellerId: ids.blockedSellerId,
      ...productKeys(`Lapsed Goods Item ${index + 1}`, `SEL-0002-${String(index + 1).padStart(3, '0')}`),
      status,
      priceMinor: 19_900 + index * 10_000,
    })),
  ]);

  const queryStatuses = Object.entries(DEMO_SELLER_FIGURES.queries).flatMap(([status, n]) =>
    Array.from({ length: n }, () => status),
  );
  await tx.insert(customerQueries).values([
    ...queryStatuses.map((status, index) => {
      const [customerName, subject, message] = demoQueries[index % demoQueries.length]!;
      return {
        sellerId: ids.demoSellerId,
        customerName,
        email: `${customerName.toLowerCase().replace(/[^a-z]+/g, '.')}@buyers.demo.local`,
        subject,
        message,
        status,
        createdAt: daysFromNow(-index * 2 - 1),
        updatedAt: daysFromNow(-index),
      };
    }),
    {
      sellerId: ids.blockedSellerId,
      customerName: 'Tara Joshi',
      email: 'tara.joshi@buyers.demo.local',
      subject: 'Order status',
      message: 'My order has not shipped yet.',
      status: 'open',
    },
  ]);
}
