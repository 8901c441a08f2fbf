// Orders (issue 31, docs/commerce.md): the list with its status tabs, an order's page, placing an order
// by hand or from an accepted offer, and edits as versions. Stock is reserved in the order's own
// transaction (server/modules/stock): an order that cannot have its stock is not written at all. A
// seller sees only their own shop's orders (another's answer 404).
import { and, asc, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { diffOffers } from '../../../contracts/domain/offer-diff';
import {
  balanceDueMinor,
  type OrderStatus,
  orderActionProblem,
  orderReference,
  orderStatuses,
  type PaymentState,
  paymentStateOf,
  refundableMinor,
  statusAfterMoney,
} from '../../../contracts/domain/order-state';
import type { OfferPricing } from '../../../contracts/offers';
import type {
  CreateOrderBody,
  EditOrderBody,
  OrderAddress,
  OrderDetail,
  OrderList,
  OrderListItem,
  OrderListQuery,
  OrderTabs,
} from '../../../contracts/orders';
import type { Db, Tx } from '../../db/client';
import {
  customers,
  invoices,
  offers,
  offerVersions,
  orderPayments,
  orderRefunds,
  orderShipments,
  orderStatusCounts,
  orders,
  orderVersions,
  sellers,
} from '../../db/schema';
import { type Actor, readAuditPage, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import type { RouteViewer } from '../../lib/route-viewer';
import { countUpToCap, sellerNames, tabbedTotal } from '../../lib/tabbed-list';
import { releaseStock, reserveStock, type StockLine } from '../stock/stock';
import { priceOrder, pricingContext } from './pricing';

export type OrderRow = typeof orders.$inferSelect;
type OrderApp = Pick<FastifyInstance, 'db' | 'settings'>;

export const orderNotFound = () => new HttpError(404, 'There is no such order.', 'ORDER_NOT_FOUND');
export const holderOf = (orderId: string) => `order:${orderId}`;
const NO_SELLER = '00000000-0000-0000-0000-000000000000';

function visible(viewer: Pick<RouteViewer, 'isSeller' | 'sellerId'>): SQL | undefined {
  return viewer.isSeller ? eq(orders.sellerId, viewer.sellerId ?? NO_SELLER) : undefined;
}

export async function findOrder(
  db: Db | Tx,
  viewer: RouteViewer,
  id: string,
  lock = false,
): Promise<OrderRow> {
  const query = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), visible(viewer)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw orderNotFound();
  return row;
}

/** The stock an order's priced lines hold (lines without a catalog product hold none). */
export function stockLinesOf(pricing: OfferPricing): StockLine[] {
  return pricing.lines.flatMap((line) =>
    line.productId ? [{ productId: line.productId, quantity: line.quantity }] : [],
  );
}

const moneyOf = (row: Pick<OrderRow, 'totalMinor' | 'paidMinor' | 'refundedMinor'>) => ({
  totalMinor: row.totalMinor,
  paidMinor: row.paidMinor,
  refundedMinor: row.refundedMinor,
});

function listItem(row: OrderRow, sellerName: string | null): OrderListItem {
  return {
    id: row.id,
    number: row.number,
    reference: orderReference(row.number),
    sellerId: row.sellerId,
    sellerName,
    customerName: row.customerName,
    email: row.email,
    status: row.status as OrderStatus,
    paymentState: row.paymentState as PaymentState,
    currency: row.currency,
    totalMinor: row.totalMinor,
    paidMinor: row.paidMinor,
    refundedMinor: row.refundedMinor,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function readOrderTabs(db: Db, viewer: RouteViewer, sellerId?: string): Promise<OrderTabs> {
  const seller = viewer.isSeller ? (viewer.sellerId ?? NO_SELLER) : sellerId;
  const rows = await db
    .select({ status: orderStatusCounts.status, n: sql<number>`sum(${orderStatusCounts.orders})::integer` })
    .from(orderStatusCounts)
    .where(seller ? eq(orderStatusCounts.sellerKey, seller) : undefined)
    .groupBy(orderStatusCounts.status);
  const tabs = Object.fromEntries(orderStatuses.map((status) => [status, 0])) as OrderTabs;
  for (const row of rows) if (row.status in tabs) tabs[row.status as OrderStatus] = Number(row.n);
  return tabs;
}

/** What the list's filters select, within what the viewer may see (the list and its export). */
export function orderConditions(
  viewer: Pick<RouteViewer, 'isSeller' | 'sellerId'>,
  query: Omit<OrderListQuery, 'skip' | 'limit'>,
): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [visible(viewer)];
  if (query.sellerId && !viewer.isSeller) conditions.push(eq(orders.sellerId, query.sellerId));
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.paymentState) conditions.push(eq(orders.paymentState, query.paymentState));
  if (query.currency) conditions.push(eq(orders.currency, query.currency));
  if (query.from) conditions.push(gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to)
    conditions.push(lt(orders.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
  const search = query.query.trim();
  if (search) {
    const number = /^(?:ORD-)?(\d{1,15})$/i.exec(search);
    const text = sql`lower(${orders.customerName} || ' ' || ${orders.email}) LIKE ${containsPattern(search.toLowerCase())}`;
    conditions.push(number ? or(text, eq(orders.number, Number(number[1]))) : text);
  }
  return conditions;
}

export async function listOrders(db: Db, viewer: RouteViewer, query: OrderListQuery): Promise<OrderList> {
  const where = and(...orderConditions(viewer, query));
  const search = query.query.trim();
  // Narrowed by seller and status only, the total is a tab count (the maintained counters); any other
  // filter counts its matches, but no further than the cap: nothing counts a whole table per request.
  const onlyTabs = !query.paymentState && !query.currency && !query.from && !query.to && !search;
  const [rows, counted, tabs] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .offset(query.skip)
      .limit(query.limit),
    onlyTabs ? null : countUpToCap(db, orders, where),
    readOrderTabs(db, viewer, query.sellerId),
  ]);
  const names = await sellerNames(db, [...new Set(rows.map((row) => row.sellerId))]);
  return {
    result: rows.map((row) => listItem(row, names.get(row.sellerId) ?? null)),
    ...tabbedTotal(counted, tabs, query.status),
    tabs,
  };
}

export async function orderDetail(db: Db, viewer: RouteViewer, id: string): Promise<OrderDetail> {
  const row = await findOrder(db, viewer, id);
  const [names, versions, payments, refunds, shipments, history, invoiced] = await Promise.all([
    sellerNames(db, [row.sellerId]),
    db.select().from(orderVersions).where(eq(orderVersions.orderId, id)).orderBy(asc(orderVersions.version)),
    db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, id))
      .orderBy(asc(orderPayments.createdAt)),
    db.select().from(orderRefunds).where(eq(orderRefunds.orderId, id)).orderBy(asc(orderRefunds.number)),
    db
      .select()
      .from(orderShipments)
      .where(eq(orderShipments.orderId, id))
      .orderBy(asc(orderShipments.createdAt)),
    readAuditPage(db, { type: 'order', id }, { skip: 0, limit: 200 }),
    db
      .select({
        id: invoices.id,
        kind: invoices.kind,
        number: invoices.number,
        status: invoices.status,
        totalMinor: invoices.totalMinor,
      })
      .from(invoices)
      .where(eq(invoices.orderId, id))
      .orderBy(asc(invoices.createdAt)),
  ]);
  const money = moneyOf(row);
  const status = row.status as OrderStatus;
  const problem = (action: Parameters<typeof orderActionProblem>[0]) =>
    orderActionProblem(action, status, money);
  return {
    ...listItem(row, names.get(row.sellerId) ?? null),
    phone: row.phone,
    customerId: row.customerId,
    billingAddress: row.billingAddress as OrderAddress,
    shippingAddress: row.shippingAddress as OrderAddress,
    version: row.version,
    pricing: row.pricing as unknown as OfferPricing,
    notes: row.notes,
    offer:
      row.offerId && row.offerVersion
        ? {
            id: row.offerId,
            reference: `OFR-${await offerNumber(db, row.offerId)}`,
            version: row.offerVersion,
          }
        : null,
    payments: payments.map((payment) => ({
      id: payment.id,
      amountMinor: payment.amountMinor,
      method: payment.method,
      paidOn: payment.paidOn,
      reference: payment.reference,
      actorName: payment.actorName,
      createdAt: payment.createdAt.toISOString(),
    })),
    refunds: refunds.map((refund) => ({
      id: refund.id,
      number: refund.number,
      amountMinor: refund.amountMinor,
      reason: refund.reason,
      returns: refund.returns.map((item) => ({
        productId: String(item.productId),
        name: String(item.name ?? ''),
        quantity: Number(item.quantity),
        restock: Boolean(item.restock),
      })),
      creditNoteId: refund.creditNoteId,
      actorName: refund.actorName,
      createdAt: refund.createdAt.toISOString(),
    })),
    shipments: shipments.map((shipment) => ({
      id: shipment.id,
      carrier: shipment.carrier,
      trackingNumber: shipment.trackingNumber,
      actorName: shipment.actorName,
      createdAt: shipment.createdAt.toISOString(),
    })),
    versions: versions.map((version) => ({
      version: version.version,
      totalMinor: Number((version.pricing as { totals?: { totalMinor?: number } }).totals?.totalMinor ?? 0),
      reason: version.reason,
      diff: (version.diff as OrderDetail['versions'][number]['diff']) ?? null,
      actorName: version.actorName,
      createdAt: version.createdAt.toISOString(),
    })),
    history: history.result,
    invoices: invoiced.map((invoice) => ({ ...invoice, kind: invoice.kind as 'invoice' | 'credit_note' })),
    problems: {
      edit: problem('edit'),
      pay: problem('pay'),
      ship: problem('ship'),
      deliver: problem('deliver'),
      cancel: problem('cancel'),
      refund: problem('refund'),
    },
    balanceDueMinor: balanceDueMinor(money),
    refundableMinor: refundableMinor(money),
    shippedAt: row.shippedAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function offerNumber(db: Db, offerId: string) {
  const [row] = await db.select({ number: offers.number }).from(offers).where(eq(offers.id, offerId));
  return row?.number ?? 0;
}

async function customerIdOf(tx: Tx, email: string): Promise<string | null> {
  const [customer] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(sql`lower(${customers.email}) = lower(${email.trim()})`)
    .limit(1);
  return customer?.id ?? null;
}

interface NewOrder {
  sellerId: string;
  customerName: string;
  email: string;
  phone: string;
  billingAddress: OrderAddress;
  shippingAddress: OrderAddress;
  pricing: OfferPricing;
  notes: string;
  offer?: { id: string; version: number };
}

/** Writes the order, its first version and its stock reservations, in the caller's transaction. */
async function insertOrder(tx: Tx, order: NewOrder, actor: Actor, note: string): Promise<OrderRow> {
  const [row] = await tx
    .insert(orders)
    .values({
      sellerId: order.sellerId,
      customerId: await customerIdOf(tx, order.email),
      customerName: order.customerName,
      email: order.email,
      phone: order.phone,
      billingAddress: order.billingAddress,
      shippingAddress: order.shippingAddress,
      currency: order.pricing.currency,
      pricing: order.pricing as unknown as Record<string, unknown>,
      totalMinor: order.pricing.totals.totalMinor,
      offerId: order.offer?.id ?? null,
      offerVersion: order.offer?.version ?? null,
      notes: order.notes,
      createdBy: actor.id,
      // An order of nothing to pay (every line free) is paid from the start.
      status: order.pricing.totals.totalMinor === 0 ? 'paid' : 'pending',
      paymentState: order.pricing.totals.totalMinor === 0 ? 'paid' : 'unpaid',
    })
    .returning();
  const created = row!;
  await tx.insert(orderVersions).values({
    orderId: created.id,
    version: 1,
    pricing: order.pricing as unknown as Record<string, unknown>,
    reason: note,
    actorId: actor.id,
    actorName: actor.name,
  });
  await reserveStock(tx, holderOf(created.id), stockLinesOf(order.pricing), actor);
  await recordAudit(tx, { subject: { type: 'order', id: created.id }, actor, action: 'created', note });
  return created;
}

export async function createOrder(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  body: CreateOrderBody,
): Promise<OrderRow> {
  const sellerId = viewer.isSeller ? viewer.sellerId : body.sellerId;
  if (!sellerId) throw new HttpError(400, 'Choose a seller from the list.', 'SELLER_REQUIRED');
  const [shop] = await app.db.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, sellerId));
  if (!shop) throw new HttpError(400, 'Choose a seller from the list.', 'SELLER_NOT_FOUND');
  const context = await pricingContext(app, sellerId);
  return app.db.transaction(async (tx) => {
    const pricing = await priceOrder(context, tx, {
      currency: body.currency,
      country: body.shippingAddress.country,
      lines: body.lines,
      notes: body.notes,
    });
    return insertOrder(
      tx,
      {
        sellerId,
        customerName: body.customerName,
        email: body.email,
        phone: body.phone,
        shippingAddress: body.shippingAddress,
        billingAddress: body.billingAddress ?? body.shippingAddress,
        pricing,
        notes: body.notes,
      },
      actor,
      'Entered by hand',
    );
  });
}

