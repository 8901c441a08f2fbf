// UN/CEFACT Cross Industry Invoice (D16B) in the EN 16931 profile, as Factur-X 1.0 / ZUGFeRD 2.x embed
// it in a PDF/A-3. Written with plain string building: the structure is fixed and small, and element
// ORDER matters to the XSD, which a template makes easy to read against the schema.
//
// Amounts are written with the currency's ISO 4217 digits. EN 16931 (BR-DEC-*) allows at most 2
// decimals for amounts, so a 3-digit currency (KWD, BHD) gives XML that the XSD accepts but the EN 16931
// Schematron rejects; we still write what the currency has rather than round money away.

import { moneyDigits } from '../../../contracts/domain/currency';
import { minorToDecimal } from '../../../contracts/domain/offer-pricing';
import {
  type BusinessDocument,
  checkTotals,
  type DocumentLine,
  formatRate,
  type Party,
  taxBreakdown,
} from './model';

export const EN16931_GUIDELINE = 'urn:cen.eu:en16931:2017';

const NAMESPACES = [
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"',
  'xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"',
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"',
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"',
].join(' ');

// XML 1.0 forbids C0 controls other than tab/LF/CR and the non-characters U+FFFE/U+FFFF; DEL is
// allowed but never meant in an invoice. Lone surrogates cannot be encoded as UTF-8 at all.
const FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text for element content or an attribute value. */
export function escapeXml(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** `<tag>text</tag>`, or nothing when the text is empty (empty elements are invalid for most BTs). */
function el(tag: string, text: string, attrs = ''): string {
  if (text === '') return '';
  return `<${tag}${attrs}>${escapeXml(text)}</${tag}>`;
}

const date102 = (isoDate: string) => isoDate.replaceAll('-', '');

function dateTime(tag: string, isoDate: string, type: 'udt' | 'qdt' = 'udt'): string {
  return `<${tag}><${type}:DateTimeString format="102">${date102(isoDate)}</${type}:DateTimeString></${tag}>`;
}

const indicator = (value: boolean) =>
  `<ram:ChargeIndicator><udt:Indicator>${value}</udt:Indicator></ram:ChargeIndicator>`;

function typeCode(doc: BusinessDocument): '380' | '381' {
  if (doc.kind === 'invoice') return '380';
  if (doc.kind === 'credit_note') return '381';
  throw new RangeError(`ciiXml: only invoices and credit notes are e-invoices, not ${doc.kind}`);
}

function address(party: Party): string {
  return [
    '<ram:PostalTradeAddress>',
    el('ram:PostcodeCode', party.zipcode),
    el('ram:LineOne', party.addressLine1),
    el('ram:LineTwo', party.addressLine2),
    el('ram:CityName', party.city),
    el('ram:CountryID', party.country),
    el('ram:CountrySubDivisionName', party.state),
    '</ram:PostalTradeAddress>',
  ].join('');
}

/** A trade party; `withTaxId` is false for the ship-to party (no tax registration there in CII). */
function tradeParty(tag: string, party: Party, withTaxId = true): string {
  return [
    `<${tag}>`,
    el('ram:Name', party.name),
    address(party),
    party.email
      ? `<ram:URIUniversalCommunication>${el('ram:URIID', party.email, ' schemeID="EM"')}</ram:URIUniversalCommunication>`
      : '',
    withTaxId && party.taxId
      ? `<ram:SpecifiedTaxRegistration>${el('ram:ID', party.taxId, ' schemeID="VA"')}</ram:SpecifiedTaxRegistration>`
      : '',
    `</${tag}>`,
  ].join('');
}

function lineItem(line: DocumentLine, index: number, money: (minor: number) => string): string {
  const category = line.taxRate === 0 ? 'Z' : 'S';
  return [
    '<ram:IncludedSupplyChainTradeLineItem>',
    `<ram:AssociatedDocumentLineDocument><ram:LineID>${index + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>`,
    '<ram:SpecifiedTradeProduct>',
    el('ram:SellerAssignedID', line.sku),
    el('ram:Name', line.name),
    '</ram:SpecifiedTradeProduct>',
    '<ram:SpecifiedLineTradeAgreement>',
    `<ram:NetPriceProductTradePrice><ram:ChargeAmount>${money(line.unitPriceMinor)}</ram:ChargeAmount></ram:NetPriceProductTradePrice>`,
    '</ram:SpecifiedLineTradeAgreement>',
    '<ram:SpecifiedLineTradeDelivery>',
    `<ram:BilledQuantity unitCode="C62">${line.quantity}</ram:BilledQuantity>`,
    '</ram:SpecifiedLineTradeDelivery>',
    '<ram:SpecifiedLineTradeSettlement>',
    `<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${category}</ram:CategoryCode>`,
    `<ram:RateApplicablePercent>${formatRate(line.taxRate)}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
    // The line discount is a line allowance (BG-27), so LineTotalAmount = quantity × net price − discount.
    line.discountMinor > 0
      ? `<ram:SpecifiedTradeAllowanceCharge>${indicator(false)}<ram:ActualAmount>${money(line.discountMinor)}</ram:ActualAmount><ram:Reason>Discount</ram:Reason></ram:SpecifiedTradeAllowanceCharge>`
      : '',
    `<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${money(line.netMinor)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>`,
    '</ram:SpecifiedLineTradeSettlement>',
    '</ram:IncludedSupplyChainTradeLineItem>',
  ].join('');
}

function headerAgreement(doc: BusinessDocument): string {
  return [
    '<ram:ApplicableHeaderTradeAgreement>',
    tradeParty('ram:SellerTradeParty', doc.seller),
    tradeParty('ram:BuyerTradeParty', doc.buyer),
    doc.reference
      ? `<ram:BuyerOrderReferencedDocument>${el('ram:IssuerAssignedID', doc.reference)}</ram:BuyerOrderReferencedDocument>`
      : '',
    '</ram:ApplicableHeaderTradeAgreement>',
  ].join('');
}

function headerDelivery(doc: BusinessDocument): string {
  const shipTo = doc.shipTo ? tradeParty('ram:ShipToTradeParty', doc.shipTo, false) : '';
  return `<ram:ApplicableHeaderTradeDelivery>${shipTo}</ram:ApplicableHeaderTradeDelivery>`;
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
const BIC = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** Payment means: credit transfer (30), or SEPA credit transfer (58) when the account is an IBAN. */
function paymentMeans(doc: BusinessDocument): string {
  const bank = doc.bank;
  if (!bank) return '';
  const account = bank.accountNumber.replace(/\s+/g, '').toUpperCase();
  const isIban = IBAN.test(account);
  const bic = bank.bankCode.replace(/\s+/g, '').toUpperCase();
  return [
    '<ram:SpecifiedTradeSettlementPaymentMeans>',
    `<ram:TypeCode>${isIban ? '58' : '30'}</ram:TypeCode>`,
    '<ram:PayeePartyCreditorFinancialAccount>',
    isIban ? el('ram:IBANID', account) : '',
    el('ram:AccountName', bank.accountName),
    isIban ? '' : el('ram:ProprietaryID', bank.accountNumber.trim()),
    '</ram:PayeePartyCreditorFinancialAccount>',
    BIC.test(bic)
      ? `<ram:PayeeSpecifiedCreditorFinancialInstitution>${el('ram:BICID', bic)}</ram:PayeeSpecifiedCreditorFinancialInstitution>`
      : '',
    '</ram:SpecifiedTradeSettlementPaymentMeans>',
  ].join('');
}

function headerSettlement(doc: BusinessDocument, money: (minor: number) => string): string {
  const { totals } = doc;
  const currency = escapeXml(doc.currency);
  const taxes = taxBreakdown(doc.lines, doc.shippingMinor).map((group) =>
    [
      '<ram:ApplicableTradeTax>',
      `<ram:CalculatedAmount>${money(group.taxMinor)}</ram:CalculatedAmount>`,
      '<ram:TypeCode>VAT</ram:TypeCode>',
      `<ram:BasisAmount>${money(group.baseMinor)}</ram:BasisAmount>`,
      `<ram:CategoryCode>${group.category}</ram:CategoryCode>`,
      `<ram:RateApplicablePercent>${formatRate(group.rate)}</ram:RateApplicablePercent>`,
      '</ram:ApplicableTradeTax>',
    ].join(''),
  );
  const shipping =
    doc.shippingMinor > 0
      ? [
          '<ram:SpecifiedTradeAllowanceCharge>',
          indicator(true),
          `<ram:ActualAmount>${money(doc.shippingMinor)}</ram:ActualAmount>`,
          '<ram:Reason>Shipping</ram:Reason>',
          '<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>Z</ram:CategoryCode>',
          '<ram:RateApplicablePercent>0</ram:RateApplicablePercent></ram:CategoryTradeTax>',
          '</ram:SpecifiedTradeAllowanceCharge>',
        ].join('')
      : '';
  const terms =
    doc.paymentTerms || doc.dueDate
      ? [
          '<ram:SpecifiedTradePaymentTerms>',
          el('ram:Description', doc.paymentTerms),
          doc.dueDate ? dateTime('ram:DueDateDateTime', doc.dueDate) : '',
          '</ram:SpecifiedTradePaymentTerms>',
        ].join('')
      : '';
  const preceding = doc.precedingInvoice
    ? [
        '<ram:InvoiceReferencedDocument>',
        el('ram:IssuerAssignedID', doc.precedingInvoice.number),
        dateTime('ram:FormattedIssueDateTime', doc.precedingInvoice.issueDate, 'qdt'),
        '</ram:InvoiceReferencedDocument>',
      ].join('')
    : '';
  return [
    '<ram:ApplicableHeaderTradeSettlement>',
    el('ram:PaymentReference', doc.number),
    `<ram:InvoiceCurrencyCode>${currency}</ram:InvoiceCurrencyCode>`,
    paymentMeans(doc),
    ...taxes,
    shipping,
    terms,
    '<ram:SpecifiedTradeSettlementHeaderMonetarySummation>',
    `<ram:LineTotalAmount>${money(totals.netMinor)}</ram:LineTotalAmount>`,
    `<ram:ChargeTotalAmount>${money(totals.shippingMinor)}</ram:ChargeTotalAmount>`,
    `<ram:TaxBasisTotalAmount>${money(totals.netMinor + totals.shippingMinor)}</ram:TaxBasisTotalAmount>`,
    `<ram:TaxTotalAmount currencyID="${currency}">${money(totals.taxMinor)}</ram:TaxTotalAmount>`,
    `<ram:GrandTotalAmount>${money(totals.totalMinor)}</ram:GrandTotalAmount>`,
    `<ram:TotalPrepaidAmount>${money(totals.paidMinor)}</ram:TotalPrepaidAmount>`,
    `<ram:DuePayableAmount>${money(totals.dueMinor)}</ram:DuePayableAmount>`,
    '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>',
    preceding,
    '</ram:ApplicableHeaderTradeSettlement>',
  ].join('');
}

/**
 * The CII XML of an invoice (TypeCode 380) or credit note (381).
 * @throws RangeError for other kinds; Error when the totals are not the sums of the lines (an e-invoice
 *   with inconsistent totals is rejected by every receiver, better to fail here).
 */
export function ciiXml(doc: BusinessDocument): string {
  const code = typeCode(doc);
  const problems = checkTotals(doc);
  if (problems.length > 0) throw new Error(`ciiXml: inconsistent totals: ${problems.join('; ')}`);
  const money = (amountMinor: number) => minorToDecimal(amountMinor, doc.currency);
  const notes = [doc.notes, doc.footer].filter((n) => n.trim() !== '');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<rsm:CrossIndustryInvoice ${NAMESPACES}>`,
    '<rsm:ExchangedDocumentContext>',
    `<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${EN16931_GUIDELINE}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>`,
    '</rsm:ExchangedDocumentContext>',
    '<rsm:ExchangedDocument>',
    el('ram:ID', doc.number),
    `<ram:TypeCode>${code}</ram:TypeCode>`,
    dateTime('ram:IssueDateTime', doc.issueDate),
    ...notes.map((n) => `<ram:IncludedNote>${el('ram:Content', n)}</ram:IncludedNote>`),
    '</rsm:ExchangedDocument>',
    '<rsm:SupplyChainTradeTransaction>',
    ...doc.lines.map((line, i) => lineItem(line, i, money)),
    headerAgreement(doc),
    headerDelivery(doc),
    headerSettlement(doc, money),
    '</rsm:SupplyChainTradeTransaction>',
    '</rsm:CrossIndustryInvoice>\n',
  ].join('');
}

export interface CiiTotals {
  readonly currency: string;
  readonly typeCode: string;
  readonly lineTotalMinor: number;
  readonly chargeTotalMinor: number;
  readonly taxBasisTotalMinor: number;
  readonly taxTotalMinor: number;
  readonly grandTotalMinor: number;
  readonly prepaidMinor: number;
  readonly duePayableMinor: number;
  readonly taxes: readonly { category: string; rate: number; baseMinor: number; taxMinor: number }[];
}

/** The text of the first `<tag …>…</tag>` in `xml`, unescaped; undefined when absent. */
function first(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return match?.[1]?.trim();
}

/** An exact decimal string → integer minor units with `digits` decimals (no float rounding). */
function decimalToMinor(text: string | undefined, digits: number, what: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text ?? '');
  if (!match) throw new Error(`readCiiTotals: ${what} is not a decimal: ${text}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  if (fraction.length > digits && /[^0]/.test(fraction.slice(digits))) {
    throw new Error(`readCiiTotals: ${what} ${text} has more than ${digits} decimals`);
  }
  const value = Number(`${whole}${fraction.slice(0, digits).padEnd(digits, '0')}`);
  return sign === '-' ? -value : value;
}

/**
 * Reads back the monetary summation and the per-rate taxes of a CII written by ciiXml (regex-based: it
 * relies on our namespace prefixes, which is all the tests and the bench need).
 */
export function readCiiTotals(xml: string): CiiTotals {
  const settlement = first(xml, 'ram:ApplicableHeaderTradeSettlement');
  const summation = settlement && first(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = settlement && first(settlement, 'ram:InvoiceCurrencyCode');
  if (!settlement || !summation || !currency) throw new Error('readCiiTotals: no header settlement');
  const digits = moneyDigits(currency);
  const amount = (block: string, tag: string) => decimalToMinor(first(block, tag), digits, tag);
  const taxBlocks = settlement.match(/<ram:ApplicableTradeTax>[\s\S]*?<\/ram:ApplicableTradeTax>/g) ?? [];
  return {
    currency,
    typeCode: first(xml, 'ram:TypeCode') ?? '',
    lineTotalMinor: amount(summation, 'ram:LineTotalAmount'),
    chargeTotalMinor: amount(summation, 'ram:ChargeTotalAmount'),
    taxBasisTotalMinor: amount(summation, 'ram:TaxBasisTotalAmount'),
    taxTotalMinor: amount(summation, 'ram:TaxTotalAmount'),
    grandTotalMinor: amount(summation, 'ram:GrandTotalAmount'),
    prepaidMinor: amount(summation, 'ram:TotalPrepaidAmount'),
    duePayableMinor: amount(summation, 'ram:DuePayableAmount'),
    taxes: taxBlocks.map((block) => ({
      category: first(block, 'ram:CategoryCode') ?? '',
      rate: Number(first(block, 'ram:RateApplicablePercent')),
      baseMinor: amount(block, 'ram:BasisAmount'),
      taxMinor: amount(block, 'ram:CalculatedAmount'),
    })),
  };
}
