import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ciiXml } from './cii';
import { type LineInput, makeDocument, party, threeLineInvoice } from './fixtures';
import { type BusinessDocument, displayMoney } from './model';
import { renderDocumentPdf } from './pdf';

const hasPoppler = ['pdftotext', 'pdfinfo', 'pdfdetach'].every((tool) => existsSync(`/usr/bin/${tool}`));
const dir = mkdtempSync(join(tmpdir(), 'documents-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function save(pdf: Buffer): string {
  const path = join(dir, `${++files}.pdf`);
  writeFileSync(path, pdf);
  return path;
}

const run = (tool: string, ...args: string[]) => execFileSync(`/usr/bin/${tool}`, args, { encoding: 'utf8' });
const textOf = (path: string) => run('pdftotext', '-layout', path, '-');

function longInrInvoice(): BusinessDocument {
  const lines: LineInput[] = Array.from({ length: 120 }, (_, i) => ({
    name: `Cotton kurta, size ${['S', 'M', 'L', 'XL'][i % 4]}, colour ${i + 1}`,
    sku: String(62_050_000 + i),
    quantity: 1 + (i % 5),
    unitPriceMinor: 49_900 + i * 100,
    taxRate: i % 3 === 0 ? 5 : 12,
  }));
  return makeDocument({
    number: 'GST/2025/118',
    currency: 'INR',
    lines,
    shippingMinor: 15_000,
    seller: party('Rangoli Textiles Pvt Ltd', {
      taxId: '29ABCDE1234F1Z5',
      city: 'Bengaluru',
      zipcode: '560001',
      country: 'IN',
    }),
    buyer: party('Kaveri Stores', {
      taxId: '29PQRSX5678K1Z2',
      city: 'Mysuru',
      zipcode: '570001',
      country: 'IN',
    }),
  });
}

describe('renderDocumentPdf', () => {
  it.skipIf(!hasPoppler)(
    'renders a 3-line EUR invoice as Factur-X PDF/A-3b with extractable text',
    async () => {
      const doc = threeLineInvoice();
      const pdf = await renderDocumentPdf(doc);
      const path = save(pdf);
      const text = textOf(path);
      expect(text).toContain('INV-2025-0042');
      expect(text).toContain('Acme Retail Ltd');
      expect(text).toContain('Coffee beans 1 kg');
      expect(text).toContain(displayMoney(doc.totals.totalMinor, 'EUR'));
      expect(text).toContain('€675.53');
      expect(text).toContain('Page 1 of 1');

      expect(run('pdfinfo', path)).toMatch(/PDF version:\s+1\.7/);
      expect(run('pdfdetach', '-list', path)).toContain('factur-x.xml');
      const xmlPath = join(dir, 'factur-x.xml');
      run('pdfdetach', '-save', '1', '-o', xmlPath, path);
      expect(readFileSync(xmlPath, 'utf8')).toBe(ciiXml(doc));

      // The XMP packet is stored uncompressed, so it can be searched in the bytes.
      const bytes = pdf.toString('latin1');
      expect(bytes).toMatch(/pdfaid:part>3<|pdfaid:part="3"/);
      expect(bytes).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
      expect(bytes).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
      expect(bytes).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
      expect(bytes).toContain('/AFRelationship /Alternative');
      expect(bytes).toContain('/Subtype /text#2Fxml');
    },
  );

  it('renders the same bytes for the same document', async () => {
    const doc = threeLineInvoice();
    const [a, b] = await Promise.all([renderDocumentPdf(doc), renderDocumentPdf(doc)]);
    expect(a.equals(b)).toBe(true);
  });

  it.skipIf(!hasPoppler)('breaks a 120-line INR invoice across pages with the rupee sign', async () => {
    const doc = longInrInvoice();
    const path = save(await renderDocumentPdf(doc));
    const text = textOf(path);
    expect(text).toContain('GST/2025/118');
    expect(text).toContain('Kaveri Stores');
    expect(text).toContain('Cotton kurta, size XL, colour 120');
    expect(text).toContain(displayMoney(doc.totals.totalMinor, 'INR'));
    expect(displayMoney(doc.totals.totalMinor, 'INR')).toMatch(/^₹/);
    expect(text).toMatch(/Page 2 of \d/);
    // The header row is repeated on every page of the table.
    const pages = text.split('\f').filter((page) => page.trim());
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages.slice(0, -1)) expect(page).toMatch(/Item\s+Qty\s+Unit price/);
  });

  it.skipIf(!hasPoppler)('shows no prices on a packing slip and attaches no XML', async () => {
    const doc = { ...threeLineInvoice(), kind: 'packing_slip' as const, number: 'PS-9' };
    const path = save(await renderDocumentPdf(doc));
    const text = textOf(path);
    expect(text).toContain('Packing slip PS-9');
    expect(text).toContain('Espresso machine');
    expect(text).toContain('ESP-100');
    expect(text).not.toMatch(/€|\d+\.\d\d\b|Total|Unit price/);
    expect(run('pdfdetach', '-list', path)).toContain('0 embedded files');
  });

  it.skipIf(!hasPoppler)('renders an offer with a logo and without XML', async () => {
    // A 1×1 white PNG.
    const logo = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC',
      'base64',
    );
    const doc = { ...threeLineInvoice(), kind: 'offer' as const, number: 'OF-3', logo };
    const path = save(await renderDocumentPdf(doc));
    expect(textOf(path)).toContain('Offer OF-3');
    expect(run('pdfdetach', '-list', path)).toContain('0 embedded files');
  });

  it.skipIf(!hasPoppler || !existsSync('/usr/bin/xmllint'))(
    'keeps the XMP well-formed for a credit note whose names contain markup characters',
    async () => {
      const base = threeLineInvoice();
      const doc: BusinessDocument = {
        ...base,
        kind: 'credit_note',
        number: 'CN-1',
        seller: { ...base.seller, name: 'Smith & Sons <Trading>' },
        precedingInvoice: { number: 'INV-2025-0042', issueDate: '2025-03-01' },
      };
      const pdf = await renderDocumentPdf(doc);
      const packet = /<\?xpacket begin[\s\S]*?<\?xpacket end="w"\?>/.exec(pdf.toString('utf8'))?.[0] ?? '';
      execFileSync('/usr/bin/xmllint', ['--noout', '-'], { input: packet });
      const path = save(pdf);
      expect(run('pdfinfo', path)).toMatch(/Title:\s+Credit note CN-1/);
      expect(run('pdfdetach', '-list', path)).toContain('factur-x.xml');
      const text = textOf(path);
      expect(text).toContain('Credit note CN-1');
      expect(text).toMatch(/Corrects invoice\s+INV-2025-0042/);
      expect(text).toMatch(/Dated\s+2025-03-01/);
    },
  );

  it('refuses more than 500 lines', async () => {
    const line = threeLineInvoice().lines[0];
    if (!line) throw new Error('fixture has lines');
    const doc = { ...threeLineInvoice(), lines: Array.from({ length: 501 }, () => line) };
    await expect(renderDocumentPdf(doc)).rejects.toThrow(RangeError);
  });
});