/**
 * The order of an auction's winner (issue 32): the lot at the hammer price (spread over its units, any
 * remainder taken off as a discount), the marketplace's taxes and shipping for the address, and the
 * stock reserved as for any order, in one transaction with `within` (the auction marks itself ordered).
 */
export async function createAuctionOrder(
  app: OrderApp,
  actor: Actor,
  lot: {
    sellerId: string;
    productId: string;
    quantity: number;
    priceMinor: number;
    currency: string;
    customerName: string;
    email: string;
    shippingAddress: OrderAddress;
    note: string;
  },
  within: (tx: Tx, order: OrderRow) => Promise<void>,
): Promise<OrderRow> {
  const context = await pricingContext(app, lot.sellerId);
  const unit = Math.ceil(lot.priceMinor / lot.quantity);
  return app.db.transaction(async (tx) => {
    const pricing = await priceOrder(context, tx, {
      currency: lot.currency,
      country: lot.shippingAddress.country,
      lines: [
        {
          productId: lot.productId,
          quantity: lot.quantity,
          unitPriceMinor: unit,
          discountPercent: null,
          discountMinor: unit * lot.quantity - lot.priceMinor || null,
        },
      ],
      notes: lot.note,
    });
    const order = await insertOrder(
      tx,
      {
        sellerId: lot.sellerId,
        customerName: lot.customerName,
        email: lot.email,
        phone: '',
        shippingAddress: lot.shippingAddress,
        billingAddress: lot.shippingAddress,
        pricing,
        notes: lot.note,
      },
      actor,
      lot.note,
    );
    await within(tx, order);
    return order;
  });
}

