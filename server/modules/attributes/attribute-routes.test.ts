// Attributes admin API (issue 14) on PGlite and PostgreSQL: every route, every role, bad input, what may
// change once products hold values, and completeness recomputed when required attributes change.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AttributeDetail,
  AttributeSummaryList,
  CategoryAttributeSet,
  SetCategoryList,
} from '../../../contracts/attribute-admin';
import type { Attribute, Product } from '../../../contracts/catalog';
import { categories, products, savedViews } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { categoryAttributeSet } from './attribute-defs';
import { type AttributeDef, completenessOf } from './attribute-values';

const API = '/api/v1/attributes';
const PRODUCTS = '/api/v1/stagingProducts';

describe.each(testBackends)('attributes admin API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let parentId: string;
  let childId: string;
  let otherId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.database.db;
    const [parent] = await db
      .insert(categories)
      .values({ name: 'Attr Phones', slug: 'attr-phones' })
      .returning();
    const [child] = await db
      .insert(categories)
      .values({ name: 'Attr Smart', slug: 'attr-smart', parentId: parent!.id })
      .returning();
    const [other] = await db
      .insert(categories)
      .values({ name: 'Attr Lamps', slug: 'attr-lamps' })
      .returning();
    parentId = parent!.id;
    childId = child!.id;
    otherId = other!.id;
  });
  afterAll(() => t.close());

  /** Runs the completeness recomputes a change queued (completeness-job.test.ts tests the job itself). */
  const recomputed = async <T>(response: T): Promise<T> => {
    while (await t.app.jobs.worker.runOnce()) {}
    return response;
  };
  const create = async (body: Record<string, unknown>) => {
    const response = await recomputed(await as('Admin', 'POST', `${API}/`, body));
    expect(response.statusCode, response.body).toBe(201);
    return json<AttributeDetail>(response);
  };
  const detail = async (id: number) => json<AttributeDetail>(await as('Admin', 'GET', `${API}/${id}`));
  const patch = async (id: number, body: Record<string, unknown>) =>
    recomputed(await as('Admin', 'PATCH', `${API}/${id}`, body));
  const putSet = async (categoryId: string, attributeIds: number[]) =>
    recomputed(await as('Admin', 'PUT', `${API}/categories/${categoryId}`, { attributeIds }));
  const product = async (id: string) => json<Product>(await as('Admin', 'GET', `${PRODUCTS}/${id}`));
  const addProduct = async (sku: string, categoryId: string, attributeValues: unknown[]) => {
    const response = await as('Seller', 'POST', `${PRODUCTS}/`, {
      title: `Thing ${sku}`,
      sku,
      categoryId,
      price: 10,
      inventory: 1,
      attributeValues,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<Product>(response);
  };

  /** Every product's stored figures equal what completenessOf says for its category's set today. */
  async function expectCompletenessInStep() {
    const db = t.database.db;
    const rows = await db.select().from(products);
    const sets = new Map<string, Map<number, AttributeDef>>();
    for (const row of rows) {
      if (!row.categoryId) continue;
      const set = sets.get(row.categoryId) ?? (await categoryAttributeSet(db, row.categoryId));
      sets.set(row.categoryId, set);
      const expected = completenessOf(row.attributeValues, set);
      expect({ id: row.id, completeness: row.completeness, missing: row.missingAttributes }).toEqual({
        id: row.id,
        completeness: expected.completeness,
        missing: expected.missingAttributes,
      });
    }
  }

  it('creates an ENUMERATED attribute with options and categories, and lists, searches and filters', async () => {
    const colour = await create({
      code: 'zq_colour',
      label: 'Colour',
      dataType: 'ENUMERATED',
      attributeType: 'MULTI',
      groupName: 'Looks',
      options: ['Red', 'Blue'],
      categoryIds: [otherId],
    });
    expect(colour).toMatchObject({
      code: 'zq_colour',
      label: 'Colour',
      dataType: 'ENUMERATED',
      attributeType: 'MULTI',
      isRequired: false,
      unit: null,
      groupName: 'Looks',
      optionCount: 2,
      categoryCount: 1,
      productCount: 0,
      savedViewCount: 0,
      categories: [{ id: otherId, name: 'Attr Lamps', parentId: null, parentName: null }],
    });
    expect(colour.options.map((option) => [option.value, option.productCount])).toEqual([
      ['Red', 0],
      ['Blue', 0],
    ]);
    await create({ code: 'zq_watts', label: 'Zq Power', dataType: 'NUMBER', unit: 'W', groupName: 'Tech' });

    const list = json<AttributeSummaryList>(await as('Staff', 'GET', `${API}/?query=ZQ_&limit=100`));
    expect(list.count).toBe(2);
    expect(list.result.map((row) => row.code)).toEqual(['zq_colour', 'zq_watts']);
    expect(list.result[0]).toMatchObject({ optionCount: 2, categoryCount: 1 });

    const byLabel = json<AttributeSummaryList>(await as('Seller', 'GET', `${API}/?query=zq%20powe`));
    expect(byLabel.result.map((row) => row.code)).toEqual(['zq_watts']);
    const numbers = json<AttributeSummaryList>(await as('Admin', 'GET', `${API}/?dataType=NUMBER&query=zq_`));
    expect(numbers.result.map((row) => row.code)).toEqual(['zq_watts']);
    const looks = json<AttributeSummaryList>(await as('Admin', 'GET', `${API}/?groupName=Looks`));
    expect(looks.result.map((row) => row.code)).toEqual(['zq_colour']);
    // A search is literal: `_` is no wildcard.
    const literal = json<AttributeSummaryList>(await as('Admin', 'GET', `${API}/?query=zq%25`));
    expect(literal.count).toBe(0);
    const paged = json<AttributeSummaryList>(await as('Admin', 'GET', `${API}/?query=zq_&limit=1&skip=1`));
    expect(paged).toMatchObject({ count: 2, result: [{ code: 'zq_watts' }] });

    const groups = json<{ result: string[] }>(await as('Seller', 'GET', `${API}/groups`));
    expect(groups.result).toEqual(expect.arrayContaining(['Looks', 'Tech']));
  });

  it('lets everyone read and only admins write', async () => {
    const attribute = await create({ code: 'zq_roles', label: 'Roles', dataType: 'STRING' });
    for (const who of ['Admin', 'Staff', 'Seller'] as const) {
      for (const url of [
        `${API}/`,
        `${API}/groups`,
        `${API}/${attribute.id}`,
        `${API}/categories`,
        `${API}/categories?parentId=${parentId}`,
        `${API}/categories/${childId}`,
        `${API}/forCategory/${childId}`,
      ]) {
        const response = await as(who, 'GET', url);
        expect(response.statusCode, `${who} GET ${url}: ${response.body}`).toBe(200);
      }
    }
    for (const who of ['Staff', 'Seller'] as const) {
      const writes = [
        await as(who, 'POST', `${API}/`, { code: `zq_${who.toLowerCase()}`, label: 'X', dataType: 'STRING' }),
        await as(who, 'PATCH', `${API}/${attribute.id}`, { label: 'Changed' }),
        await as(who, 'DELETE', `${API}/${attribute.id}`),
        await as(who, 'PUT', `${API}/categories/${otherId}`, { attributeIds: [] }),
      ];
      for (const response of writes) {
        expect(response.statusCode, response.body).toBe(403);
        expect(json(response)).toMatchObject({ code: 'FORBIDDEN' });
        expect(response.body).not.toContain('at ');
      }
    }
    expect((await detail(attribute.id)).label).toBe('Roles');
    const anonymous = await t.app.inject({ method: 'GET', url: `${API}/` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses bad input with a message, and conflicts with 409 on the field', async () => {
    const bad = async (body: Record<string, unknown>, status: number, field?: string) => {
      const response = await as('Admin', 'POST', `${API}/`, body);
      expect(response.statusCode, response.body).toBe(status);
      const answer = json<{ message: string; code: string; fields?: Record<string, string> }>(response);
      expect(answer.message.length).toBeGreaterThan(5);
      expect(response.body).not.toMatch(/\bat .*\.ts:\d+/);
      if (field) expect(answer.fields?.[field], response.body).toBeTruthy();
      return answer;
    };
    await bad({ code: 'Bad Code', label: 'X', dataType: 'STRING' }, 400);
    await bad({ code: '9lives', label: 'X', dataType: 'STRING' }, 400);
    await bad({ code: 'ok_code', label: 'x'.repeat(10 * 1024), dataType: 'STRING' }, 400);
    await bad({ code: 'ok_code', label: 'X', dataType: 'COLOUR' }, 400);
    await bad({ code: 'ok_code', label: 'X', dataType: 'STRING', unit: 'cm' }, 400, 'unit');
    await bad(
      { code: 'ok_code', label: 'X', dataType: 'NUMBER', attributeType: 'MULTI' },
      400,
      'attributeType',
    );
    await bad({ code: 'ok_code', label: 'X', dataType: 'STRING', options: ['A'] }, 400, 'options');
    await bad(
      {
        code: 'ok_code',
        label: 'X',
        dataType: 'STRING',
        categoryIds: ['00000000-0000-4000-8000-000000000000'],
      },
      400,
      'categoryIds',
    );
    // A subcategory inherits from its parent: listing both is a mistake.
    await bad(
      { code: 'ok_code', label: 'X', dataType: 'STRING', categoryIds: [parentId, childId] },
      400,
      'categoryIds',
    );
    const duplicateOption = await bad(
      { code: 'ok_code', label: 'X', dataType: 'ENUMERATED', options: ['Small', 'small'] },
      409,
      'options.1',
    );
    expect(duplicateOption.code).toBe('DUPLICATE_OPTION');
    await create({ code: 'zq_taken', label: 'Taken', dataType: 'STRING' });
    const taken = await bad({ code: 'zq_taken', label: 'Again', dataType: 'BOOLEAN' }, 409, 'code');
    expect(taken).toMatchObject({
      code: 'CODE_TAKEN',
      message: 'Another attribute already has the code “zq_taken”.',
    });
    // Nothing of the refused ones was written.
    expect(json<AttributeSummaryList>(await as('Admin', 'GET', `${API}/?query=ok_code`)).count).toBe(0);

    expect((await as('Admin', 'GET', `${API}/999999`)).statusCode).toBe(404);
    expect((await as('Admin', 'GET', `${API}/abc`)).statusCode).toBe(400);
    expect((await patch(999_999, { label: 'X' })).statusCode).toBe(404);
    expect((await as('Admin', 'DELETE', `${API}/999999`)).statusCode).toBe(404);
    expect((await as('Admin', 'GET', `${API}/categories/not-a-uuid`)).statusCode).toBe(400);
    const unknownCategory = '00000000-0000-4000-8000-000000000001';
    expect((await as('Admin', 'GET', `${API}/categories/${unknownCategory}`)).statusCode).toBe(404);
    expect((await putSet(unknownCategory, [])).statusCode).toBe(404);
    expect((await as('Seller', 'GET', `${API}/forCategory/${unknownCategory}`)).statusCode).toBe(404);
    expect((await as('Admin', 'GET', `${API}/?dataType=COLOUR`)).statusCode).toBe(400);
  });

  it('edits options: add, rename (products follow), reorder; refuses deleting a chosen one and duplicates', async () => {
    const size = await create({
      code: 'zq_size',
      label: 'Size',
      dataType: 'ENUMERATED',
      options: ['S', 'M', 'L'],
      categoryIds: [otherId],
    });
    const [s, m, l] = size.options.map((option) => option.valueId) as [number, number, number];
    const lamp = await addProduct('AD-SIZE-1', otherId, [{ keyId: size.id, valueId: m }]);
    expect((await detail(size.id)).options.map((option) => option.productCount)).toEqual([0, 1, 0]);

    // Reorder, rename M, swap-safe case change of S, add XL.
    const edited = await patch(size.id, {
      options: [
        { valueId: l, value: 'L' },
        { valueId: m, value: 'Medium' },
        { valueId: s, value: 's' },
        { value: 'XL' },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json<AttributeDetail>(edited).options.map((option) => [option.valueId, option.value])).toEqual([
      [l, 'L'],
      [m, 'Medium'],
      [s, 's'],
      [expect.any(Number), 'XL'],
    ]);
    expect((await product(lamp.id)).attributeValues).toEqual([
      { keyId: size.id, value: 'Medium', valueId: m },
    ]);

    const inUse = await patch(size.id, { options: [{ valueId: l, value: 'L' }] });
    expect(inUse.statusCode, inUse.body).toBe(409);
    expect(json(inUse)).toMatchObject({
      code: 'OPTION_IN_USE',
      message: 'Option “Medium” is chosen by 1 product: choose another option on it before deleting it.',
    });
    const duplicate = await patch(size.id, {
      options: [
        { valueId: l, value: 'L' },
        { valueId: m, value: 'l' },
      ],
    });
    expect(duplicate.statusCode).toBe(409);
    expect(json<{ fields: Record<string, string> }>(duplicate).fields['options.1']).toBe(
      '“l” is already an option.',
    );
    const foreign = await patch(size.id, { options: [{ valueId: 999_999, value: 'Z' }] });
    expect(foreign.statusCode).toBe(400);

    // Deleting unused ones (s, XL) is fine; the chosen one stays.
    // A MULTI attribute's stored list follows a rename too, keeping its order.
    const shade = await create({
      code: 'zq_shade',
      label: 'Shade',
      dataType: 'ENUMERATED',
      attributeType: 'MULTI',
      options: ['Warm', 'Cool', 'Daylight'],
      categoryIds: [otherId],
    });
    const [warm, cool, daylight] = shade.options.map((option) => option.valueId) as [number, number, number];
    const bulb = await addProduct('AD-SHADE-1', otherId, [
      { keyId: shade.id, values: [{ valueId: daylight }, { valueId: warm }] },
    ]);
    const renamedShade = await patch(shade.id, {
      options: [
        { valueId: warm, value: 'Warm white' },
        { valueId: cool, value: 'Cool' },
        { valueId: daylight, value: 'Daylight' },
      ],
    });
    expect(renamedShade.statusCode, renamedShade.body).toBe(200);
    expect((await product(bulb.id)).attributeValues).toEqual([
      {
        keyId: shade.id,
        values: [
          { value: 'Daylight', valueId: daylight },
          { value: 'Warm white', valueId: warm },
        ],
      },
    ]);

    const trimmed = await patch(size.id, {
      options: [
        { valueId: m, value: 'Medium' },
        { valueId: l, value: 'Large' },
      ],
    });
    expect(trimmed.statusCode, trimmed.body).toBe(200);
    expect(json<AttributeDetail>(trimmed).options.map((option) => option.value)).toEqual(['Medium', 'Large']);
  });

  it('refuses data type, single/multi and code changes and deletion once a product holds a value', async () => {
    const watts = await create({
      code: 'zq_lamp_watts',
      label: 'Lamp power',
      dataType: 'NUMBER',
      unit: 'W',
      categoryIds: [otherId],
    });
    const lamp = await addProduct('AD-WATTS-1', otherId, [{ keyId: watts.id, value: 40 }]);
    expect((await detail(watts.id)).productCount).toBe(1);

    for (const [body, field] of [
      [{ dataType: 'FLOAT' }, 'dataType'],
      [{ code: 'zq_lamp_power' }, 'code'],
    ] as const) {
      const response = await patch(watts.id, body);
      expect(response.statusCode, response.body).toBe(409);
      expect(json(response)).toMatchObject({
        code: 'ATTRIBUTE_HAS_VALUES',
        message: expect.stringContaining('1 product holds a value for Lamp power'),
        fields: { [field]: expect.any(String) },
      });
    }
    const keywords = await create({
      code: 'zq_lamp_tags',
      label: 'Lamp tags',
      dataType: 'STRING',
      categoryIds: [otherId],
    });
    await as('Seller', 'PATCH', `${PRODUCTS}/${lamp.id}`, {
      version: (await product(lamp.id)).version,
      attributeValues: [
        { keyId: watts.id, value: 40 },
        { keyId: keywords.id, value: 'warm' },
      ],
    });
    const arity = await patch(keywords.id, { attributeType: 'MULTI' });
    expect(arity.statusCode, arity.body).toBe(409);
    expect(json(arity)).toMatchObject({ fields: { attributeType: expect.any(String) } });

    const refused = await as('Admin', 'DELETE', `${API}/${watts.id}`);
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toMatchObject({
      code: 'ATTRIBUTE_IN_USE',
      message: expect.stringMatching(/^1 product holds a value for Lamp power/),
    });
    // What may always change still does.
    const relabelled = await patch(watts.id, { label: 'Wattage', unit: 'kW', groupName: 'Power' });
    expect(relabelled.statusCode, relabelled.body).toBe(200);
    expect(json(relabelled)).toMatchObject({
      label: 'Wattage',
      unit: 'kW',
      groupName: 'Power',
      code: 'zq_lamp_watts',
    });
  });

  it('changes the code and the data type while nothing depends on them, but not a code a saved view names', async () => {
    const fit = await create({
      code: 'zq_fit',
      label: 'Fit',
      dataType: 'ENUMERATED',
      options: ['Slim', 'Loose'],
    });
    const renamed = await patch(fit.id, { code: 'zq_fitting', dataType: 'STRING', options: [] });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json(renamed)).toMatchObject({
      code: 'zq_fitting',
      dataType: 'STRING',
      optionCount: 0,
      options: [],
    });
    const toNumber = await patch(fit.id, { dataType: 'FLOAT', unit: 'cm' });
    expect(json(toNumber)).toMatchObject({ dataType: 'FLOAT', unit: 'cm' });
    // Leaving a number type drops the unit it had.
    expect(json(await patch(fit.id, { dataType: 'BOOLEAN' }))).toMatchObject({
      dataType: 'BOOLEAN',
      unit: null,
    });
    const taken = await patch(fit.id, { code: 'zq_taken' });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toMatchObject({ code: 'CODE_TAKEN', fields: { code: expect.any(String) } });

    await t.database.db.insert(savedViews).values({
      list: 'staging-products',
      ownerId: as.ids.Admin,
      name: 'Fitting view',
      state: {
        query: { combinator: 'and', children: [] },
        search: '',
        columns: ['title', 'attr.zq_fitting'],
        sort: 'updatedAt',
        order: 'desc',
        pageSize: 50,
      },
    });
    expect((await detail(fit.id)).savedViewCount).toBe(1);
    const named = await patch(fit.id, { code: 'zq_fit_again' });
    expect(named.statusCode, named.body).toBe(409);
    expect(json(named)).toMatchObject({
      code: 'ATTRIBUTE_IN_SAVED_VIEWS',
      fields: { code: expect.any(String) },
    });
  });

  it('recomputes completeness when isRequired flips, visible on the product', async () => {
    const material = await create({
      code: 'zq_material',
      label: 'Material',
      dataType: 'STRING',
      categoryIds: [parentId],
    });
    const battery = await create({
      code: 'zq_battery',
      label: 'Battery',
      dataType: 'NUMBER',
      unit: 'mAh',
      categoryIds: [parentId],
    });
    const phone = await addProduct('AD-PHONE-1', childId, [{ keyId: material.id, value: 'Glass' }]);
    expect(phone).toMatchObject({ completeness: 100, missingAttributes: [] });

    expect((await patch(battery.id, { isRequired: true })).statusCode).toBe(200);
    expect(await product(phone.id)).toMatchObject({
      completeness: 0,
      missingAttributes: [{ id: battery.id, code: 'zq_battery', label: 'Battery' }],
      version: phone.version,
    });
    expect((await patch(material.id, { isRequired: true })).statusCode).toBe(200);
    expect(await product(phone.id)).toMatchObject({
      completeness: 50,
      missingAttributes: [{ id: battery.id }],
    });
    // Sending for review needs the figures just computed.
    const send = await as('Seller', 'POST', `${PRODUCTS}/${phone.id}/status`, { status: 'in_review' });
    expect(send.statusCode).toBe(409);

    expect((await patch(battery.id, { isRequired: false })).statusCode).toBe(200);
    expect(await product(phone.id)).toMatchObject({ completeness: 100, missingAttributes: [] });
    await expectCompletenessInStep();
  });

  it('recomputes completeness when an edit moves a required attribute between categories', async () => {
    const plug = await create({ code: 'zq_plug', label: 'Plug', dataType: 'STRING', isRequired: true });
    const lamp = await addProduct('AD-LAMP-PLUG', otherId, []);
    const missing = async () => (await product(lamp.id)).missingAttributes.map((entry) => entry.id);
    expect(await missing()).not.toContain(plug.id);
    const joined = await patch(plug.id, { categoryIds: [otherId] });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(json<AttributeDetail>(joined).categories.map((category) => category.id)).toEqual([otherId]);
    expect(await missing()).toContain(plug.id);
    // Leaving the category and no longer required in one edit: the lamp no longer misses it.
    expect((await patch(plug.id, { categoryIds: [], isRequired: false })).statusCode).toBe(200);
    expect(await missing()).not.toContain(plug.id);
    await expectCompletenessInStep();
  });

  it("edits categories' sets: inherited shown read-only, order kept, completeness recomputed", async () => {
    const screen = await create({
      code: 'zq_screen',
      label: 'Screen',
      dataType: 'FLOAT',
      unit: 'in',
      isRequired: true,
    });
    const sim = await create({ code: 'zq_sim', label: 'SIM', dataType: 'STRING' });
    const phone = await addProduct('AD-PHONE-2', childId, []);
    const parentBefore = json<CategoryAttributeSet>(
      await as('Staff', 'GET', `${API}/categories/${parentId}`),
    );
    const parentIds = parentBefore.attributes.map((attribute) => attribute.id);

    // The subcategory's own set: SIM then Screen.
    const put = await putSet(childId, [sim.id, screen.id]);
    expect(put.statusCode, put.body).toBe(200);
    const set = json<CategoryAttributeSet>(put);
    expect(set.category).toMatchObject({ id: childId, parentId, parentName: 'Attr Phones' });
    expect(set.attributes.map((attribute) => attribute.code)).toEqual(['zq_sim', 'zq_screen']);
    expect(set.inherited.map((attribute) => attribute.id)).toEqual(parentIds);
    // Material (required since the previous test) is inherited; Screen is the subcategory's own.
    expect((await product(phone.id)).missingAttributes.map((missing) => missing.id)).toContain(screen.id);
    expect((await product(phone.id)).completeness).toBeLessThan(100);

    const forCategory = json<{ result: Attribute[] }>(
      await as('Seller', 'GET', `${API}/forCategory/${childId}`),
    );
    expect(forCategory.result.map((attribute) => attribute.id)).toEqual([...parentIds, sim.id, screen.id]);
    expect(forCategory.result.find((attribute) => attribute.id === screen.id)).toMatchObject({
      code: 'zq_screen',
      dataType: 'FLOAT',
      attributeType: 'SINGLE',
      isRequired: true,
      unit: 'in',
      groupName: 'Attributes',
      options: [],
      categoryIds: [childId],
    });

    // Inherited, unknown and repeated ids are refused, naming the field.
    for (const ids of [[parentIds[0] as number], [999_999], [sim.id, sim.id]]) {
      const refused = await putSet(childId, ids);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(json(refused)).toMatchObject({ fields: { attributeIds: expect.any(String) } });
    }

    // Taking the required Screen out completes the product again.
    expect((await putSet(childId, [sim.id])).statusCode).toBe(200);
    expect((await product(phone.id)).missingAttributes.map((missing) => missing.id)).not.toContain(screen.id);
    // The parent gaining SIM takes it out of the subcategory's own set: it is inherited now.
    const parentAfter = await putSet(parentId, [...parentIds, sim.id, screen.id]);
    expect(parentAfter.statusCode, parentAfter.body).toBe(200);
    const child = json<CategoryAttributeSet>(await as('Seller', 'GET', `${API}/categories/${childId}`));
    expect(child.attributes).toEqual([]);
    expect(child.inherited.map((attribute) => attribute.id)).toEqual([...parentIds, sim.id, screen.id]);
    expect((await product(phone.id)).missingAttributes.map((missing) => missing.id)).toContain(screen.id);

    const list = json<SetCategoryList>(await as('Admin', 'GET', `${API}/categories?query=attr`));
    expect(list.result.map((row) => [row.name, row.subcategoryCount])).toEqual(
      expect.arrayContaining([
        ['Attr Phones', 1],
        ['Attr Lamps', 0],
      ]),
    );
    const subs = json<SetCategoryList>(await as('Admin', 'GET', `${API}/categories?parentId=${parentId}`));
    expect(subs.result).toEqual([expect.objectContaining({ id: childId, attributeCount: 0 })]);
    await expectCompletenessInStep();
  });

  it('deletes an unused attribute, its options and set memberships, and recomputes completeness', async () => {
    const warranty = await create({
      code: 'zq_warranty',
      label: 'Warranty',
      dataType: 'ENUMERATED',
      isRequired: true,
      options: ['1 year', '2 years'],
      categoryIds: [otherId],
    });
    const lamp = await addProduct('AD-LAMP-DEL', otherId, []);
    expect((await product(lamp.id)).missingAttributes.map((missing) => missing.id)).toContain(warranty.id);
    const removed = await recomputed(await as('Admin', 'DELETE', `${API}/${warranty.id}`));
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await as('Admin', 'GET', `${API}/${warranty.id}`)).statusCode).toBe(404);
    expect((await product(lamp.id)).missingAttributes.map((missing) => missing.id)).not.toContain(
      warranty.id,
    );
    const set = json<CategoryAttributeSet>(await as('Admin', 'GET', `${API}/categories/${otherId}`));
    expect(set.attributes.map((attribute) => attribute.id)).not.toContain(warranty.id);
    await expectCompletenessInStep();
  });

  it('leaves products of other categories alone when a set changes', async () => {
    const db = t.database.db;
    const [before] = await db.select().from(products).where(eq(products.sku, 'AD-SIZE-1'));
    const lone = await create({ code: 'zq_lone', label: 'Lone', dataType: 'BOOLEAN', isRequired: true });
    expect((await putSet(childId, [lone.id])).statusCode).toBe(200);
    const [after] = await db.select().from(products).where(eq(products.sku, 'AD-SIZE-1'));
    expect(after).toMatchObject({
      completeness: before!.completeness,
      missingAttributes: before!.missingAttributes,
    });
  });
});
