// Renders a business document as an A4 PDF with pdfkit. Invoices and credit notes are Factur-X
// (EN 16931 profile): PDF/A-3b with the CII XML attached as factur-x.xml and the Factur-X XMP schema.
// pdfkit is imported lazily so the server does not load it (and its font parser) at startup.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ciiXml } from './cii';
import {
  type BusinessDocument,
  type DocumentKind,
  type DocumentLine,
  displayMoney,
  formatRate,
  MAX_LINES,
  type Party,
  taxBreakdown,
} from './model';

type Pdf = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

export interface RenderOptions {
  /** Attach the CII XML and make a PDF/A-3b (Factur-X). Default: true for invoices and credit notes. */
  readonly attachXml?: boolean;
}

const TITLES: Record<DocumentKind, string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  offer: 'Offer',
  purchase_order: 'Purchase order',
  packing_slip: 'Packing slip',
};

const FACTUR_X_NAME = 'factur-x.xml';
const CREATOR = 'marketplace-backoffice documents';

// --- fonts: read once per process; pdfkit parses them per document (it has no cross-document cache).

interface Fonts {
  readonly regular: Buffer;
  readonly bold: Buffer;
}
let fonts: Fonts | undefined;

function loadFonts(): Fonts {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    fonts = {
      regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
      bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
    };
  }
  return fonts;
}

// --- page geometry (points; A4 is 595.28 × 841.89)

const LEFT = 50;
const RIGHT = 545.28;
const WIDTH = RIGHT - LEFT;
const TOP = 50;
/** Content stops here; the footer lives below. */
const CONTENT_BOTTOM = 841.89 - 80;
const FOOTER_Y = 841.89 - 62;
const GRAY = '#555555';
const RULE = '#999999';

interface Ctx {
  readonly pdf: Pdf;
  readonly doc: BusinessDocument;
  /** The root of the structure tree: all real text is tagged under it. */
  readonly root: Struct;
  readonly money: (amountMinor: number) => string;
}

interface TextStyle {
  readonly bold?: boolean;
  readonly size?: number;
  readonly color?: string;
  readonly align?: 'left' | 'right' | 'center';
  readonly width?: number;
  /** Tagged-PDF structure type (P, H1, TH, TD, …) and parent. */
  readonly type?: string;
  readonly parent?: Struct;
}

function setStyle(pdf: Pdf, style: TextStyle): void {
  pdf
    .font(style.bold ? 'Bold' : 'Body')
    .fontSize(style.size ?? 9)
    .fillColor(style.color ?? 'black');
}

/** Writes tagged text at (x, y) and returns its height. */
function text(ctx: Ctx, value: string, x: number, y: number, style: TextStyle = {}): number {
  const { pdf } = ctx;
  setStyle(pdf, style);
  const options: PDFKit.Mixins.TextOptions = {
    width: style.width ?? RIGHT - x,
    align: style.align ?? 'left',
    structParent: style.parent ?? ctx.root,
    structType: style.type ?? 'P',
  };
  const height = pdf.heightOfString(value, options);
  pdf.text(value, x, y, options);
  return height;
}

function textHeight(pdf: Pdf, value: string, style: TextStyle): number {
  setStyle(pdf, style);
  return pdf.heightOfString(value, { width: style.width ?? WIDTH });
}

/** A single-line cell: shrinks the font so a long amount never wraps inside its column. */
function cell(ctx: Ctx, value: string, x: number, y: number, width: number, style: TextStyle): void {
  const { pdf } = ctx;
  let size = style.size ?? 8.5;
  setStyle(pdf, { ...style, size });
  while (size > 5 && pdf.widthOfString(value) > width) {
    size -= 0.5;
    pdf.fontSize(size);
  }
  text(ctx, value, x, y, { ...style, size, width });
}

/** Decoration (rules, fills, logo) is an artifact, not content, in a tagged PDF. */
function artifact(pdf: Pdf, draw: () => void): void {
  pdf.markContent('Artifact');
  draw();
}

function rule(pdf: Pdf, y: number, x1 = LEFT, x2 = RIGHT): void {
  artifact(pdf, () => {
    pdf.moveTo(x1, y).lineTo(x2, y).lineWidth(0.5).strokeColor(RULE).stroke();
  });
}