/** The offer's address as an order address, when it is complete enough to ship to. */
function offerAddress(
  address: OfferAddressLike | null,
  fallbackName: string,
  email: string,
): OrderAddress | null {
  if (!address) return null;
  const country = address.country?.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{2}$/.test(country) || !address.addressLine1?.trim() || !address.city?.trim()) return null;
  return {
    fullName: address.fullName?.trim() || fallbackName,
    email: address.email?.trim() || email,
    addressLine1: address.addressLine1.trim(),
    addressLine2: address.addressLine2?.trim() ?? '',
    city: address.city.trim(),
    state: address.state?.trim() ?? '',
    country,
    zipcode: address.zipcode?.trim() ?? '',
  };
}
type OfferAddressLike = Partial<Record<keyof OrderAddress, string>>;

/**
 * An order from an accepted offer: the accepted version's frozen lines, taxes and shipping, the customer
 * and address of the offer. The two link to each other, in one transaction; an offer makes one order.
 */
export async function createOrderFromOffer(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  offerId: string,
  body: { shippingAddress?: OrderAddress; billingAddress?: OrderAddress; notes: string },
): Promise<OrderRow> {
  return app.db.transaction(async (tx) => {
    const [offer] = await tx
      .select()
      .from(offers)
      .where(
        and(
          eq(offers.id, offerId),
          viewer.isSeller ? eq(offers.sellerId, viewer.sellerId ?? NO_SELLER) : undefined,
        ),
      )
      .for('update');
    if (!offer) throw new HttpError(404, 'There is no such offer.', 'OFFER_NOT_FOUND');
    if (offer.status !== 'accepted')
      throw new HttpError(409, 'Only an accepted offer becomes an order.', 'OFFER_NOT_ACCEPTED');
    if (offer.orderId)
      throw new HttpError(409, 'This offer is already an order.', 'OFFER_ALREADY_ORDERED', {
        orderId: offer.orderId,
      });
    const [version] = await tx
      .select()
      .from(offerVersions)
      .where(and(eq(offerVersions.offerId, offerId), eq(offerVersions.version, offer.currentVersion)));
    const pricing = (version?.snapshot as { offer?: OfferPricing } | undefined)?.offer;
    if (!version || !pricing)
      throw new HttpError(409, 'The accepted version could not be read.', 'OFFER_VERSION_MISSING');
    const shippingAddress =
      body.shippingAddress ??
      offerAddress(offer.shippingAddress as OfferAddressLike | null, offer.customerName, offer.email);
    if (!shippingAddress)
      throw new HttpError(
        400,
        'Give the shipping address: the offer has no complete one (address, city and a two-letter country).',
        'SHIPPING_ADDRESS_REQUIRED',
      );
    // The offer's taxes were frozen for its shipping country: the goods go there.
    if (pricing.shippingCountry && pricing.shippingCountry !== shippingAddress.country)
      throw new HttpError(
        409,
        `The offer was taxed for ${pricing.shippingCountry}: ship to ${pricing.shippingCountry}, or send a new version for ${shippingAddress.country}.`,
        'OFFER_COUNTRY_MISMATCH',
      );
    const row = await insertOrder(
      tx,
      {
        sellerId: offer.sellerId,
        customerName: offer.customerName,
        email: offer.email,
        phone: offer.phone,
        shippingAddress,
        billingAddress: body.billingAddress ?? shippingAddress,
        pricing: { ...pricing, notes: body.notes || pricing.notes },
        notes: body.notes || pricing.notes,
        offer: { id: offerId, version: version.version },
      },
      actor,
      `From offer OFR-${offer.number}, version ${version.version}`,
    );
    await tx
      .update(offers)
      .set({ orderId: row.id, toConvert: false, updatedAt: new Date() })
      .where(eq(offers.id, offerId));
    await recordAudit(tx, {
      subject: { type: 'offer', id: offerId },
      actor,
      action: 'ordered',
      note: `Became order ${orderReference(row.number)}`,
    });
    return row;
  });
}

