// Company and shipping settings on both databases: the logo upload (checked by content, size and
// scope), the rules a save must pass (Rule 46 under the India preset, tax ids, rates and bands), and
// their effects: the next invoice numbers and the shipping quote other modules read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDocumentNumberPreview } from '../../../contracts/domain/document-numbering';
import type { ShippingZone } from '../../../contracts/domain/shipping-rates';
import type { SectionState } from '../../../contracts/settings';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { demoSellerId, multipart, newSellerBody, sampleFile } from '../sellers/test-helpers';
import { quoteFor } from './shipping-quote';

const BASE = '/api/v1/settings';
const MB = 1024 * 1024;

const zone = (id: string, countries: string[], bands: ShippingZone['bands']): ShippingZone => ({
  id,
  name: id,
  countries,
  currency: 'INR',
  bands,
});

describe.each(testBackends)('company and shipping settings on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let ownSellerId: string;
  let otherSellerId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
    ownSellerId = await demoSellerId(t, 'seller@demo.local');
    otherSellerId = json<{ id: string }>(
      await as('Admin', 'POST', '/api/v1/sellers/createNewSeller', newSellerBody()),
    ).id;
  });
  afterAll(() => t.close());

  const read = async (who: 'Admin' | 'Seller', section: string, query = '') =>
    json<SectionState>(await as(who, 'GET', `${BASE}/${section}${query}`));
  /** Saves on top of the current version. */
  const save = async (
    who: 'Admin' | 'Seller',
    section: string,
    set: Record<string, unknown>,
    reset: string[] = [],
    query = '',
  ) => {
    const { version } = await read(who, section, query);
    return as(who, 'PUT', `${BASE}/${section}${query}`, { version, set, reset });
  };

  describe('the company logo', () => {
    const uploadLogo = (who: 'Admin' | 'Seller' | 'Staff', file: Buffer, type: string, query = '') => {
      const body = multipart([{ filename: 'logo', type, content: file }]);
      return as(who, 'POST', `${BASE}/company/logo${query}`, body.payload, body.headers);
    };

    it('stores a PNG, answers its public path, and the section saves it', async () => {
      const response = await uploadLogo('Seller', sampleFile.png(4096), 'image/png');
      expect(response.statusCode, response.body).toBe(201);
      const { path } = json<{ path: string }>(response);
      expect(path).toMatch(/^\/files\/logos\/[0-9a-f-]{36}\.png$/);
      const served = await t.app.inject({ method: 'GET', url: path });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');

      const saved = await save('Seller', 'company', { logo: path });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(json<SectionState>(saved).fields.logo).toMatchObject({ value: path, source: 'overridden' });
    });

    it('refuses an SVG with a script (415) and a 30 MB image (413)', async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      );
      const refused = await uploadLogo('Seller', svg, 'image/png');
      expect(refused.statusCode).toBe(415);
      expect(json(refused).message).toBe('Only PNG, JPEG or WebP files are accepted.');

      const huge = await uploadLogo('Admin', sampleFile.png(30 * MB), 'image/png');
      expect(huge.statusCode).toBe(413);
      expect(json(huge).message).toBe('The file is larger than 2 MB.');
    });

    it("refuses another seller's scope and a path that was not uploaded", async () => {
      const other = await uploadLogo('Seller', sampleFile.png(), 'image/png', `?sellerId=${otherSellerId}`);
      expect(other.statusCode).toBe(403);
      const typed = await save('Seller', 'company', { logo: 'https://evil.example/logo.png' });
      expect(typed.statusCode).toBe(400);
      expect(json(typed).message).toBe('Upload the logo: it must be a file uploaded here.');
    });

    it("lets an admin upload a seller's logo, not staff", async () => {
      const admin = await uploadLogo('Admin', sampleFile.webp(), 'image/webp', `?sellerId=${otherSellerId}`);
      expect(admin.statusCode, admin.body).toBe(201);
      const staff = await uploadLogo('Staff', sampleFile.png(), 'image/png');
      expect(staff.statusCode).toBe(403);
    });
  });

  describe('invoice series and tax id', () => {
    it('previews the next numbers from the saved series', async () => {
      const saved = await save('Admin', 'company', {
        seriesPreset: 'eu',
        invoiceSeries: 'INV-{YYYY}-{seq:06}',
        fiscalYearStartMonth: 1,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const now = new Date('2026-11-28T10:00:00Z');
      expect(nextDocumentNumberPreview(await t.app.settings.effective(null), now).invoice).toBe(
        'INV-2026-000001',
      );

      const india = await save('Admin', 'company', {
        seriesPreset: 'india',
        invoiceSeries: 'INV/{FY2}/{seq:05}',
        fiscalYearStartMonth: 4,
      });
      expect(india.statusCode, india.body).toBe(200);
      expect(nextDocumentNumberPreview(await t.app.settings.effective(null), now).invoice).toBe(
        'INV/26-27/00001',
      );
    });

    it('refuses a series that breaks Rule 46 under the India preset, with the rule', async () => {
      const response = await save('Admin', 'company', {
        seriesPreset: 'india',
        invoiceSeries: 'INVOICE-{YYYY}-{seq:06}',
      });
      expect(response.statusCode).toBe(400);
      expect(json(response).message).toMatch(/Indian invoice numbers may have at most 16 characters/);
    });

    it('refuses a malformed GSTIN and takes a well-formed one', async () => {
      const address = {
        ...((await read('Seller', 'company')).fields.address?.value as object),
        country: 'IN',
      };
      const bad = await save('Seller', 'company', { address, taxId: '27AAPFU0939F1ZX' });
      expect(bad.statusCode).toBe(400);
      expect(json(bad).message).toMatch(/GSTIN has a typing error/);
      const good = await save('Seller', 'company', { address, taxId: '27AAPFU0939F1ZV' });
      expect(good.statusCode, good.body).toBe(200);
    });

    it('hides the marketplace-only tax options from a seller, and refuses their write', async () => {
      expect((await read('Seller', 'company')).fields).not.toHaveProperty('taxOptions');
      expect((await read('Admin', 'company')).fields.taxOptions?.editable).toBe(true);
      const response = await save('Seller', 'company', { taxOptions: [] });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('shipping', () => {
    it('refuses a negative rate, overlapping bands and a country in two zones', async () => {
      const negative = await save('Admin', 'shipping', {
        zones: [zone('in', ['IN'], [{ fromKg: 0, toKg: null, rateMinor: -100 }])],
      });
      expect(negative.statusCode).toBe(400);
      expect(json(negative).message).toMatch(/A rate may not be negative/);

      const overlapping = await save('Admin', 'shipping', {
        zones: [
          zone(
            'in',
            ['IN'],
            [
              { fromKg: 0, toKg: 5, rateMinor: 100 },
              { fromKg: 4, toKg: 10, rateMinor: 200 },
            ],
          ),
        ],
      });
      expect(overlapping.statusCode).toBe(400);
      expect(json(overlapping).message).toMatch(/0–5 kg overlaps 4–10 kg/);

      const twice = await save('Admin', 'shipping', {
        zones: [
          zone('a', ['IN', 'NP'], [{ fromKg: 0, toKg: null, rateMinor: 100 }]),
          zone('b', ['NP'], [{ fromKg: 0, toKg: null, rateMinor: 100 }]),
        ],
      });
      expect(twice.statusCode).toBe(400);
      expect(json(twice).message).toMatch(/NP is in two zones/);
    });

    it("quotes by chargeable weight; a seller's override wins; a reset inherits again", async () => {
      const marketplace = await save('Admin', 'shipping', {
        divisor: 5000,
        zones: [
          zone(
            'india',
            ['IN'],
            [
              { fromKg: 0, toKg: 5, rateMinor: 10000 },
              { fromKg: 5, toKg: null, rateMinor: 25000 },
            ],
          ),
        ],
      });
      expect(marketplace.statusCode, marketplace.body).toBe(200);
      // 40 × 30 × 30 cm / 5000 = 7.2 kg volumetric: heavier than the 2 kg it weighs.
      const parcel = {
        country: 'IN',
        actualKg: 2,
        dimensions: { length: 40, width: 30, height: 30, unit: 'cm' as const },
      };
      expect(await quoteFor(t.app, ownSellerId, parcel)).toMatchObject({
        ok: true,
        volumetricKg: 7.2,
        chargeableKg: 7.2,
        rateMinor: 25000,
        scope: 'marketplace',
      });

      const override = await save('Seller', 'shipping', {
        divisor: 6000,
        zones: [zone('own', ['IN'], [{ fromKg: 0, toKg: null, rateMinor: 9900 }])],
      });
      expect(override.statusCode, override.body).toBe(200);
      expect(json<SectionState>(override).fields.zones?.source).toBe('overridden');
      expect(await quoteFor(t.app, ownSellerId, parcel)).toMatchObject({
        ok: true,
        chargeableKg: 6,
        rateMinor: 9900,
        scope: 'seller',
      });
      // The marketplace and the other sellers keep the marketplace's rate.
      expect(await quoteFor(t.app, otherSellerId, parcel)).toMatchObject({ rateMinor: 25000 });

      const reset = await save('Seller', 'shipping', {}, ['zones', 'divisor']);
      expect(reset.statusCode, reset.body).toBe(200);
      expect(json<SectionState>(reset).fields.zones?.source).toBe('marketplace');
      expect(await quoteFor(t.app, ownSellerId, parcel)).toMatchObject({
        chargeableKg: 7.2,
        rateMinor: 25000,
        scope: 'marketplace',
      });
    });
  });
});
