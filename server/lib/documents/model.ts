// The business-document model that the PDF, CII (Factur-X) and GST INV-01 writers render from.
// Amounts are integer minor units of the document's currency (JPY 0 digits, EUR 2, KWD 3 — ISO 4217 via
// moneyDigits), so every sum here is exact; decimals only appear when a writer formats an amount.
import { z } from 'zod';
import { formatMoney, moneyDigits } from '../../../contracts/domain/currency';
import { isIso4217Code } from '../../../contracts/domain/iso-4217';

export const documentKinds = ['invoice', 'credit_note', 'offer', 'purchase_order', 'packing_slip'] as const;
export type DocumentKind = (typeof documentKinds)[number];

/** The most lines a document may have: the PDF writer refuses more (RangeError). */
export const MAX_LINES = 500;

const minor = z.number().int().refine(Number.isSafeInteger, 'amount must be a safe integer');
const nonNegativeMinor = minor.refine((n) => n >= 0, 'amount must not be negative');

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
  .refine(isCalendarDate, 'not a calendar date');

// Rates are percents with at most three decimals (7.5, 19, 0.25): enough for every VAT/GST rate and
// small enough that rate × 1000 is an exact integer for checkTotals' arithmetic.
const taxRate = z
  .number()
  .min(0)
  .max(100)
  .refine((r) => Math.abs(r * 1000 - Math.round(r * 1000)) < 1e-6, 'tax rate has more than 3 decimals');

export const partySchema = z.object({
  name: z.string().min(1),
  taxId: z.string(),
  email: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  country: z.string().regex(/^[A-Z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code'),
});
export type Party = z.infer<typeof partySchema>;

export const lineSchema = z.object({
  name: z.string().min(1),
  sku: z.string(),
  quantity: z.number().int().positive(),
  /** Net unit price before the line discount. */
  unitPriceMinor: minor,
  /** The line's whole discount (not per unit). */
  discountMinor: nonNegativeMinor,
  /** quantity × unitPriceMinor − discountMinor. */
  netMinor: minor,
  /** Percent; 0 means zero-rated. */
  taxRate,
  taxMinor: minor,
  /** netMinor + taxMinor. */
  totalMinor: minor,
});
export type DocumentLine = z.infer<typeof lineSchema>;

export const totalsSchema = z.object({
  netMinor: minor,
  taxMinor: minor,
  shippingMinor: nonNegativeMinor,
  totalMinor: minor,
  paidMinor: minor,
  dueMinor: minor,
});
export type DocumentTotals = z.infer<typeof totalsSchema>;

export const bankSchema = z.object({
  accountName: z.string(),
  accountNumber: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
});
export type BankDetails = z.infer<typeof bankSchema>;

export const businessDocumentSchema = z.object({
  kind: z.enum(documentKinds),
  number: z.string().min(1),
  issueDate: isoDate,
  dueDate: isoDate.nullable(),
  currency: z.string().refine(isIso4217Code, 'currency must be an ISO 4217 code'),
  seller: partySchema,
  buyer: partySchema,
  shipTo: partySchema.nullable(),
  lines: z.array(lineSchema).min(1).max(MAX_LINES),
  /** An untaxed (zero-rated) charge on top of the lines. */
  shippingMinor: nonNegativeMinor,
  totals: totalsSchema,
  /** The invoice a credit note corrects. */
  precedingInvoice: z.object({ number: z.string().min(1), issueDate: isoDate }).nullable(),
  /** e.g. the order reference 'ORD-12'; may be ''. */
  reference: z.string(),
  notes: z.string(),
  footer: z.string(),
  paymentTerms: z.string(),
  bank: bankSchema.nullable(),
  /** PNG or JPEG bytes. */
  logo: z.instanceof(Buffer).nullable(),
});
export type BusinessDocument = z.infer<typeof businessDocumentSchema>;

/** Validates untrusted input into a document (throws ZodError). */
export function parseBusinessDocument(input: unknown): BusinessDocument {
  return businessDocumentSchema.parse(input);
}

export interface TaxGroup {
  /** Percent. */
  readonly rate: number;
  /** EN 16931 VAT category: S standard, Z zero-rated. */
  readonly category: 'S' | 'Z';
  readonly baseMinor: number;
  readonly taxMinor: number;
}

/**
 * The tax per rate, sorted by rate. A group's tax is the sum of its lines' taxes (each line was rounded
 * once), so the breakdown adds up to what the lines show. Shipping is untaxed, so it joins the 0 % base.
 */
export function taxBreakdown(lines: readonly DocumentLine[], shippingMinor: number): TaxGroup[] {
  const groups = new Map<number, { baseMinor: number; taxMinor: number }>();
  const add = (rate: number, baseMinor: number, taxMinor: number) => {
    const group = groups.get(rate) ?? { baseMinor: 0, taxMinor: 0 };
    group.baseMinor += baseMinor;
    group.taxMinor += taxMinor;
    groups.set(rate, group);
  };
  for (const line of lines) add(line.taxRate, line.netMinor, line.taxMinor);
  if (shippingMinor !== 0) add(0, shippingMinor, 0);
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, group]): TaxGroup => ({ rate, category: rate === 0 ? 'Z' : 'S', ...group }));
}