/**
 * An edit: the lines re-priced and re-taxed as a new version with its line diff. The stock follows:
 * the order's reservations are released and the new lines reserved, in one transaction, so the
 * difference is what changes hands and nothing else can slip in between.
 */
export async function editOrder(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  body: EditOrderBody,
): Promise<void> {
  const context = await pricingContext(app, (await findOrder(app.db, viewer, id)).sellerId);
  await app.db.transaction(async (tx) => {
    const row = await findOrder(tx, viewer, id, true);
    const problem = orderActionProblem('edit', row.status as OrderStatus, moneyOf(row));
    if (problem) throw new HttpError(409, problem, 'ORDER_NOT_EDITABLE');
    if (body.version !== row.version)
      throw new HttpError(
        409,
        'Someone changed this order after you opened it. Reload it to see their changes, then edit again.',
        'STALE_ORDER',
      );
    const before = row.pricing as unknown as OfferPricing;
    const address = row.shippingAddress as OrderAddress;
    const pricing = await priceOrder(context, tx, {
      currency: row.currency,
      country: address.country,
      lines: body.lines,
      notes: before.notes,
    });
    const money = { ...moneyOf(row), totalMinor: pricing.totals.totalMinor };
    if (pricing.totals.totalMinor < row.paidMinor - row.refundedMinor)
      throw new HttpError(
        409,
        'The new total is less than what was paid: refund the difference first.',
        'TOTAL_BELOW_PAID',
      );
    await releaseStock(tx, holderOf(id), actor);
    await reserveStock(tx, holderOf(id), stockLinesOf(pricing), actor);
    const diff = diffOffers(before, pricing);
    const version = row.version + 1;
    await tx.insert(orderVersions).values({
      orderId: id,
      version,
      pricing: pricing as unknown as Record<string, unknown>,
      diff: diff as unknown as Record<string, unknown>,
      reason: body.reason,
      actorId: actor.id,
      actorName: actor.name,
    });
    await tx
      .update(orders)
      .set({
        version,
        pricing: pricing as unknown as Record<string, unknown>,
        totalMinor: pricing.totals.totalMinor,
        status: statusAfterMoney(row.status as OrderStatus, money),
        paymentState: paymentStateOf(money),
        updatedAt: new Date(),
      })
      .where(eq(orders.id, id));
    await recordAudit(tx, {
      subject: { type: 'order', id },
      actor,
      action: 'edited',
      changes: [{ field: 'Total', before: row.totalMinor, after: pricing.totals.totalMinor }],
      note: `Version ${version}: ${body.reason}`,
    });
  });
}
