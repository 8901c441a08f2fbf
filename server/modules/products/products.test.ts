// Staging products API (issue 14) on PGlite and PostgreSQL: every route, role and bad input.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import type { Product, ProductList } from '../../../contracts/catalog';
import type { QueryNode, QueryTree } from '../../../contracts/query-tree';
import {
  attributeOptions,
  attributes,
  auditEntries,
  categories,
  categoryAttributes,
  sellers,
} from '../../db/schema';
import { recordAudit, recordAuditEntries } from '../../lib/audit';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';

const API = '/api/v1/stagingProducts';

describe.each(testBackends)('staging products API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let categoryId: string;
  let subcategoryId: string;
  const ids: Record<string, number> = {};
  let red: number;
  let blue: number;
  let demoSellerId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.database.db;
    const [parent] = await db.insert(categories).values({ name: 'Phones', slug: 'phones-test' }).returning();
    const [child] = await db
      .insert(categories)
      .values({ name: 'Smart', slug: 'smart-test', parentId: parent!.id })
      .returning();
    categoryId = parent!.id;
    subcategoryId = child!.id;
    const defs = [
      { code: 't_colour', label: 'Colour', dataType: 'ENUMERATED', isRequired: true },
      { code: 't_screen', label: 'Screen size', dataType: 'FLOAT', unit: 'in', isRequired: true },
      { code: 't_ports', label: 'Ports', dataType: 'NUMBER' },
      { code: 't_notes', label: 'Notes', dataType: 'WYSIWYG' },
      { code: 't_launch', label: 'Launch', dataType: 'DATETIME' },
      { code: 't_specs', label: 'Specs', dataType: 'OBJECT' },
      { code: 't_5g', label: '5G', dataType: 'BOOLEAN' },
      { code: 't_tags', label: 'Keywords', dataType: 'STRING', attributeType: 'MULTI' },
    ] as const;
    for (const def of defs) {
      const [row] = await db.insert(attributes).values(def).returning();
      ids[def.code] = row!.id;
    }
    const options = await db
      .insert(attributeOptions)
      .values([
        { attributeId: ids.t_colour!, value: 'Red' },
        { attributeId: ids.t_colour!, value: 'Blue' },
      ])
      .returning();
    red = options[0]!.id;
    blue = options[1]!.id;
    // The parent holds the set; the subcategory inherits it.
    await db
      .insert(categoryAttributes)
      .values(Object.values(ids).map((attributeId) => ({ categoryId, attributeId })));
    const [seller] = await db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.email, demoEmails.Seller));
    demoSellerId = seller!.id;
  });
  afterAll(() => t.close());

  const full = (sku: string, extra: Record<string, unknown> = {}) => ({
    title: `Phone ${sku}`,
    sku,
    categoryId: subcategoryId,
    price: 499.99,
    currency: 'INR',
    inventory: 7,
    dimensions: { length: 15, width: 7, height: 1, unit: 'cm' },
    attributeValues: [
      { keyId: ids.t_colour, valueId: red },
      { keyId: ids.t_screen, value: 6.1 },
      { keyId: ids.t_ports, value: 2 },
      { keyId: ids.t_notes, value: '<p>Nice <script>alert(1)</script><b>phone</b></p>' },
      { keyId: ids.t_launch, value: '2026-01-31T10:00:00Z' },
      { keyId: ids.t_specs, value: { ram: '8 GB' } },
      { keyId: ids.t_5g, value: true },
      { keyId: ids.t_tags, values: [{ value: 'android' }, { value: 'dual sim' }] },
    ],
    ...extra,
  });
  const create = (who: 'Seller' | 'Admin' | 'Staff' | 'Blocked', body: Record<string, unknown>) =>
    as(who, 'POST', `${API}/`, body);
  const search = (who: 'Seller' | 'Admin' | 'Staff', body: Record<string, unknown>) =>
    as(who, 'POST', `${API}/method/search`, body);

  it('lets a seller add a product with every data type, checked and sanitised, and records it', async () => {
    const response = await create('Seller', full('API-1'));
    expect(response.statusCode, response.body).toBe(201);
    const product = json<Product>(response);
    expect(product).toMatchObject({
      status: 'draft',
      sellerId: demoSellerId,
      categoryName: 'Smart',
      price: 499.99,
      completeness: 100,
      missingAttributes: [],
      volumetricWeight: 0.021,
      version: 1,
    });
    const notes = product.attributeValues.find((value) => value.keyId === ids.t_notes);
    expect(notes).toEqual({ keyId: ids.t_notes, value: '<p>Nice <b>phone</b></p>' });
    expect(product.attributeValues.find((value) => value.keyId === ids.t_colour)).toEqual({
      keyId: ids.t_colour,
      value: 'Red',
      valueId: red,
    });
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history`));
    expect(history.result.map((entry) => entry.action)).toEqual(['created']);
  });

  it.each([
    ['a wrong type', { keyId: 't_ports', value: 'two' }, 'Ports must be a whole number.'],
    [
      'an option that does not exist',
      { keyId: 't_colour', valueId: 999_999 },
      'Colour has no option "999999".',
    ],
    [
      'a date that is not ISO 8601',
      { keyId: 't_launch', value: '31/01/2026' },
      'Launch must be a date and time in ISO 8601 (e.g. 2026-01-31T09:30:00Z).',
    ],
    [
      'an OBJECT too large',
      { keyId: 't_specs', value: { blob: 'x'.repeat(9000) } },
      'Specs is larger than 8 KB of JSON.',
    ],
  ])('refuses %s with the field it concerns, and writes nothing', async (_, bad, message) => {
    const value = { ...bad, keyId: ids[bad.keyId as string] };
    const response = await create('Seller', full('API-BAD', { attributeValues: [value] }));
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      message,
      code: 'INVALID_ATTRIBUTE_VALUE',
      fields: { [`attributeValues.${value.keyId}`]: message },
    });
    const list = json<ProductList>(await search('Seller', { search: 'API-BAD' }));
    expect(list.count).toBe(0);
  });

  it('refuses a second product with the same SKU for the same seller, on the sku field', async () => {
    await create('Seller', full('API-DUP'));
    const again = await create('Seller', full('api-dup'));
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({
      code: 'DUPLICATE_SKU',
      fields: { sku: 'You already have a product with SKU api-dup.' },
    });
    // Another seller may use it.
    expect(
      (await create('Admin', { ...full('API-DUP'), sellerId: await blockedSellerId() })).statusCode,
    ).toBe(201);
  });

  async function blockedSellerId() {
    const [seller] = await t.database.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.email, demoEmails.Blocked));
    return seller!.id;
  }

  it("keeps a seller to their own products: another seller's answers 404 on every route", async () => {
    const other = json<Product>(
      await create('Admin', { ...full('OTHER-1'), sellerId: await blockedSellerId() }),
    );
    for (const [method, url, body] of [
      ['GET', `${API}/${other.id}`, undefined],
      ['GET', `${API}/${other.id}/history`, undefined],
      ['PATCH', `${API}/${other.id}`, { version: 1, title: 'Mine now' }],
      ['POST', `${API}/${other.id}/status`, { status: 'in_review' }],
    ] as const) {
      const response = await as('Seller', method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(json(response)).toMatchObject({ code: 'PRODUCT_NOT_FOUND' });
    }
    const mine = json<ProductList>(await search('Seller', { limit: 200 }));
    expect(mine.result.every((row) => row.sellerId === demoSellerId)).toBe(true);
    // A seller cannot create for someone else either: the product is theirs whatever they send.
    const attempt = json<Product>(await create('Seller', { ...full('SNEAKY-1'), sellerId: other.sellerId }));
    expect(attempt.sellerId).toBe(demoSellerId);
    // Staff and admins see everyone's.
    expect(json<ProductList>(await search('Staff', { search: 'OTHER-1' })).count).toBe(1);
    // Staff must say whose product it is.
    const orphan = await create('Staff', full('STAFF-1'));
    expect(orphan.statusCode).toBe(400);
    expect(json(orphan)).toMatchObject({ code: 'SELLER_REQUIRED' });
  });

  it('refuses a stale edit with a message naming who changed it, and records field changes', async () => {
    const product = json<Product>(await create('Seller', full('API-EDIT')));
    const edited = await as('Admin', 'PATCH', `${API}/${product.id}`, {
      version: 1,
      price: 450,
      attributeValues: [
        ...full('x').attributeValues.filter((v) => v.keyId !== ids.t_colour),
        { keyId: ids.t_colour, valueId: blue },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json<Product>(edited)).toMatchObject({ price: 450, version: 2 });
    const stale = await as('Seller', 'PATCH', `${API}/${product.id}`, { version: 1, price: 1 });
    expect(stale.statusCode).toBe(409);
    expect(json<{ message: string }>(stale).message).toBe(
      'Ada Admin changed this product after you opened it. Reload it to see their changes, then edit again.'.replace(
        'Ada Admin',
        json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history`)).result[0]!.actor.name,
      ),
    );
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history`));
    expect(history.result[0]).toMatchObject({
      action: 'updated',
      changes: [
        { field: 'price', before: 499.99, after: 450 },
        { field: 'Colour', before: 'Red', after: 'Blue' },
      ],
    });
  });

  it('changes only the fields an edit sends', async () => {
    const product = json<Product>(await create('Seller', full('API-PART')));
    const edited = json<Product>(
      await as('Seller', 'PATCH', `${API}/${product.id}`, { version: 1, inventory: 3 }),
    );
    expect(edited).toMatchObject({
      inventory: 3,
      version: 2,
      currency: 'INR',
      dimensions: product.dimensions,
    });
    expect(edited.attributeValues).toEqual(product.attributeValues);
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history`));
    expect(history.result[0]?.changes).toEqual([{ field: 'inventory', before: 7, after: 3 }]);
  });

  it('records and lists no change for a field sent back as it was (dimensions in another key order)', async () => {
    const product = json<Product>(await create('Seller', full('API-SAME')));
    const edited = await as('Seller', 'PATCH', `${API}/${product.id}`, {
      version: 1,
      inventory: 4,
      // The form sends the stored dimensions in its own key order: the same value.
      dimensions: { unit: 'cm', height: 1, width: 7, length: 15 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [stored] = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectType, 'product'), eq(auditEntries.subjectId, product.id)))
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.seq));
    expect(stored?.changes).toEqual([{ field: 'inventory', before: 7, after: 4 }]);
    // Entries stored before the fix still carry such non-changes: the history leaves them out.
    const old = {
      subject: { type: 'product', id: product.id },
      actor: { id: null, name: 'Old import' },
    } as const;
    await recordAuditEntries(t.database.db, [
      {
        ...old,
        action: 'updated',
        changes: [
          {
            field: 'dimensions',
            before: { length: 15, width: 7, height: 1, unit: 'cm' },
            after: { unit: 'cm', height: 1.0, width: 7, length: 15 },
          },
          { field: 'price', before: 159.99, after: 149.99 },
        ],
        at: new Date(Date.now() + 1000),
      },
      {
        ...old,
        action: 'updated',
        changes: [{ field: 'weight', before: 0.2, after: 0.2 }],
        at: new Date(Date.now() + 2000),
      },
    ]);
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history`));
    expect(history.count).toBe(3);
    expect(history.result.map((entry) => entry.changes)).toEqual([
      [{ field: 'price', before: 159.99, after: 149.99 }],
      [{ field: 'inventory', before: 7, after: 4 }],
      [],
    ]);
  });

  it('lists history entries with the same timestamp in the order they were written', async () => {
    const product = json<Product>(await create('Seller', full('API-HIST-SEQ')));
    // One transaction: now() is its start, so every entry shares the timestamp.
    const notes = Array.from({ length: 8 }, (_, index) => `Step ${index + 1}.`);
    const at = new Date(Date.now() + 5000);
    await t.database.db.transaction(async (tx) => {
      for (const note of notes) {
        await recordAudit(tx, {
          subject: { type: 'product', id: product.id },
          actor: { id: null, name: 'Job' },
          action: 'updated',
          note,
          at,
        });
      }
    });
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history?skip=0&limit=8`));
    expect(history.result.map((entry) => entry.note)).toEqual([...notes].reverse());
    const second = json<AuditPage>(await as('Seller', 'GET', `${API}/${product.id}/history?skip=3&limit=2`));
    expect(second.result.map((entry) => entry.note)).toEqual(['Step 5.', 'Step 4.']);
  });

  it('moves through the lifecycle only as the rules allow', async () => {
    const incomplete = json<Product>(
      await create('Seller', full('API-LIFE', { attributeValues: [{ keyId: ids.t_colour, valueId: red }] })),
    );
    expect(incomplete).toMatchObject({
      completeness: 50,
      missingAttributes: [{ code: 't_screen', label: 'Screen size' }],
    });
    const status = (who: 'Seller' | 'Staff', body: Record<string, unknown>) =>
      as(who, 'POST', `${API}/${incomplete.id}/status`, body);
    expect(json(await status('Seller', { status: 'in_review' }))).toMatchObject({
      code: 'INCOMPLETE_PRODUCT',
    });
    await as('Seller', 'PATCH', `${API}/${incomplete.id}`, {
      version: 1,
      attributeValues: [
        { keyId: ids.t_colour, valueId: red },
        { keyId: ids.t_screen, value: 6.7 },
      ],
    });
    expect((await status('Seller', { status: 'in_review' })).statusCode).toBe(200);
    const approve = await status('Seller', { status: 'approved' });
    expect(approve.statusCode).toBe(409);
    expect(json(approve)).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'A product that is In review cannot become Approved by its seller.',
    });
    expect(json(await status('Staff', { status: 'rejected' }))).toMatchObject({ code: 'REASON_REQUIRED' });
    const rejected = json<Product>(await status('Staff', { status: 'rejected', reason: 'Blurry photos' }));
    expect(rejected).toMatchObject({ status: 'rejected', statusReason: 'Blurry photos' });
    expect(json<Product>(await status('Seller', { status: 'draft' }))).toMatchObject({
      status: 'draft',
      statusReason: null,
    });
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${incomplete.id}/history`));
    expect(
      history.result.filter((entry) => entry.action === 'status').map((entry) => entry.changes[0]?.after),
    ).toEqual(['draft', 'rejected', 'in_review']);
  });

  describe('search', () => {
    const cond = (field: string, op: string, value?: unknown) =>
      ({ field, op, ...(value === undefined ? {} : { value }) }) as QueryNode;
    const tree = (...children: QueryNode[]): QueryTree => ({ combinator: 'and', children });

    it('finds products by a nested query mixing an enumerated and a numeric attribute, ANDed with a status', async () => {
      const blueBig = json<Product>(
        await create(
          'Seller',
          full('Q-BLUE', {
            attributeValues: [
              { keyId: ids.t_colour, valueId: blue },
              { keyId: ids.t_screen, value: 6.9 },
            ],
          }),
        ),
      );
      await create(
        'Seller',
        full('Q-REDSMALL', {
          attributeValues: [
            { keyId: ids.t_colour, valueId: red },
            { keyId: ids.t_screen, value: 5.4 },
          ],
        }),
      );
      const query = tree(cond('status', 'anyOf', ['draft']), {
        combinator: 'or',
        children: [cond('attr.t_colour', 'anyOf', [blue]), cond('attr.t_screen', 'gte', 6.8)],
      } as QueryNode);
      const found = json<ProductList>(await search('Seller', { query, search: 'Q-' }));
      expect(found).toMatchObject({ count: 1, countExact: true });
      expect(found.result.map((row) => row.id)).toEqual([blueBig.id]);
      // Category means the whole branch: the parent finds products of its subcategory.
      const byCategory = json<ProductList>(
        await search('Admin', { query: tree(cond('category', 'anyOf', [categoryId])), search: 'Q-' }),
      );
      expect(byCategory.count).toBe(2);
      // Attribute columns carry only what was asked.
      const withColumns = json<ProductList>(
        await search('Seller', { search: 'Q-BLUE', attributeColumns: ['t_colour'] }),
      );
      expect(withColumns.result[0]?.attributes).toEqual({ t_colour: 'Blue' });
    });

    it.each([
      [
        'deeper than 5 levels',
        tree(tree(tree(tree(tree(tree(cond('title', 'isEmpty'))))))),
        /at most 5 levels deep/,
      ],
      [
        'with more than 50 conditions',
        tree(
          tree(...Array.from({ length: 26 }, () => cond('title', 'isEmpty'))),
          tree(...Array.from({ length: 25 }, () => cond('title', 'isEmpty'))),
        ),
        /at most 50 conditions/,
      ],
      [
        'on an attribute that does not exist',
        tree(cond('attr.nope', 'isEmpty')),
        /There is no field "attr.nope"/,
      ],
      [
        'with an option that does not exist',
        tree(cond('attr.t_colour', 'anyOf', [123_456_789])),
        /Colour has no option "123456789"/,
      ],
      [
        'with an operator its type does not have',
        tree(cond('attr.t_screen', 'contains', 'x')),
        /Screen size cannot be filtered with "contains"/,
      ],
      ['with SQL in a field name', tree(cond('title; DROP TABLE products', 'isEmpty')), /no field/],
    ])('refuses a query %s with 400 and a sentence', async (_, query, message) => {
      const response = await search('Admin', { query });
      expect(response.statusCode).toBe(400);
      expect(json<{ message: string }>(response).message).toMatch(message);
    });

    it('takes search text literally (no wildcards, no SQL) and a malformed id matches nothing', async () => {
      for (const text of ['%', '_', "' OR 1=1 --", '\\']) {
        const response = await search('Admin', { search: text });
        expect(response.statusCode).toBe(200);
        expect(json<ProductList>(response).count).toBe(0);
      }
      const response = await search('Admin', { query: tree(cond('seller', 'anyOf', ['not-a-uuid'])) });
      expect(json<ProductList>(response).count).toBe(0);
    });
  });

  it('refuses users without the permission', async () => {
    expect((await as('Blocked', 'POST', `${API}/method/search`, {})).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: `${API}/method/search`, payload: {} })).statusCode,
    ).toBe(401);
  });
});
