// India's GST e-invoice JSON (schema INV-01, version 1.1) as the Invoice Registration Portal takes it.
// Amounts are rupees with 2 decimals as JSON numbers. The writer never refuses a document for data
// problems (a missing GSTIN, a non-INR currency, a SKU that is no HSN code): it reports them in
// `problems`, so the caller can show them all at once before submitting.
import { z } from 'zod';
import { moneyDigits } from '../../../contracts/domain/currency';
import { type BusinessDocument, checkTotals, type DocumentLine, type Party } from './model';

/**
 * INV-01 supply types. There is no B2C: invoices to consumers are not reported to the IRP (they carry
 * a dynamic QR code instead), so a B2C sale has no INV-01 JSON.
 */
export const gstSupplyTypes = ['B2B', 'SEZWP', 'SEZWOP', 'EXPWP', 'EXPWOP', 'DEXP'] as const;
export type GstSupplyType = (typeof gstSupplyTypes)[number];

export interface GstOptions {
  readonly supplyType: GstSupplyType;
}

export const GSTIN_PATTERN = /^[0-9]{2}[A-Z0-9]{13}$/;
const HSN_PATTERN = /^[0-9]{4,8}$/;
/** Exports have no Indian buyer: GSTIN "URP" (unregistered person), state code 96 ("other country"). */
const EXPORT_STATE = '96';

const rupees = z.number().finite();
const stateCode = z.string().regex(/^[0-9]{2}$/);
const pin = z.number().int().min(100000).max(999999);

const itemSchema = z.object({
  SlNo: z.string(),
  PrdDesc: z.string().max(300),
  IsServc: z.enum(['Y', 'N']),
  HsnCd: z.string().regex(HSN_PATTERN),
  Qty: z.number(),
  Unit: z.string(),
  UnitPrice: rupees,
  TotAmt: rupees,
  Discount: rupees,
  AssAmt: rupees,
  GstRt: z.number().min(0).max(100),
  IgstAmt: rupees.optional(),
  CgstAmt: rupees.optional(),
  SgstAmt: rupees.optional(),
  TotItemVal: rupees,
});

export const gstInvoiceSchema = z.object({
  Version: z.literal('1.1'),
  TranDtls: z.object({ TaxSch: z.literal('GST'), SupTyp: z.enum(gstSupplyTypes) }),
  DocDtls: z.object({
    Typ: z.enum(['INV', 'CRN']),
    No: z.string().min(1).max(16),
    Dt: z.string().regex(/^\d{2}\/\d{2}\/\d{4}$/),
  }),
  SellerDtls: z.object({
    Gstin: z.string().regex(GSTIN_PATTERN),
    LglNm: z.string().min(1),
    Addr1: z.string().min(1),
    Addr2: z.string().optional(),
    Loc: z.string().min(1),
    Pin: pin,
    Stcd: stateCode,
    Em: z.string().optional(),
  }),
  BuyerDtls: z.object({
    Gstin: z.string().regex(GSTIN_PATTERN).or(z.literal('URP')),
    LglNm: z.string().min(1),
    Pos: stateCode,
    Addr1: z.string().min(1),
    Addr2: z.string().optional(),
    Loc: z.string().min(1),
    Pin: pin,
    Stcd: stateCode,
    Em: z.string().optional(),
  }),
  ItemList: z.array(itemSchema).min(1),
  ValDtls: z.object({
    AssVal: rupees,
    CgstVal: rupees,
    SgstVal: rupees,
    IgstVal: rupees,
    OthChrg: rupees,
    TotInvVal: rupees,
  }),
});
export type GstInvoiceJson = z.infer<typeof gstInvoiceSchema>;