const big = (n: number) => BigInt(n);
const sum = (values: readonly number[]) => values.reduce((acc, v) => acc + big(v), 0n);
const abs = (n: bigint) => (n < 0n ? -n : n);

/** Rate × 1000 as an exact integer (rates have at most 3 decimals). */
const rateMilli = (rate: number) => BigInt(Math.round(rate * 1000));

function lineProblems(line: DocumentLine, index: number): string[] {
  const problems: string[] = [];
  const at = `line ${index + 1}`;
  const gross = big(line.quantity) * big(line.unitPriceMinor);
  if (big(line.netMinor) !== gross - big(line.discountMinor)) {
    problems.push(
      `${at}: net ${line.netMinor} ≠ quantity × unit price − discount (${gross - big(line.discountMinor)})`,
    );
  }
  if (big(line.totalMinor) !== big(line.netMinor) + big(line.taxMinor)) {
    problems.push(`${at}: total ${line.totalMinor} ≠ net + tax (${line.netMinor + line.taxMinor})`);
  }
  // tax must be net × rate rounded to a minor unit: |tax − net × rate / 100| ≤ ½, scaled by 100 000.
  if (abs(big(line.taxMinor) * 100_000n - big(line.netMinor) * rateMilli(line.taxRate)) > 50_000n) {
    problems.push(`${at}: tax ${line.taxMinor} is not net × ${line.taxRate} % rounded`);
  }
  return problems;
}

/** Problems (empty when consistent): the totals must be the exact sums of the lines plus shipping. */
export function checkTotals(doc: BusinessDocument): string[] {
  const problems = doc.lines.flatMap(lineProblems);
  const { totals } = doc;
  const expect = (label: string, actual: number, expected: bigint) => {
    if (big(actual) !== expected) problems.push(`${label} ${actual} ≠ ${expected}`);
  };
  const net = sum(doc.lines.map((l) => l.netMinor));
  const tax = sum(doc.lines.map((l) => l.taxMinor));
  expect('totals.netMinor', totals.netMinor, net);
  expect('totals.taxMinor', totals.taxMinor, tax);
  expect('totals.shippingMinor', totals.shippingMinor, big(doc.shippingMinor));
  expect('totals.totalMinor', totals.totalMinor, net + tax + big(doc.shippingMinor));
  expect('totals.dueMinor', totals.dueMinor, big(totals.totalMinor) - big(totals.paidMinor));
  return problems;
}

/** Minor units → the currency's major unit as a number, for display only (formatMoney takes that). */
export function minorToMajor(amountMinor: number, currency: string): number {
  return amountMinor / 10 ** moneyDigits(currency);
}

/** Display form of an amount: "€1,234.50", "₹12.00", "¥1,235", "KWD 1.250". */
export function displayMoney(amountMinor: number, currency: string): string {
  return formatMoney(minorToMajor(amountMinor, currency), currency);
}

/** A rate as written in XML/JSON and on the PDF: 19, 7.5, 0.25 (no float noise). */
export function formatRate(rate: number): string {
  return String(Number(rate.toFixed(3)));
}
