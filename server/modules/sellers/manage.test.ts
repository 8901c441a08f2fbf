import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import type { SellerDetail } from '../../../contracts/seller-admin';
import type { Seller } from '../../../contracts/sellers';
import { sellers } from '../../db/schema';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { demoSellerId, newSellerBody } from './test-helpers';

const BASE = '/api/v1/sellers';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testBackends)('seller management on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const create = async (overrides: Record<string, unknown> = {}) => {
    const response = await as('Admin', 'POST', `${BASE}/createNewSeller`, newSellerBody(overrides));
    expect(response.statusCode, response.body).toBe(201);
    return json<Seller>(response);
  };
  const history = async (id: string, query = '') =>
    json<AuditPage>(await as('Admin', 'GET', `${BASE}/getUpdateHistory/${id}${query}`));

  describe('createNewSeller', () => {
    it('nextSellerCode tells the code a seller created now without one gets, to creators only', async () => {
      const hint = await as('Admin', 'GET', `${BASE}/nextSellerCode`);
      expect(hint.statusCode).toBe(200);
      const { sellerCode } = json<{ sellerCode: string }>(hint);
      expect(sellerCode).toMatch(/^SEL-\d{4,}$/);
      expect((await create()).sellerCode).toBe(sellerCode);
      // The hint moves on with every seller created.
      const after = json<{ sellerCode: string }>(await as('Admin', 'GET', `${BASE}/nextSellerCode`));
      expect(Number(after.sellerCode.slice(4))).toBe(Number(sellerCode.slice(4)) + 1);
      // Staff may view sellers but not create them; sellers may do neither.
      for (const who of ['Staff', 'Seller'] as const) {
        const refused = await as(who, 'GET', `${BASE}/nextSellerCode`);
        expect(refused.statusCode, who).toBe(403);
        expect(json(refused)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
    });

    it('creates a seller in Pending Verification with a generated, readable code and records it', async () => {
      const address = {
        fullName: 'Meera Rao',
        email: 'meera@example.com',
        addressLine1: '1 MG Road',
        addressLine2: '',
        city: 'Pune',
        state: 'Maharashtra',
        country: 'IN',
        zipcode: '411001',
      };
      const seller = await create({ sellerName: '  Rao Traders  ', address });
      expect(seller).toMatchObject({
        sellerName: 'Rao Traders',
        status: 'Pending Verification',
        isActive: false,
        isEmailVerified: false,
        isKycDone: false,
        isNewSeller: true,
        blocked: false,
        isFree: false,
        logo: null,
        sellerLogos: [],
        address,
        kycRejectionReason: null,
      });
      expect(seller.sellerCode).toMatch(/^SEL-\d{4,}$/);
      const entries = await history(seller.id);
      expect(entries.count).toBe(1);
      expect(entries.result[0]).toMatchObject({
        action: 'created',
        actor: { name: 'Asha Admin' },
        changes: [{ field: 'status', before: null, after: 'Pending Verification' }],
      });
    });

    it('generates the next free code each time', async () => {
      const first = await create();
      const second = await create();
      const number = (code: string) => Number(code.slice(4));
      expect(number(second.sellerCode)).toBe(number(first.sellerCode) + 1);
    });

    it('keeps a given code, upper-cased', async () => {
      const seller = await create({ sellerCode: 'rao-77' });
      expect(seller.sellerCode).toBe('RAO-77');
    });

    it('refuses a duplicate e-mail or code, whatever the case, with 409 and a clear message', async () => {
      const email = await as(
        'Admin',
        'POST',
        `${BASE}/createNewSeller`,
        newSellerBody({ email: 'SELLER@Demo.Local' }),
      );
      expect(email.statusCode).toBe(409);
      expect(json(email)).toEqual({
        message: 'A seller with the e-mail SELLER@Demo.Local already exists.',
        code: 'DUPLICATE_EMAIL',
      });
      const code = await as(
        'Admin',
        'POST',
        `${BASE}/createNewSeller`,
        newSellerBody({ sellerCode: 'sel-0001' }),
      );
      expect(code.statusCode).toBe(409);
      expect(json(code)).toEqual({
        message: 'The seller code SEL-0001 is already taken.',
        code: 'DUPLICATE_SELLER_CODE',
      });
    });

    it('turns a unique-index race into the same 409 (the index is the last word)', async () => {
      const body = newSellerBody();
      const answers = await Promise.all([
        as('Admin', 'POST', `${BASE}/createNewSeller`, body),
        as('Admin', 'POST', `${BASE}/createNewSeller`, body),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
      const rows = await t.database.db.select().from(sellers).where(eq(sellers.email, body.email));
      expect(rows).toHaveLength(1);
    });

    it.each([
      [{ sellerName: 'A' }, 'sellerName'],
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: 'call me' }, 'phone'],
      [{ sellerCode: 'has space' }, 'sellerCode'],
      [{ address: { city: 'Pune' } }, 'address'],
    ])('answers 400 for bad input %j', async (overrides, field) => {
      const response = await as('Admin', 'POST', `${BASE}/createNewSeller`, newSellerBody(overrides));
      expect(response.statusCode).toBe(400);
      expect(json<{ message: string; code: string }>(response)).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(json<{ message: string }>(response).message).toContain(field);
    });

    it('is for admins only: staff and sellers get 403, and nothing is written', async () => {
      const body = newSellerBody();
      for (const who of ['Staff', 'Seller'] as const) {
        const response = await as(who, 'POST', `${BASE}/createNewSeller`, body);
        expect(response.statusCode).toBe(403);
      }
      const rows = await t.database.db.select().from(sellers).where(eq(sellers.email, body.email));
      expect(rows).toHaveLength(0);
    });
  });

  describe('getSellersById', () => {
    it('answers the seller with the user who signs in for it', async () => {
      const id = await demoSellerId(t, 'seller@demo.local');
      const response = await as('Staff', 'GET', `${BASE}/getSellersById/${id}`);
      expect(response.statusCode).toBe(200);
      const seller = json<SellerDetail>(response);
      expect(seller).toMatchObject({ id, sellerCode: 'SEL-0001', status: 'Active' });
      expect(seller.userId).toMatch(/^[0-9a-f-]{36}$/);
      const created = await create();
      expect(
        json<SellerDetail>(await as('Admin', 'GET', `${BASE}/getSellersById/${created.id}`)).userId,
      ).toBe(null);
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const malformed = await as('Admin', 'GET', `${BASE}/getSellersById/abc`);
      expect(malformed.statusCode).toBe(400);
      const unknown = await as('Admin', 'GET', `${BASE}/getSellersById/${UNKNOWN_ID}`);
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toEqual({ message: 'Seller not found', code: 'SELLER_NOT_FOUND' });
    });

    it('is not for sellers, not even their own', async () => {
      const id = await demoSellerId(t, 'seller@demo.local');
      expect((await as('Seller', 'GET', `${BASE}/getSellersById/${id}`)).statusCode).toBe(403);
    });
  });

  describe('updateSeller', () => {
    it('changes only the fields sent and records each field before → after', async () => {
      const seller = await create();
      const response = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, {
        sellerName: 'Renamed Store',
        phone: '+91 11111 22222',
      });
      expect(response.statusCode).toBe(200);
      expect(json<Seller>(response)).toMatchObject({
        sellerName: 'Renamed Store',
        phone: '+91 11111 22222',
        email: seller.email,
        sellerCode: seller.sellerCode,
      });
      const [latest] = (await history(seller.id)).result;
      expect(latest).toMatchObject({
        action: 'updated',
        actor: { name: 'Asha Admin' },
        changes: [
          { field: 'sellerName', before: seller.sellerName, after: 'Renamed Store' },
          { field: 'phone', before: seller.phone, after: '+91 11111 22222' },
        ],
      });
    });

    it('records nothing when nothing changes', async () => {
      const seller = await create();
      const response = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, {
        sellerName: seller.sellerName,
      });
      expect(response.statusCode).toBe(200);
      expect((await history(seller.id)).count).toBe(1);
    });

    it('sets and clears the address', async () => {
      const seller = await create();
      const address = {
        fullName: 'A',
        email: 'a@b.c',
        addressLine1: 'x',
        addressLine2: '',
        city: 'Kochi',
        state: 'Kerala',
        country: 'IN',
        zipcode: '682001',
      };
      const set = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, { address });
      expect(json<Seller>(set).address).toEqual(address);
      const cleared = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, { address: null });
      expect(json<Seller>(cleared).address).toBeNull();
    });

    it('refuses another seller’s e-mail or code (any case) with 409 but allows changing the own case', async () => {
      const seller = await create();
      const email = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, {
        email: 'Seller@Demo.Local',
      });
      expect(email.statusCode).toBe(409);
      expect(json(email)).toMatchObject({ code: 'DUPLICATE_EMAIL' });
      const code = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, {
        sellerCode: 'sel-0002',
      });
      expect(code.statusCode).toBe(409);
      expect(json(code)).toMatchObject({ code: 'DUPLICATE_SELLER_CODE' });
      const own = await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, {
        email: seller.email.toUpperCase(),
      });
      expect(own.statusCode).toBe(200);
    });

    it('answers 400 for an empty body or malformed id, 404 for an unknown seller, 403 for staff', async () => {
      const seller = await create();
      expect((await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, {})).statusCode).toBe(400);
      expect(
        (await as('Admin', 'PUT', `${BASE}/updateSeller/nope`, { phone: '+91 12345 67890' })).statusCode,
      ).toBe(400);
      expect(
        (await as('Admin', 'PUT', `${BASE}/updateSeller/${UNKNOWN_ID}`, { phone: '+91 12345 67890' }))
          .statusCode,
      ).toBe(404);
      expect(
        (await as('Staff', 'PUT', `${BASE}/updateSeller/${seller.id}`, { phone: '+91 12345 67890' }))
          .statusCode,
      ).toBe(403);
    });
  });

  describe('markSellerFree', () => {
    it('marks a blocked seller free, which unblocks them, and records it; taking it back keeps them unblocked', async () => {
      const id = await demoSellerId(t, 'blocked@demo.local');
      const free = await as('Admin', 'PUT', `${BASE}/markSellerFree/${id}`, { isFree: true });
      expect(free.statusCode).toBe(200);
      expect(json<Seller>(free)).toMatchObject({ isFree: true, blocked: false });
      const [entry] = (await history(id)).result;
      expect(entry).toMatchObject({
        action: 'free',
        changes: [
          { field: 'isFree', before: false, after: true },
          { field: 'blocked', before: true, after: false },
        ],
      });
      const again = await as('Admin', 'PUT', `${BASE}/markSellerFree/${id}`, { isFree: true });
      expect(again.statusCode).toBe(200);
      expect((await history(id)).count).toBe(1);
      const paying = await as('Admin', 'PUT', `${BASE}/markSellerFree/${id}`, { isFree: false });
      expect(json<Seller>(paying)).toMatchObject({ isFree: false, blocked: false });
    });

    it('validates its input and its caller', async () => {
      const seller = await create();
      expect(
        (await as('Admin', 'PUT', `${BASE}/markSellerFree/${seller.id}`, { isFree: 'yes' })).statusCode,
      ).toBe(400);
      expect(
        (await as('Admin', 'PUT', `${BASE}/markSellerFree/${UNKNOWN_ID}`, { isFree: true })).statusCode,
      ).toBe(404);
      expect(
        (await as('Staff', 'PUT', `${BASE}/markSellerFree/${seller.id}`, { isFree: true })).statusCode,
      ).toBe(403);
    });
  });

  describe('getFillerProductSellers', () => {
    it('lists active sellers only, matching name or code case-insensitively, within the limit', async () => {
      const all = json<{ result: { id: string; sellerCode: string; sellerName: string }[] }>(
        await as('Staff', 'GET', `${BASE}/getFillerProductSellers?limit=50`),
      ).result;
      expect(all.length).toBeGreaterThan(0);
      expect(Object.keys(all[0] ?? {}).sort()).toEqual(['id', 'sellerCode', 'sellerName']);
      const activeIds = new Set(
        (await t.database.db.select({ id: sellers.id }).from(sellers).where(eq(sellers.isActive, true))).map(
          (r) => r.id,
        ),
      );
      for (const row of all) expect(activeIds.has(row.id)).toBe(true);

      const byName = json<{ result: { sellerName: string }[] }>(
        await as('Admin', 'GET', `${BASE}/getFillerProductSellers?query=DEMO%20seller`),
      ).result;
      expect(byName.map((r) => r.sellerName)).toEqual(['Demo Seller Store']);
      const byCode = json<{ result: { sellerCode: string }[] }>(
        await as('Admin', 'GET', `${BASE}/getFillerProductSellers?query=sel-0001`),
      ).result;
      expect(byCode.map((r) => r.sellerCode)).toEqual(['SEL-0001']);
      // A wildcard typed by the user is a literal character, not "anything".
      const percent = json<{ result: unknown[] }>(
        await as('Admin', 'GET', `${BASE}/getFillerProductSellers?query=%25`),
      );
      expect(percent.result).toEqual([]);
      const limited = json<{ result: unknown[] }>(
        await as('Admin', 'GET', `${BASE}/getFillerProductSellers?limit=2`),
      );
      expect(limited.result).toHaveLength(2);
    });

    it('answers 400 above 50 and 403 to sellers', async () => {
      expect((await as('Admin', 'GET', `${BASE}/getFillerProductSellers?limit=51`)).statusCode).toBe(400);
      expect((await as('Seller', 'GET', `${BASE}/getFillerProductSellers`)).statusCode).toBe(403);
    });
  });

  describe('getUpdateHistory', () => {
    it('pages newest first with the total count', async () => {
      const seller = await create();
      for (const phone of ['+91 10000 00001', '+91 10000 00002', '+91 10000 00003']) {
        await as('Admin', 'PUT', `${BASE}/updateSeller/${seller.id}`, { phone });
      }
      const page = await history(seller.id, '?skip=1&limit=2');
      expect(page.count).toBe(4);
      expect(page.result).toHaveLength(2);
      expect(page.result.map((e) => e.changes[0]?.after)).toEqual(['+91 10000 00002', '+91 10000 00001']);
      const ats = (await history(seller.id)).result.map((e) => e.at);
      expect([...ats].sort().reverse()).toEqual(ats);
    });

    it('names the system as actor for changes nobody made', async () => {
      const seller = await create();
      await recordAudit(t.database.db, {
        subject: { type: 'seller', id: seller.id },
        actor: SYSTEM_ACTOR,
        action: 'subscription',
        note: 'Expired',
      });
      const [latest] = (await history(seller.id)).result;
      expect(latest).toMatchObject({
        actor: { id: null, name: 'System' },
        action: 'subscription',
        note: 'Expired',
      });
    });

    it('answers 400, 404 and 403 as it should', async () => {
      expect((await as('Admin', 'GET', `${BASE}/getUpdateHistory/x`)).statusCode).toBe(400);
      expect((await as('Admin', 'GET', `${BASE}/getUpdateHistory/${UNKNOWN_ID}`)).statusCode).toBe(404);
      const id = await demoSellerId(t, 'seller@demo.local');
      expect((await as('Admin', 'GET', `${BASE}/getUpdateHistory/${id}?limit=500`)).statusCode).toBe(400);
      expect((await as('Seller', 'GET', `${BASE}/getUpdateHistory/${id}`)).statusCode).toBe(403);
    });
  });
});