export interface GstResult {
  readonly json: GstInvoiceJson;
  readonly problems: string[];
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
const indianDate = (isoDate: string) => isoDate.split('-').reverse().join('/');

/** The state code a GSTIN starts with, or '' when it is no GSTIN. */
const stateOf = (gstin: string) => (GSTIN_PATTERN.test(gstin) ? gstin.slice(0, 2) : '');

/** Splits intra-state tax in two halves; the odd paisa goes to CGST. */
export function splitIntraStateTax(taxMinor: number): { cgstMinor: number; sgstMinor: number } {
  const sgstMinor = Math.floor(taxMinor / 2);
  return { cgstMinor: taxMinor - sgstMinor, sgstMinor };
}

function partyProblems(role: string, party: Party, gstinRequired: boolean): string[] {
  const problems: string[] = [];
  const gstin = party.taxId.trim();
  if (!gstin) {
    if (gstinRequired) problems.push(`${role} GSTIN is missing`);
  } else if (!GSTIN_PATTERN.test(gstin)) {
    problems.push(`${role} GSTIN "${gstin}" is not a valid GSTIN`);
  }
  if (!/^[1-9][0-9]{5}$/.test(party.zipcode.trim())) {
    problems.push(`${role} PIN "${party.zipcode}" is not a 6-digit PIN code`);
  }
  return problems;
}

function item(
  line: DocumentLine,
  index: number,
  intraState: boolean,
  rs: (minor: number) => number,
): z.infer<typeof itemSchema> {
  const tax = intraState ? splitIntraStateTax(line.taxMinor) : null;
  return {
    SlNo: String(index + 1),
    PrdDesc: line.name.slice(0, 300),
    IsServc: 'N',
    HsnCd: HSN_PATTERN.test(line.sku) ? line.sku : '',
    Qty: line.quantity,
    Unit: 'NOS',
    UnitPrice: rs(line.unitPriceMinor),
    TotAmt: rs(line.quantity * line.unitPriceMinor),
    Discount: rs(line.discountMinor),
    AssAmt: rs(line.netMinor),
    GstRt: line.taxRate,
    ...(tax ? { CgstAmt: rs(tax.cgstMinor), SgstAmt: rs(tax.sgstMinor) } : { IgstAmt: rs(line.taxMinor) }),
    TotItemVal: rs(line.totalMinor),
  };
}

function documentProblems(doc: BusinessDocument, exported: boolean): string[] {
  const problems = checkTotals(doc);
  if (doc.currency !== 'INR') problems.push(`currency is ${doc.currency}, GST e-invoices are in INR`);
  problems.push(...partyProblems('seller', doc.seller, true));
  if (!exported) problems.push(...partyProblems('buyer', doc.buyer, true));
  if (doc.number.length > 16) problems.push(`document number "${doc.number}" is longer than 16 characters`);
  doc.lines.forEach((line, i) => {
    if (!HSN_PATTERN.test(line.sku))
      problems.push(`line ${i + 1}: SKU "${line.sku}" is no HSN code (4–8 digits)`);
  });
  return problems;
}

/**
 * The INV-01 JSON of an invoice or credit note, and the problems that keep it from being accepted.
 * Intra-state (seller and buyer in the same state) tax is split CGST/SGST, else it is IGST.
 * @throws RangeError for kinds other than invoice and credit note.
 */
export function gstInvoiceJson(doc: BusinessDocument, options: GstOptions): GstResult {
  if (doc.kind !== 'invoice' && doc.kind !== 'credit_note') {
    throw new RangeError(`gstInvoiceJson: only invoices and credit notes, not ${doc.kind}`);
  }
  const exported = options.supplyType.startsWith('EXP');
  const problems = documentProblems(doc, exported);
  // Rupees with 2 decimals; a non-INR document is converted digit-wise only (and reported above).
  const scale = 10 ** moneyDigits(doc.currency);
  const rs = (minor: number) => Math.round((minor / scale) * 100) / 100;
  const sellerState = stateOf(doc.seller.taxId.trim());
  const buyerState = exported ? EXPORT_STATE : stateOf(doc.buyer.taxId.trim());
  const intraState = sellerState !== '' && sellerState === buyerState;
  const items = doc.lines.map((line, i) => item(line, i, intraState, rs));
  // Totals are the sums of the items' halves, so ValDtls agrees with ItemList to the paisa.
  const splits = doc.lines.map((line) => splitIntraStateTax(line.taxMinor));
  const cgstMinor = intraState ? splits.reduce((acc, s) => acc + s.cgstMinor, 0) : 0;
  const sgstMinor = intraState ? splits.reduce((acc, s) => acc + s.sgstMinor, 0) : 0;
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);

  const json: GstInvoiceJson = {
    Version: '1.1',
    TranDtls: { TaxSch: 'GST', SupTyp: options.supplyType },
    DocDtls: { Typ: doc.kind === 'invoice' ? 'INV' : 'CRN', No: doc.number, Dt: indianDate(doc.issueDate) },
    SellerDtls: {
      Gstin: doc.seller.taxId.trim(),
      LglNm: doc.seller.name,
      Addr1: doc.seller.addressLine1,
      Addr2: optional(doc.seller.addressLine2),
      Loc: doc.seller.city,
      Pin: Number(doc.seller.zipcode.trim()) || 0,
      Stcd: sellerState,
      Em: optional(doc.seller.email),
    },
    BuyerDtls: {
      Gstin: exported ? 'URP' : doc.buyer.taxId.trim(),
      LglNm: doc.buyer.name,
      Pos: buyerState,
      Addr1: doc.buyer.addressLine1,
      Addr2: optional(doc.buyer.addressLine2),
      Loc: doc.buyer.city,
      Pin: exported ? 999999 : Number(doc.buyer.zipcode.trim()) || 0,
      Stcd: buyerState,
      Em: optional(doc.buyer.email),
    },
    ItemList: items,
    ValDtls: {
      AssVal: rs(doc.totals.netMinor),
      CgstVal: rs(cgstMinor),
      SgstVal: rs(sgstMinor),
      IgstVal: intraState ? 0 : rs(doc.totals.taxMinor),
      OthChrg: rs(doc.totals.shippingMinor),
      TotInvVal: rs(doc.totals.totalMinor),
    },
  };
  // The explicit checks above say what is wrong in the document's terms; the schema catches the rest.
  if (problems.length === 0) {
    const parsed = gstInvoiceSchema.safeParse(json);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
    }
  }
  return { json, problems };
}
