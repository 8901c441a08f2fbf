import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Category,
  type CategoryList,
  type SubcategoryList,
  slugify,
} from '../../../contracts/categories';
import { products, sellers } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { productKeys } from '../products/product-keys';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const API = '/api/v1/categories';

describe('slugify', () => {
  it('makes lower-case ASCII words joined by hyphens', () => {
    expect(slugify('Home & Kitchen')).toBe('home-and-kitchen');
    expect(slugify('  Crème Brûlée!! ')).toBe('creme-brulee');
    expect(slugify('Tea -- Coffee')).toBe('tea-coffee');
    expect(slugify('★★★')).toBe('');
    expect(slugify('a'.repeat(150))).toHaveLength(100);
  });
});

describe.each(testBackends)('categories on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const ok = async <T>(response: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(status);
    return JSON.parse(answer.body) as T;
  };
  const topLevel = (query = '') => ok<CategoryList>(as('Admin', 'GET', `${API}/listCategories?${query}`));
  const create = (body: object, who: DemoRole = 'Admin') => as(who, 'POST', `${API}/createCategory`, body);
  const createSub = (parentId: string, body: object, who: DemoRole = 'Admin') =>
    as(who, 'POST', `${API}/createSubcategory/${parentId}`, body);
  const addProduct = async (categoryId: string) => {
    const [seller] = await t.database.db.select({ id: sellers.id }).from(sellers).limit(1);
    const [product] = await t.database.db
      .insert(products)
      .values({ sellerId: seller!.id, categoryId, ...productKeys('Test product', `SKU-${Date.now()}`) })
      .returning({ id: products.id });
    return product!.id;
  };

  it('puts the subcategory page under Manage Category in the breadcrumbs', async () => {
    const config = await ok<{ routes: Record<string, { names: string[]; parents: string[] }> }>(
      as('Staff', 'GET', '/api/v1/globalConfigs/getPermissionsConfig'),
    );
    expect(config.routes['/sellers/manage-subcategory']).toEqual({
      names: ['Sellers', 'Manage Category', 'Manage Subcategory'],
      parents: ['/sellers/manage-category'],
    });
  });

  it('lists top-level categories in their sort order with counts, to admins and staff', async () => {
    const list = await topLevel('limit=100');
    expect(list.count).toBe(12);
    expect(list.rows.map((row) => row.name).slice(0, 3)).toEqual([
      'Apparel',
      'Home & Kitchen',
      'Electronics',
    ]);
    expect(list.rows.every((row) => row.parentId === null)).toBe(true);
    expect(list.rows[0]).toMatchObject({ slug: 'apparel', subcategoryCount: 4, productCount: 0 });
    expect(list.rows.find((row) => row.name === 'Seasonal')?.isActive).toBe(false);
    const page = await topLevel('limit=5&skip=10');
    expect(page.rows).toHaveLength(2);
    expect(page.count).toBe(12);
    expect((await topLevel('query=KITCH')).rows.map((row) => row.slug)).toEqual(['home-and-kitchen']);
    expect((await topLevel('query=_')).count).toBe(0);
    expect((await as('Staff', 'GET', `${API}/listCategories`)).statusCode).toBe(200);
    expect((await as('Seller', 'GET', `${API}/listCategories`)).statusCode).toBe(403);
    for (const query of ['limit=0', 'limit=101', 'skip=-1', `query=${'q'.repeat(101)}`]) {
      expect((await as('Admin', 'GET', `${API}/listCategories?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('creates a category with a slug made from the name, or the one given', async () => {
    const made = await ok<Category>(
      create({ name: ' Garden & Outdoor ', description: 'Plants and tools', sortOrder: 5 }),
      201,
    );
    expect(made).toMatchObject({
      name: 'Garden & Outdoor',
      slug: 'garden-and-outdoor',
      description: 'Plants and tools',
      parentId: null,
      isActive: true,
      sortOrder: 5,
      subcategoryCount: 0,
      productCount: 0,
    });
    const custom = await ok<Category>(
      create({ name: 'Books', slug: 'books-and-media', isActive: false }),
      201,
    );
    expect(custom).toMatchObject({ slug: 'books-and-media', isActive: false, sortOrder: 0 });
    // An empty slug means "make one from the name".
    expect((await ok<Category>(create({ name: 'Music', slug: '' }), 201)).slug).toBe('music');
  });

  it('refuses a slug another top-level category has (409)', async () => {
    const clash = await create({ name: 'Clothes', slug: 'apparel' });
    expect(clash.statusCode).toBe(409);
    expect(json(clash)).toEqual({
      message: 'Another category already uses the slug “apparel”.',
      code: 'SLUG_TAKEN',
    });
    expect((await create({ name: 'Apparel' })).statusCode).toBe(409);
  });

  it('validates the category body', async () => {
    const bad: object[] = [
      {},
      { name: '   ' },
      { name: 'n'.repeat(101) },
      { name: 'Ok', slug: 'Not A Slug' },
      { name: 'Ok', slug: '-leading' },
      { name: 'Ok', slug: 's'.repeat(101) },
      { name: 'Ok', description: 'd'.repeat(1001) },
      { name: 'Ok', sortOrder: -1 },
      { name: 'Ok', sortOrder: 1.5 },
      { name: 'Ok', sortOrder: 100_001 },
      // A JSON number, nothing that merely coerces to one.
      { name: 'Ok', sortOrder: [] },
      { name: 'Ok', sortOrder: true },
      { name: 'Ok', sortOrder: null },
      { name: 'Ok', sortOrder: '5' },
      { name: 'Ok', isActive: 'yes' },
    ];
    for (const body of bad) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(json(response).code).toBe('VALIDATION_ERROR');
    }
    const noSlug = await create({ name: '★★★' });
    expect(noSlug.statusCode).toBe(400);
    expect(json(noSlug).message).toMatch(/Enter a slug/);
  });

  it('lets staff look but not touch', async () => {
    const [apparel] = (await topLevel('query=apparel')).rows;
    expect((await create({ name: 'Staff made' }, 'Staff')).statusCode).toBe(403);
    expect((await as('Staff', 'PUT', `${API}/updateCategory/${apparel!.id}`, { name: 'X' })).statusCode).toBe(
      403,
    );
    expect((await as('Staff', 'DELETE', `${API}/deleteCategory/${apparel!.id}`)).statusCode).toBe(403);
    expect((await as('Staff', 'GET', `${API}/listSubcategories/${apparel!.id}`)).statusCode).toBe(200);
    expect((await createSub(apparel!.id, { name: 'Staff sub' }, 'Staff')).statusCode).toBe(403);
    expect((await as('Seller', 'GET', `${API}/listSubcategories/${apparel!.id}`)).statusCode).toBe(403);
  });

  it('updates a category, keeping slugs unique', async () => {
    const music = (await topLevel('query=music')).rows[0]!;
    const updated = await ok<Category>(
      as('Admin', 'PUT', `${API}/updateCategory/${music.id}`, {
        name: 'Music & Instruments',
        slug: '',
        description: 'Sheet music and instruments',
        isActive: false,
        sortOrder: 300,
      }),
    );
    expect(updated).toMatchObject({
      id: music.id,
      name: 'Music & Instruments',
      slug: 'music-and-instruments',
      isActive: false,
      sortOrder: 300,
    });
    // Keeping its own slug is fine; taking another's is not.
    expect(
      (await as('Admin', 'PUT', `${API}/updateCategory/${music.id}`, { name: 'Music', slug: updated.slug }))
        .statusCode,
    ).toBe(200);
    expect(
      (await as('Admin', 'PUT', `${API}/updateCategory/${music.id}`, { name: 'Music', slug: 'electronics' }))
        .statusCode,
    ).toBe(409);
    expect((await as('Admin', 'PUT', `${API}/updateCategory/not-an-id`, { name: 'X' })).statusCode).toBe(400);
    expect((await as('Admin', 'PUT', `${API}/updateCategory/${UNKNOWN_ID}`, { name: 'X' })).statusCode).toBe(
      404,
    );
    expect(
      (await as('Admin', 'PUT', `${API}/updateCategory/${music.id}`, { name: 'x'.repeat(101) })).statusCode,
    ).toBe(400);
  });

  it('manages the subcategories of a category, with slugs unique per category', async () => {
    const garden = (await topLevel('query=garden')).rows[0]!;
    const empty = await ok<SubcategoryList>(as('Admin', 'GET', `${API}/listSubcategories/${garden.id}`));
    expect(empty).toMatchObject({ parent: { id: garden.id, name: 'Garden & Outdoor' }, rows: [], count: 0 });

    const seeds = await ok<Category>(createSub(garden.id, { name: 'Seeds', sortOrder: 20 }), 201);
    expect(seeds).toMatchObject({ parentId: garden.id, slug: 'seeds' });
    await ok<Category>(createSub(garden.id, { name: 'Tools', sortOrder: 10 }), 201);
    expect((await createSub(garden.id, { name: 'More seeds', slug: 'seeds' })).statusCode).toBe(409);
    expect(json(await createSub(garden.id, { name: 'Seeds' })).message).toBe(
      'Another subcategory of this category already uses the slug “seeds”.',
    );
    // The same slug under another category, or at the top level, is no clash.
    const apparel = (await topLevel('query=apparel')).rows[0]!;
    expect((await createSub(apparel.id, { name: 'Seeds' })).statusCode).toBe(201);
    expect((await createSub(garden.id, { name: 'Apparel' })).statusCode).toBe(201);

    const list = await ok<SubcategoryList>(
      as('Admin', 'GET', `${API}/listSubcategories/${garden.id}?limit=2`),
    );
    expect(list.count).toBe(3);
    expect(list.rows.map((row) => row.name)).toEqual(['Apparel', 'Tools']);
    expect(list.parent.subcategoryCount).toBe(3);
    expect(
      (
        await ok<SubcategoryList>(as('Admin', 'GET', `${API}/listSubcategories/${garden.id}?query=SEE`))
      ).rows.map((row) => row.slug),
    ).toEqual(['seeds']);

    const renamed = await ok<Category>(
      as('Admin', 'PUT', `${API}/updateSubcategory/${seeds.id}`, { name: 'Seeds & Bulbs', sortOrder: 1 }),
    );
    expect(renamed).toMatchObject({ slug: 'seeds-and-bulbs', parentId: garden.id, sortOrder: 1 });
    expect(
      (await as('Admin', 'PUT', `${API}/updateSubcategory/${seeds.id}`, { name: 'Tools' })).statusCode,
    ).toBe(409);
  });

  it('keeps categories and subcategories apart: the wrong kind of id is not found', async () => {
    const apparel = (await topLevel('query=apparel')).rows[0]!;
    const sub = (await ok<SubcategoryList>(as('Admin', 'GET', `${API}/listSubcategories/${apparel.id}`)))
      .rows[0]!;
    expect((await as('Admin', 'GET', `${API}/listSubcategories/${sub.id}`)).statusCode).toBe(404);
    expect((await createSub(sub.id, { name: 'Too deep' })).statusCode).toBe(404);
    expect((await as('Admin', 'PUT', `${API}/updateCategory/${sub.id}`, { name: 'X' })).statusCode).toBe(404);
    expect(
      (await as('Admin', 'PUT', `${API}/updateSubcategory/${apparel.id}`, { name: 'X' })).statusCode,
    ).toBe(404);
    expect((await as('Admin', 'DELETE', `${API}/deleteCategory/${sub.id}`)).statusCode).toBe(404);
    expect((await as('Admin', 'DELETE', `${API}/deleteSubcategory/${apparel.id}`)).statusCode).toBe(404);
    expect((await as('Admin', 'GET', `${API}/listSubcategories/${UNKNOWN_ID}`)).statusCode).toBe(404);
    expect((await as('Admin', 'GET', `${API}/listSubcategories/nope`)).statusCode).toBe(400);
    expect((await createSub(UNKNOWN_ID, { name: 'Orphan' })).statusCode).toBe(404);
    expect((await as('Admin', 'DELETE', `${API}/deleteSubcategory/nope`)).statusCode).toBe(400);
  });

  it('refuses to delete a category while it has subcategories or products (409)', async () => {
    const apparel = (await topLevel('query=apparel')).rows[0]!;
    const inUse = await as('Admin', 'DELETE', `${API}/deleteCategory/${apparel.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(json(inUse)).toEqual({
      message: '“Apparel” still has 5 subcategories. Move or delete them first.',
      code: 'CATEGORY_IN_USE',
    });

    const pets = (await topLevel('query=pet')).rows[0]!;
    const productId = await addProduct(pets.id);
    expect((await topLevel('query=pet')).rows[0]?.productCount).toBe(1);
    const withProduct = await as('Admin', 'DELETE', `${API}/deleteCategory/${pets.id}`);
    expect(withProduct.statusCode).toBe(409);
    expect(json(withProduct).message).toBe('“Pet Supplies” still has 1 product. Move or delete them first.');
    await t.database.db.delete(products).where(eq(products.id, productId));
    expect((await as('Admin', 'DELETE', `${API}/deleteCategory/${pets.id}`)).statusCode).toBe(204);
    expect((await as('Admin', 'DELETE', `${API}/deleteCategory/${pets.id}`)).statusCode).toBe(404);
    expect((await topLevel('query=pet')).count).toBe(0);
  });

  it('refuses to delete a subcategory with products, and deletes it once empty', async () => {
    const garden = (await topLevel('query=garden')).rows[0]!;
    const tools = (
      await ok<SubcategoryList>(as('Admin', 'GET', `${API}/listSubcategories/${garden.id}?query=tools`))
    ).rows[0]!;
    const productId = await addProduct(tools.id);
    expect((await as('Admin', 'DELETE', `${API}/deleteSubcategory/${tools.id}`)).statusCode).toBe(409);
    await t.database.db.delete(products).where(eq(products.id, productId));
    expect((await as('Admin', 'DELETE', `${API}/deleteSubcategory/${tools.id}`)).statusCode).toBe(204);
    const after = await ok<SubcategoryList>(as('Admin', 'GET', `${API}/listSubcategories/${garden.id}`));
    expect(after.rows.map((row) => row.name)).not.toContain('Tools');
  });
});
