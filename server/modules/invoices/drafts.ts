// What a draft invoice says, made from its source (issue 31): an order (its priced lines, untaxed
// shipping and billing address, the seller as issuer), a seller's subscription period (the marketplace
// bills the seller: the plan's price, tax included at the marketplace country's standard rate), or lines
// typed by hand. The issuer's details come from its company settings at the time the draft is made and
// are read again at issue, so a corrected address reaches every invoice not issued yet.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { includedTaxMinor } from '../../../contracts/domain/credit-note';
import { percentOf, taxRatesFor } from '../../../contracts/domain/offer-pricing';
import { orderReference } from '../../../contracts/domain/order-state';
import type { DocumentParty, InvoiceLineInput } from '../../../contracts/invoices';
import type { OfferPricing } from '../../../contracts/offers';
import type { Address } from '../../../contracts/sellers';
import type { AllSettings } from '../../../contracts/settings';
import type { Db } from '../../db/client';
import { orders, sellerSubscriptions, sellers, subscriptionPlans } from '../../db/schema';
import type { DocumentLine } from '../../lib/documents/model';
import { HttpError } from '../../lib/http-error';

type SettingsApp = Pick<FastifyInstance, 'settings'>;

/** The document as stored: the model without its logo bytes (read from storage at render). */
export interface StoredDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  seller: DocumentParty;
  buyer: DocumentParty;
  shipTo: DocumentParty | null;
  lines: DocumentLine[];
  shippingMinor: number;
  totals: {
    netMinor: number;
    taxMinor: number;
    shippingMinor: number;
    totalMinor: number;
    paidMinor: number;
    dueMinor: number;
  };
  precedingInvoice: { number: string; issueDate: string } | null;
  reference: string;
  notes: string;
  footer: string;
  paymentTerms: string;
  bank: { accountName: string; accountNumber: string; bankCode: string; bankName: string } | null;
  logoKey: string | null;
}

/** A draft: what the invoices row keeps beside its document. */
export interface Draft {
  issuer: string;
  sellerId: string;
  source: 'order' | 'subscription' | 'manual';
  orderId?: string;
  subscriptionId?: string;
  document: StoredDocument;
}

export const MARKETPLACE = 'marketplace';

/** An address as a document party (a free-text country that is not a code stays out: the XML needs one). */
export function partyOf(name: string, address: Partial<Address> | null, extra: Partial<DocumentParty> = {}) {
  const country = (address?.country ?? '').trim().toUpperCase();
  return {
    name: name.trim() || address?.fullName?.trim() || '—',
    taxId: '',
    email: address?.email?.trim() ?? '',
    addressLine1: address?.addressLine1 ?? '',
    addressLine2: address?.addressLine2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zipcode: address?.zipcode ?? '',
    country: /^[A-Z]{2}$/.test(country) ? country : 'ZZ',
    ...extra,
  } satisfies DocumentParty;
}

/** The issuer's own details and printing choices, from its company settings. */
export function issuerDetails(settings: AllSettings, fallbackName: string) {
  const company = settings.company;
  const bank =
    company.bankAccountNumber || company.bankName
      ? {
          accountName: company.bankAccountName,
          accountNumber: company.bankAccountNumber,
          bankCode: company.bankCode,
          bankName: company.bankName,
        }
      : null;
  return {
    // An issuer who has not entered an address yet is at least in the marketplace's country.
    seller: partyOf(
      company.legalName || fallbackName,
      { ...company.address, country: company.address.country || settings.localization.defaultCountry },
      { taxId: company.taxId },
    ),
    footer: company.invoiceFooter,
    bank,
    logoKey: logoKeyOf(company.logo),
    paymentTerms:
      company.invoicePaymentDays > 0
        ? `Payment due within ${company.invoicePaymentDays} days of the invoice date.`
        : 'Payment due on receipt.',
  };
}

