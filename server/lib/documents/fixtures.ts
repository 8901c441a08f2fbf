// Sample documents for the tests and the render bench: lines are priced the way offer-pricing does it
// (integer minor units, tax rounded half-up once per line), so the totals are consistent by construction.
import type { BusinessDocument, DocumentKind, DocumentLine, Party } from './model';

export interface LineInput {
  readonly name: string;
  readonly sku?: string;
  readonly quantity: number;
  readonly unitPriceMinor: number;
  readonly discountMinor?: number;
  readonly taxRate: number;
}

/** net × rate / 100 rounded half-up, exactly (rates have at most 3 decimals). */
export function lineTax(netMinor: number, rate: number): number {
  const scaled = BigInt(netMinor) * BigInt(Math.round(rate * 1000));
  return Number((scaled + 50_000n) / 100_000n);
}

export function pricedLine(input: LineInput): DocumentLine {
  const discountMinor = input.discountMinor ?? 0;
  const netMinor = input.quantity * input.unitPriceMinor - discountMinor;
  const taxMinor = lineTax(netMinor, input.taxRate);
  return {
    name: input.name,
    sku: input.sku ?? '',
    quantity: input.quantity,
    unitPriceMinor: input.unitPriceMinor,
    discountMinor,
    netMinor,
    taxRate: input.taxRate,
    taxMinor,
    totalMinor: netMinor + taxMinor,
  };
}

export function party(name: string, overrides: Partial<Party> = {}): Party {
  return {
    name,
    taxId: '',
    email: '',
    addressLine1: '1 Main Street',
    addressLine2: '',
    city: 'Berlin',
    state: '',
    zipcode: '10115',
    country: 'DE',
    ...overrides,
  };
}

export interface DocumentInput {
  readonly kind?: DocumentKind;
  readonly number?: string;
  readonly currency?: string;
  readonly lines: readonly LineInput[];
  readonly shippingMinor?: number;
  readonly paidMinor?: number;
  readonly seller?: Party;
  readonly buyer?: Party;
  readonly overrides?: Partial<BusinessDocument>;
}

export function makeDocument(input: DocumentInput): BusinessDocument {
  const lines = input.lines.map(pricedLine);
  const shippingMinor = input.shippingMinor ?? 0;
  const netMinor = lines.reduce((acc, l) => acc + l.netMinor, 0);
  const taxMinor = lines.reduce((acc, l) => acc + l.taxMinor, 0);
  const totalMinor = netMinor + taxMinor + shippingMinor;
  const paidMinor = input.paidMinor ?? 0;
  return {
    kind: input.kind ?? 'invoice',
    number: input.number ?? 'INV-2025-0042',
    issueDate: '2025-03-14',
    dueDate: '2025-04-13',
    currency: input.currency ?? 'EUR',
    seller:
      input.seller ??
      party('Nordlicht Handel GmbH', { taxId: 'DE123456789', email: 'billing@nordlicht.example' }),
    buyer:
      input.buyer ?? party('Acme Retail Ltd', { city: 'Hamburg', zipcode: '20095', taxId: 'DE987654321' }),
    shipTo: null,
    lines,
    shippingMinor,
    totals: { netMinor, taxMinor, shippingMinor, totalMinor, paidMinor, dueMinor: totalMinor - paidMinor },
    precedingInvoice: null,
    reference: 'ORD-12',
    notes: 'Thank you for your order.',
    footer: 'Nordlicht Handel GmbH · Registergericht Berlin HRB 12345 · Managing director: A. Example',
    paymentTerms: 'Payable within 30 days without deduction.',
    bank: {
      accountName: 'Nordlicht Handel GmbH',
      accountNumber: 'DE89 3704 0044 0532 0130 00',
      bankCode: 'COBADEFFXXX',
      bankName: 'Commerzbank',
    },
    logo: null,
    ...input.overrides,
  };
}

/** The 3-line EUR invoice of the tests and the bench. */
export function threeLineInvoice(): BusinessDocument {
  return makeDocument({
    lines: [
      { name: 'Espresso machine', sku: 'ESP-100', quantity: 1, unitPriceMinor: 49_900, taxRate: 19 },
      {
        name: 'Coffee beans 1 kg',
        sku: 'BEAN-1',
        quantity: 3,
        unitPriceMinor: 1_899,
        discountMinor: 300,
        taxRate: 7,
      },
      { name: 'Descaler', sku: 'DSC-2', quantity: 2, unitPriceMinor: 799, taxRate: 19 },
    ],
    shippingMinor: 495,
    paidMinor: 10_000,
  });
}
