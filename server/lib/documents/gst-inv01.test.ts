import { describe, expect, it } from 'vitest';
import { makeDocument, party } from './fixtures';
import { gstInvoiceJson, gstInvoiceSchema, splitIntraStateTax } from './gst-inv01';
import type { BusinessDocument } from './model';

const karnatakaSeller = party('Rangoli Textiles Pvt Ltd', {
  taxId: '29ABCDE1234F1Z5',
  addressLine1: '12 MG Road',
  city: 'Bengaluru',
  zipcode: '560001',
  state: 'Karnataka',
  country: 'IN',
});

function invoice(buyerGstin: string, overrides: Partial<BusinessDocument> = {}): BusinessDocument {
  return makeDocument({
    number: 'GST/25/7',
    currency: 'INR',
    lines: [
      // ₹123.45 × 2 = ₹246.90 at 5 % → ₹12.345 → ₹12.35 (1235 paise: odd)
      { name: 'Cotton saree', sku: '5208', quantity: 2, unitPriceMinor: 12_345, taxRate: 5 },
      // ₹1,000.00 − ₹100.00 at 12 % → ₹108.00
      {
        name: 'Silk stole',
        sku: '50072010',
        quantity: 1,
        unitPriceMinor: 100_000,
        discountMinor: 10_000,
        taxRate: 12,
      },
    ],
    shippingMinor: 5_000,
    seller: karnatakaSeller,
    buyer: party('Kaveri Stores', { taxId: buyerGstin, city: 'Mysuru', zipcode: '570001', country: 'IN' }),
    overrides,
  });
}

describe('gstInvoiceJson', () => {
  it('splits intra-state tax into CGST and SGST, the odd paisa to CGST', () => {
    expect(splitIntraStateTax(1_235)).toEqual({ cgstMinor: 618, sgstMinor: 617 });
    const { json, problems } = gstInvoiceJson(invoice('29PQRSX5678K1Z2'), { supplyType: 'B2B' });
    expect(problems).toEqual([]);
    expect(gstInvoiceSchema.parse(json)).toEqual(json);
    expect(json.DocDtls).toEqual({ Typ: 'INV', No: 'GST/25/7', Dt: '14/03/2025' });
    expect(json.SellerDtls).toMatchObject({
      Gstin: '29ABCDE1234F1Z5',
      Stcd: '29',
      Pin: 560001,
      Loc: 'Bengaluru',
    });
    expect(json.BuyerDtls).toMatchObject({ Pos: '29', Stcd: '29', Pin: 570001 });
    expect(json.ItemList[0]).toEqual({
      SlNo: '1',
      PrdDesc: 'Cotton saree',
      IsServc: 'N',
      HsnCd: '5208',
      Qty: 2,
      Unit: 'NOS',
      UnitPrice: 123.45,
      TotAmt: 246.9,
      Discount: 0,
      AssAmt: 246.9,
      GstRt: 5,
      CgstAmt: 6.18,
      SgstAmt: 6.17,
      TotItemVal: 259.25,
    });
    expect(json.ItemList[1]).toMatchObject({
      Discount: 100,
      AssAmt: 900,
      CgstAmt: 54,
      SgstAmt: 54,
      TotItemVal: 1_008,
    });
    expect(json.ItemList[1]).not.toHaveProperty('IgstAmt');
    expect(json.ValDtls).toEqual({
      AssVal: 1_146.9,
      CgstVal: 60.18,
      SgstVal: 60.17,
      IgstVal: 0,
      OthChrg: 50,
      TotInvVal: 1_317.25,
    });
  });

  it('charges IGST between states', () => {
    const { json, problems } = gstInvoiceJson(invoice('27PQRSX5678K1Z2'), { supplyType: 'B2B' });
    expect(problems).toEqual([]);
    expect(json.BuyerDtls).toMatchObject({ Pos: '27', Stcd: '27' });
    expect(json.ItemList[0]).toMatchObject({ IgstAmt: 12.35 });
    expect(json.ItemList[0]).not.toHaveProperty('CgstAmt');
    expect(json.ValDtls).toMatchObject({ CgstVal: 0, SgstVal: 0, IgstVal: 120.35, TotInvVal: 1_317.25 });
  });

  it('writes a credit note as CRN', () => {
    const { json } = gstInvoiceJson(invoice('29PQRSX5678K1Z2', { kind: 'credit_note' }), {
      supplyType: 'B2B',
    });
    expect(json.DocDtls.Typ).toBe('CRN');
  });

  it('reports a missing or malformed GSTIN, a non-INR currency, a missing HSN code and a bad PIN', () => {
    const doc = invoice('', { currency: 'EUR' });
    doc.seller = { ...karnatakaSeller, taxId: '29abc', zipcode: '5600' };
    const [first, second] = doc.lines;
    if (!first || !second) throw new Error('fixture has two lines');
    doc.lines = [{ ...first, sku: 'SAREE-1' }, second];
    const { problems } = gstInvoiceJson(doc, { supplyType: 'B2B' });
    expect(problems).toEqual([
      'currency is EUR, GST e-invoices are in INR',
      'seller GSTIN "29abc" is not a valid GSTIN',
      'seller PIN "5600" is not a 6-digit PIN code',
      'buyer GSTIN is missing',
      'line 1: SKU "SAREE-1" is no HSN code (4–8 digits)',
    ]);
  });

  it('refuses kinds that are not invoices or credit notes', () => {
    expect(() =>
      gstInvoiceJson(invoice('29PQRSX5678K1Z2', { kind: 'offer' }), { supplyType: 'B2B' }),
    ).toThrow(RangeError);
  });
});