/** `/files/logos/x.png` → its storage key; only PNG and JPEG (what the PDF can embed). */
function logoKeyOf(logo: string | null): string | null {
  const match = logo ? /^\/files\/logos\/([\w.-]+\.(?:png|jpe?g))$/i.exec(logo) : null;
  return match ? `uploads/logos/${match[1]}` : null;
}

export function totalsOf(lines: readonly DocumentLine[], shippingMinor: number) {
  const netMinor = lines.reduce((sum, line) => sum + line.netMinor, 0);
  const taxMinor = lines.reduce((sum, line) => sum + line.taxMinor, 0);
  const totalMinor = netMinor + taxMinor + shippingMinor;
  return { netMinor, taxMinor, shippingMinor, totalMinor, paidMinor: 0, dueMinor: totalMinor };
}

const emptyDates = { number: '', issueDate: '', dueDate: null, precedingInvoice: null } as const;

export async function sellerName(db: Db, sellerId: string): Promise<string> {
  const [row] = await db.select({ name: sellers.sellerName }).from(sellers).where(eq(sellers.id, sellerId));
  if (!row) throw new HttpError(400, 'Choose a seller from the list.', 'SELLER_NOT_FOUND');
  return row.name;
}

export async function draftFromOrder(app: SettingsApp & { db: Db }, orderId: string, sellerScope?: string) {
  const [order] = await app.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || (sellerScope && order.sellerId !== sellerScope))
    throw new HttpError(404, 'There is no such order.', 'ORDER_NOT_FOUND');
  if (order.status === 'cancelled')
    throw new HttpError(409, 'A cancelled order is not invoiced.', 'ORDER_CANCELLED');
  return draftOfOrder(
    order,
    await app.settings.effective(order.sellerId),
    await sellerName(app.db, order.sellerId),
  );
}

/** Lines priced by the offers' rules (an order's, an offer version's) as document lines. */
export function documentLinesOf(pricing: OfferPricing): DocumentLine[] {
  return pricing.lines.map((line) => ({
    name: line.name,
    sku: line.sku,
    quantity: line.quantity,
    unitPriceMinor: line.unitPriceMinor,
    discountMinor: line.discountTotalMinor,
    netMinor: line.netMinor,
    taxRate: line.taxRate,
    taxMinor: line.taxMinor,
    totalMinor: line.totalMinor,
  }));
}

/** An order's invoice: its priced lines, shipping and billing address, issued by its seller. */
export function draftOfOrder(
  order: typeof orders.$inferSelect,
  settings: AllSettings,
  shopName: string,
): Draft {
  const pricing = order.pricing as unknown as OfferPricing;
  const lines = documentLinesOf(pricing);
  const billing = order.billingAddress;
  return {
    issuer: order.sellerId,
    sellerId: order.sellerId,
    source: 'order',
    orderId: order.id,
    document: {
      kind: 'invoice',
      ...emptyDates,
      currency: order.currency,
      ...issuerDetails(settings, shopName),
      buyer: partyOf(billing.fullName || order.customerName, billing, { email: order.email }),
      shipTo: partyOf(order.shippingAddress.fullName || order.customerName, order.shippingAddress),
      lines,
      shippingMinor: pricing.totals.shippingMinor,
      totals: totalsOf(lines, pricing.totals.shippingMinor),
      reference: orderReference(order.number),
      notes: '',
    },
  };
}