function addressLines(party: Party): string[] {
  const cityLine = [party.zipcode, party.city].filter(Boolean).join(' ');
  return [
    party.addressLine1,
    party.addressLine2,
    cityLine,
    [party.state, party.country].filter(Boolean).join(', '),
  ]
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A party block (label, name, address, tax id, email); returns the y below it. */
function partyBlock(ctx: Ctx, label: string, party: Party, x: number, y: number, width: number): number {
  let at = y;
  at += text(ctx, label, x, at, { size: 7.5, color: GRAY, width });
  at += text(ctx, party.name, x, at, { bold: true, size: 9.5, width });
  const details = [...addressLines(party)];
  if (party.taxId) details.push(`Tax ID: ${party.taxId}`);
  if (party.email) details.push(party.email);
  if (details.length > 0) at += text(ctx, details.join('\n'), x, at, { size: 8.5, width });
  return at;
}

// --- sections

/** Who issued the document: the buyer for a purchase order, else the seller. */
const issuerOf = (doc: BusinessDocument) => (doc.kind === 'purchase_order' ? doc.buyer : doc.seller);
const counterpartyOf = (doc: BusinessDocument) => (doc.kind === 'purchase_order' ? doc.seller : doc.buyer);

const COUNTERPARTY_LABEL: Record<DocumentKind, string> = {
  invoice: 'Bill to',
  credit_note: 'Bill to',
  offer: 'Offer for',
  purchase_order: 'Supplier',
  packing_slip: 'Customer',
};

function header(ctx: Ctx): number {
  const { pdf, doc } = ctx;
  let logoBottom = TOP;
  if (doc.logo) {
    const logo = doc.logo;
    artifact(pdf, () => {
      pdf.image(logo, LEFT, TOP, { fit: [150, 60] });
    });
    logoBottom = TOP + 60;
  }
  const sellerBottom = partyBlock(ctx, 'From', issuerOf(doc), 330, TOP, RIGHT - 330);
  let y = Math.max(logoBottom, sellerBottom) + 18;
  y += text(ctx, `${TITLES[doc.kind]} ${doc.number}`, LEFT, y, { bold: true, size: 18, type: 'H1' }) + 12;
  return y;
}

function metaRows(doc: BusinessDocument): [string, string][] {
  const rows: [string, string][] = [
    ['Number', doc.number],
    ['Issue date', doc.issueDate],
  ];
  const priced = doc.kind !== 'packing_slip';
  if (doc.dueDate && priced) rows.push([doc.kind === 'offer' ? 'Valid until' : 'Due date', doc.dueDate]);
  if (doc.reference) rows.push(['Reference', doc.reference]);
  if (doc.precedingInvoice) {
    rows.push(['Corrects invoice', doc.precedingInvoice.number], ['Dated', doc.precedingInvoice.issueDate]);
  }
  if (priced) rows.push(['Currency', doc.currency]);
  return rows;
}

function addresses(ctx: Ctx, y: number): number {
  const { doc } = ctx;
  let bottom = partyBlock(ctx, COUNTERPARTY_LABEL[doc.kind], counterpartyOf(doc), LEFT, y, 150);
  if (doc.shipTo) {
    const label = doc.kind === 'purchase_order' ? 'Deliver to' : 'Ship to';
    bottom = Math.max(bottom, partyBlock(ctx, label, doc.shipTo, 210, y, 135));
  }
  let metaY = y;
  for (const [label, value] of metaRows(doc)) {
    text(ctx, label, 360, metaY, { size: 8, color: GRAY, width: 78 });
    metaY += Math.max(11, text(ctx, value, 440, metaY, { size: 8.5, width: RIGHT - 440 }));
  }
  return Math.max(bottom, metaY) + 20;
}

// --- the lines table

interface Column {
  readonly title: string;
  readonly x: number;
  readonly width: number;
  readonly align: 'left' | 'right';
  readonly value: (line: DocumentLine, ctx: Ctx) => string;
}

const ITEM_WIDTH = 205;
const priced: readonly Column[] = [
  { title: 'Item', x: LEFT, width: ITEM_WIDTH, align: 'left', value: (l) => l.name },
  { title: 'Qty', x: 260, width: 40, align: 'right', value: (l) => String(l.quantity) },
  { title: 'Unit price', x: 305, width: 72, align: 'right', value: (l, c) => c.money(l.unitPriceMinor) },
  {
    title: 'Discount',
    x: 382,
    width: 62,
    align: 'right',
    value: (l, c) => (l.discountMinor ? c.money(l.discountMinor) : '–'),
  },
  { title: 'Tax', x: 449, width: 28, align: 'right', value: (l) => `${formatRate(l.taxRate)} %` },
  { title: 'Total', x: 480, width: RIGHT - 480, align: 'right', value: (l, c) => c.money(l.totalMinor) },
];
// A packing slip shows what is in the parcel, never what it cost.
const unpriced: readonly Column[] = [
  { title: 'Item', x: LEFT, width: 300, align: 'left', value: (l) => l.name },
  { title: 'SKU', x: 360, width: 120, align: 'left', value: (l) => l.sku },
  { title: 'Qty', x: 485, width: RIGHT - 485, align: 'right', value: (l) => String(l.quantity) },
];

function columnsFor(kind: DocumentKind): readonly Column[] {
  return kind === 'packing_slip' ? unpriced : priced;
}

function tableHeader(ctx: Ctx, table: Struct, columns: readonly Column[], y: number): number {
  const { pdf } = ctx;
  artifact(pdf, () => {
    pdf.rect(LEFT, y, WIDTH, 16).fillColor('#eeeeee').fill();
  });
  const row = pdf.struct('TR');
  table.add(row);
  for (const column of columns) {
    cell(ctx, column.title, column.x, y + 4, column.width, {
      bold: true,
      size: 8,
      align: column.align,
      type: 'TH',
      parent: row,
    });
  }
  return y + 20;
}

/** The item cell: the name, and the SKU under it in gray (priced tables only). */
function itemText(line: DocumentLine, kind: DocumentKind): { name: string; sku: string } {
  return { name: line.name, sku: kind !== 'packing_slip' && line.sku ? `SKU ${line.sku}` : '' };
}

function rowHeight(ctx: Ctx, line: DocumentLine, itemWidth: number): number {
  const { name, sku } = itemText(line, ctx.doc.kind);
  const nameHeight = textHeight(ctx.pdf, name, { size: 8.5, width: itemWidth });
  const skuHeight = sku ? textHeight(ctx.pdf, sku, { size: 7, width: itemWidth }) : 0;
  return nameHeight + skuHeight + 6;
}

function tableRow(ctx: Ctx, table: Struct, columns: readonly Column[], line: DocumentLine, y: number): void {
  const row = ctx.pdf.struct('TR');
  table.add(row);
  const [item, ...rest] = columns;
  if (item) {
    const { name, sku } = itemText(line, ctx.doc.kind);
    const nameHeight = text(ctx, name, item.x, y, { size: 8.5, width: item.width, type: 'TD', parent: row });
    if (sku)
      text(ctx, sku, item.x, y + nameHeight, {
        size: 7,
        color: GRAY,
        width: item.width,
        type: 'TD',
        parent: row,
      });
  }
  for (const column of rest) {
    cell(ctx, column.value(line, ctx), column.x, y, column.width, {
      align: column.align,
      type: 'TD',
      parent: row,
    });
  }
}

/** Starts a new page and returns the y to continue at. */
function newPage(ctx: Ctx): number {
  ctx.pdf.addPage();
  return TOP;
}

/** The lines, breaking across pages with the header row repeated; returns the y below the table. */
function linesTable(ctx: Ctx, startY: number): number {
  const columns = columnsFor(ctx.doc.kind);
  const itemWidth = columns[0]?.width ?? ITEM_WIDTH;
  const table = ctx.pdf.struct('Table');
  ctx.root.add(table);
  let y = tableHeader(ctx, table, columns, startY);
  for (const line of ctx.doc.lines) {
    const height = rowHeight(ctx, line, itemWidth);
    if (y + height > CONTENT_BOTTOM) y = tableHeader(ctx, table, columns, newPage(ctx));
    tableRow(ctx, table, columns, line, y);
    y += height;
    rule(ctx.pdf, y - 3);
  }
  return y + 8;
}

// --- totals and closing blocks

function totalRows(ctx: Ctx): { label: string; value: string; bold?: boolean }[] {
  const { doc, money } = ctx;
  const { totals } = doc;
  const rows: { label: string; value: string; bold?: boolean }[] = [
    { label: 'Net', value: money(totals.netMinor) },
  ];
  for (const group of taxBreakdown(doc.lines, 0)) {
    if (group.rate === 0) continue;
    rows.push({
      label: `Tax ${formatRate(group.rate)} % of ${money(group.baseMinor)}`,
      value: money(group.taxMinor),
    });
  }
  if (totals.shippingMinor) rows.push({ label: 'Shipping', value: money(totals.shippingMinor) });
  rows.push({ label: 'Total', value: money(totals.totalMinor), bold: true });
  if (doc.kind === 'invoice' || doc.kind === 'credit_note') {
    if (totals.paidMinor) rows.push({ label: 'Paid', value: money(totals.paidMinor) });
    rows.push({
      label: doc.kind === 'credit_note' ? 'To refund' : 'Due',
      value: money(totals.dueMinor),
      bold: true,
    });
  }
  return rows;
}

function totalsBlock(ctx: Ctx, startY: number): number {
  const rows = totalRows(ctx);
  let y = startY + rows.length * 14 > CONTENT_BOTTOM ? newPage(ctx) : startY;
  for (const row of rows) {
    if (row.bold) rule(ctx.pdf, y - 2, 300);
    text(ctx, row.label, 300, y, { size: 8.5, bold: row.bold, width: 160, align: 'right' });
    cell(ctx, row.value, 465, y, RIGHT - 465, { size: 8.5, bold: row.bold, align: 'right' });
    y += 14;
  }
  return y + 14;
}

function bankText(doc: BusinessDocument): string {
  const bank = doc.bank;
  if (!bank) return '';
  return [
    bank.accountName && `Account holder: ${bank.accountName}`,
    bank.accountNumber && `Account: ${bank.accountNumber}`,
    bank.bankCode && `Bank code: ${bank.bankCode}`,
    bank.bankName && `Bank: ${bank.bankName}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** Notes, payment terms and bank details, each kept whole on a page when it fits on one. */
function closingBlocks(ctx: Ctx, startY: number): void {
  const { doc } = ctx;
  const priced = doc.kind !== 'packing_slip';
  const blocks: [string, string][] = [
    ['Notes', doc.notes],
    ['Payment terms', priced ? doc.paymentTerms : ''],
    ['Bank details', priced ? bankText(doc) : ''],
  ];
  let y = startY;
  for (const [title, body] of blocks) {
    if (!body.trim()) continue;
    const height = 13 + textHeight(ctx.pdf, body, { size: 8.5 });
    if (y + height > CONTENT_BOTTOM && height < CONTENT_BOTTOM - TOP) y = newPage(ctx);
    y += text(ctx, title, LEFT, y, { bold: true, size: 9, type: 'H2' }) + 2;
    // Long text continues on a new page by itself (pdfkit breaks at the bottom margin).
    text(ctx, body, LEFT, y, { size: 8.5, width: WIDTH });
    y = ctx.pdf.y + 12;
  }
}

/** The footer and "Page n of m" on every page, as pagination artifacts. */
function footers(ctx: Ctx): void {
  const { pdf, doc } = ctx;
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Below the bottom margin pdfkit would start a new page for this text; lift the margin meanwhile.
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    rule(pdf, FOOTER_Y - 6);
    pdf.markContent('Artifact', { type: 'Pagination' });
    setStyle(pdf, { size: 7.5, color: GRAY });
    if (doc.footer) pdf.text(doc.footer, LEFT, FOOTER_Y, { width: WIDTH - 90, height: 28, ellipsis: true });
    pdf.text(`Page ${i - range.start + 1} of ${range.count}`, RIGHT - 85, FOOTER_Y, {
      width: 85,
      align: 'right',
    });
    pdf.page.margins.bottom = bottom;
  }
}

// --- Factur-X: attachment and XMP

/** Midnight UTC of the issue date: the same document gives the same bytes (pdfkit derives the file ID from it). */
const issueInstant = (doc: BusinessDocument) => new Date(`${doc.issueDate}T00:00:00Z`);

function factureXmp(): string {
  const property = (name: string, description: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;
  return `
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
            <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property><rdf:Seq>
                    ${property('DocumentFileName', 'The name of the embedded XML document')}
                    ${property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}
                    ${property('Version', 'The actual version of the standard applying to the embedded XML document')}
                    ${property('ConformanceLevel', 'The conformance level of the embedded XML document')}
                </rdf:Seq></pdfaSchema:property>
            </rdf:li></rdf:Bag></pdfaExtension:schemas>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
            <fx:DocumentType>INVOICE</fx:DocumentType>
            <fx:DocumentFileName>${FACTUR_X_NAME}</fx:DocumentFileName>
            <fx:Version>1.0</fx:Version>
            <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
        `;
}

/** pdfkit's `file` accepts `relationship` (the /AFRelationship PDF/A-3 needs) but @types/pdfkit lacks it. */
type AttachmentOptions = PDFKit.Mixins.PDFAttachmentOptions & {
  relationship?: 'Alternative' | 'Data' | 'Source' | 'Supplement' | 'Unspecified';
};

function attachFacturX(pdf: Pdf, doc: BusinessDocument, xml: string): void {
  const date = issueInstant(doc);
  const options: AttachmentOptions = {
    name: FACTUR_X_NAME,
    type: 'text/xml',
    relationship: 'Alternative',
    description: 'Factur-X EN 16931 invoice',
    creationDate: date,
    modifiedDate: date,
  };
  pdf.file(Buffer.from(xml, 'utf8'), options);
  pdf.appendXML(factureXmp());
}

/**
 * pdfkit copies Title/Author/Subject into the XMP packet without escaping them, so "Smith & Sons" would
 * break the metadata XML. The Info dictionary and the XMP must say the same (PDF/A), so both get
 * look-alike characters instead of the markup ones.
 */
function xmpSafe(value: string): string {
  const lookalikes: Record<string, string> = { '&': '＆', '<': '‹', '>': '›' };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return value.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[&<>]/g, (c) => lookalikes[c] ?? c);
}

function documentOptions(doc: BusinessDocument, pdfA: boolean): PDFKit.PDFDocumentOptions {
  const title = `${TITLES[doc.kind]} ${doc.number}`;
  return {
    size: 'A4',
    margins: { top: TOP, left: LEFT, right: 595.28 - RIGHT, bottom: 841.89 - CONTENT_BOTTOM },
    pdfVersion: '1.7',
    ...(pdfA ? { subset: 'PDF/A-3b' as const } : {}),
    tagged: true,
    lang: 'en',
    displayTitle: true,
    bufferPages: true,
    info: {
      Title: xmpSafe(title),
      Author: xmpSafe(issuerOf(doc).name),
      Subject: xmpSafe(`${title} for ${counterpartyOf(doc).name}`),
      Creator: CREATOR,
      CreationDate: issueInstant(doc),
    },
  };
}

function collect(pdf: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}

/**
 * The document as a PDF. Invoices and credit notes carry their CII XML (Factur-X EN 16931, PDF/A-3b)
 * unless `attachXml` is false.
 * @throws RangeError for more than MAX_LINES lines, or attachXml for a kind that is no e-invoice.
 */
export async function renderDocumentPdf(doc: BusinessDocument, options: RenderOptions = {}): Promise<Buffer> {
  if (doc.lines.length > MAX_LINES) {
    throw new RangeError(`renderDocumentPdf: ${doc.lines.length} lines, at most ${MAX_LINES} are rendered`);
  }
  const eInvoice = doc.kind === 'invoice' || doc.kind === 'credit_note';
  const attachXml = options.attachXml ?? eInvoice;
  // Built before any drawing so a document that cannot be an e-invoice fails fast.
  const xml = attachXml ? ciiXml(doc) : null;
  const { regular, bold } = loadFonts();
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument(documentOptions(doc, xml !== null));
  const done = collect(pdf);
  pdf.registerFont('Body', regular);
  pdf.registerFont('Bold', bold);
  const root = pdf.struct('Document');
  pdf.addStructure(root);
  const ctx: Ctx = { pdf, doc, root, money: (amountMinor) => displayMoney(amountMinor, doc.currency) };

  let y = header(ctx);
  y = addresses(ctx, y);
  y = linesTable(ctx, y);
  if (doc.kind !== 'packing_slip') y = totalsBlock(ctx, y);
  closingBlocks(ctx, y);
  footers(ctx);
  if (xml !== null) attachFacturX(pdf, doc, xml);
  pdf.end();
  return done;
}