/** The marketplace bills a seller for one subscription period. */
export async function draftFromSubscription(app: SettingsApp & { db: Db }, subscriptionId: string) {
  const [period] = await app.db
    .select({
      sellerId: sellerSubscriptions.sellerId,
      startsAt: sellerSubscriptions.startsAt,
      endsAt: sellerSubscriptions.endsAt,
      plan: subscriptionPlans.name,
      priceMinor: subscriptionPlans.priceMinor,
      currency: subscriptionPlans.currency,
      sellerName: sellers.sellerName,
      sellerEmail: sellers.email,
      sellerAddress: sellers.address,
    })
    .from(sellerSubscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, sellerSubscriptions.planId))
    .innerJoin(sellers, eq(sellers.id, sellerSubscriptions.sellerId))
    .where(eq(sellerSubscriptions.id, subscriptionId));
  if (!period) throw new HttpError(404, 'There is no such subscription period.', 'SUBSCRIPTION_NOT_FOUND');
  const marketplace = await app.settings.effective(null);
  const buyerSettings = await app.settings.effective(period.sellerId);
  const country = marketplace.company.address.country.toUpperCase();
  const rate = taxRatesFor(country, marketplace.company.taxOptions)[0]?.value ?? 0;
  const tax = includedTaxMinor(period.priceMinor, rate);
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const lines: DocumentLine[] = [
    {
      name: `${period.plan} subscription, ${day(period.startsAt)} to ${day(period.endsAt)}`,
      sku: '',
      quantity: 1,
      unitPriceMinor: period.priceMinor - tax,
      discountMinor: 0,
      netMinor: period.priceMinor - tax,
      taxRate: rate,
      taxMinor: tax,
      totalMinor: period.priceMinor,
    },
  ];
  const buyerCompany = buyerSettings.company;
  return {
    issuer: MARKETPLACE,
    sellerId: period.sellerId,
    source: 'subscription',
    subscriptionId,
    document: {
      kind: 'invoice',
      ...emptyDates,
      currency: period.currency,
      ...issuerDetails(marketplace, 'Marketplace'),
      buyer: partyOf(
        buyerCompany.legalName || period.sellerName,
        buyerCompany.address.addressLine1 ? buyerCompany.address : period.sellerAddress,
        { taxId: buyerCompany.taxId, email: period.sellerEmail },
      ),
      shipTo: null,
      lines,
      shippingMinor: 0,
      totals: totalsOf(lines, 0),
      reference: '',
      notes: '',
    },
  } satisfies Draft;
}

/** Lines typed by hand: net, tax (half-up, once per line) and total computed here. */
export function manualLines(lines: readonly InvoiceLineInput[]): DocumentLine[] {
  return lines.map((line) => {
    const gross = line.quantity * line.unitPriceMinor;
    if (line.discountMinor > gross)
      throw new HttpError(400, `The discount of “${line.name}” is more than the line.`, 'DISCOUNT_TOO_LARGE');
    const netMinor = gross - line.discountMinor;
    const taxMinor = percentOf(netMinor, line.taxRate);
    return {
      name: line.name,
      sku: line.sku,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      discountMinor: line.discountMinor,
      netMinor,
      taxRate: line.taxRate,
      taxMinor,
      totalMinor: netMinor + taxMinor,
    };
  });
}

export async function draftByHand(
  app: SettingsApp & { db: Db },
  body: {
    sellerId: string;
    buyer: DocumentParty;
    currency: string;
    lines: InvoiceLineInput[];
    shippingMinor: number;
    reference: string;
    notes: string;
  },
) {
  const settings = await app.settings.effective(body.sellerId);
  if (!settings.localization.currencies.includes(body.currency))
    throw new HttpError(
      400,
      `${body.currency} is not a currency this marketplace offers.`,
      'CURRENCY_NOT_OFFERED',
    );
  const lines = manualLines(body.lines);
  return {
    issuer: body.sellerId,
    sellerId: body.sellerId,
    source: 'manual',
    document: {
      kind: 'invoice',
      ...emptyDates,
      currency: body.currency,
      ...issuerDetails(settings, await sellerName(app.db, body.sellerId)),
      buyer: body.buyer,
      shipTo: null,
      lines,
      shippingMinor: body.shippingMinor,
      totals: totalsOf(lines, body.shippingMinor),
      reference: body.reference,
      notes: body.notes,
    },
  } satisfies Draft;
}
