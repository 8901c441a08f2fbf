import { and, asc, count, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Category,
  categoryBodySchema,
  categoryListSchema,
  categorySchema,
  listCategoriesQuerySchema,
  slugify,
  subcategoryListSchema,
} from '../../../contracts/categories';
import type { RouteAction } from '../../../contracts/routes';
import type { Db, Tx } from '../../db/client';
import { categories, products } from '../../db/schema';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { isUniqueViolation } from '../../lib/pg-errors';

const CATEGORY_PAGE = '/sellers/manage-category';
const SUBCATEGORY_PAGE = '/sellers/manage-subcategory';
const on = (route: string, action: RouteAction) => ({ permission: { route, action } });
const idParams = z.object({ id: z.string().uuid('id must be a category id') });

type Kind = 'category' | 'subcategory';
const noun = (kind: Kind) => (kind === 'category' ? 'Category' : 'Subcategory');

/**
 * Counted per row in the same query, so a page of categories costs one round trip. Spelled in SQL with
 * the outer table named explicitly: drizzle leaves columns unqualified when a query has one table, and
 * an unqualified `id` inside the subquery would mean the subquery's own row.
 */
const columns = {
  category: categories,
  subcategoryCount: sql<number>`(select count(*)::int from "categories" as "sub" where "sub"."parent_id" = "categories"."id")`,
  productCount: sql<number>`(select count(*)::int from "products" as "p" where "p"."category_id" = "categories"."id")`,
};
type Row = { category: typeof categories.$inferSelect; subcategoryCount: number; productCount: number };

function toCategory({ category, subcategoryCount, productCount }: Row): Category {
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    description: category.description,
    parentId: category.parentId,
    isActive: category.isActive,
    sortOrder: category.sortOrder,
    subcategoryCount: Number(subcategoryCount),
    productCount: Number(productCount),
    createdAt: category.createdAt.toISOString(),
    updatedAt: category.updatedAt.toISOString(),
  };
}

const ofKind = (kind: Kind) =>
  kind === 'category' ? isNull(categories.parentId) : sql`${categories.parentId} is not null`;

async function findCategory(db: Db, id: string, kind: Kind): Promise<Row> {
  const [row] = await db
    .select(columns)
    .from(categories)
    .where(and(eq(categories.id, id), ofKind(kind)));
  if (!row) throw new HttpError(404, `${noun(kind)} not found`, `${kind.toUpperCase()}_NOT_FOUND`);
  return row;
}

/** One page of the categories under `parentId` (top level when null), in their sort order. */
async function listUnder(
  db: Db,
  parentId: string | null,
  query: { query?: string; skip: number; limit: number },
) {
  const filters: SQL[] = [parentId ? eq(categories.parentId, parentId) : isNull(categories.parentId)];
  if (query.query) {
    const pattern = containsPattern(query.query);
    filters.push(or(ilike(categories.name, pattern), ilike(categories.slug, pattern)) as SQL);
  }
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(categories)
      .where(where)
      .orderBy(asc(categories.sortOrder), asc(categories.name), asc(categories.id))
      .limit(query.limit)
      .offset(query.skip),
    db.select({ value: count() }).from(categories).where(where),
  ]);
  return { rows: rows.map(toCategory), count: total?.value ?? 0 };
}

/** The stored values of a body: the slug defaults to one made from the name. */
function valuesOf(body: z.output<typeof categoryBodySchema>) {
  const slug = body.slug || slugify(body.name);
  if (!slug) {
    throw new HttpError(
      400,
      'Enter a slug: the name has no letters or digits to make one from.',
      'VALIDATION_ERROR',
    );
  }
  return {
    name: body.name,
    slug,
    description: body.description,
    isActive: body.isActive,
    sortOrder: body.sortOrder,
  };
}

const slugTaken = (slug: string, kind: Kind) =>
  new HttpError(
    409,
    kind === 'category'
      ? `Another category already uses the slug “${slug}”.`
      : `Another subcategory of this category already uses the slug “${slug}”.`,
    'SLUG_TAKEN',
  );

/** The friendly answer to a slug clash; the unique index still catches two saves racing each other. */
async function assertSlugFree(db: Db | Tx, parentId: string | null, slug: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        parentId ? eq(categories.parentId, parentId) : isNull(categories.parentId),
        eq(categories.slug, slug),
        exceptId ? sql`${categories.id} <> ${exceptId}` : undefined,
      ),
    );
  if (clash) throw slugTaken(slug, parentId ? 'subcategory' : 'category');
}

async function rethrowSlugClash<T>(slug: string, kind: Kind, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'categories_slug_uq')) throw slugTaken(slug, kind);
    throw error;
  }
}

/**
 * Categories and subcategories. Deleting refuses while anything hangs off the category; the row is
 * locked first, so a subcategory or product cannot be added under it between the check and the delete.
 */
export async function categoryRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const update = async (id: string, kind: Kind, body: z.output<typeof categoryBodySchema>) => {
    const current = await findCategory(app.db, id, kind);
    const values = valuesOf(body);
    await assertSlugFree(app.db, current.category.parentId, values.slug, id);
    await rethrowSlugClash(values.slug, kind, () =>
      app.db
        .update(categories)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(categories.id, id)),
    );
    return toCategory(await findCategory(app.db, id, kind));
  };

  const remove = async (id: string, kind: Kind) => {
    await app.db.transaction(async (tx) => {
      const [target] = await tx
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(and(eq(categories.id, id), ofKind(kind)))
        .for('update');
      if (!target) throw new HttpError(404, `${noun(kind)} not found`, `${kind.toUpperCase()}_NOT_FOUND`);
      const [[subs], [items]] = await Promise.all([
        tx.select({ value: count() }).from(categories).where(eq(categories.parentId, id)),
        tx.select({ value: count() }).from(products).where(eq(products.categoryId, id)),
      ]);
      const blockers = [
        subs?.value ? `${subs.value} subcategor${subs.value === 1 ? 'y' : 'ies'}` : '',
        items?.value ? `${items.value} product${items.value === 1 ? '' : 's'}` : '',
      ].filter(Boolean);
      if (blockers.length) {
        throw new HttpError(
          409,
          `“${target.name}” still has ${blockers.join(' and ')}. Move or delete them first.`,
          'CATEGORY_IN_USE',
        );
      }
      await tx.delete(categories).where(eq(categories.id, id));
    });
  };

  // ------------------------------------------------------------------ top-level categories

  api.get(
    '/listCategories',
    {
      config: on(CATEGORY_PAGE, 'view'),
      schema: {
        tags: ['categories'],
        summary: 'Top-level categories in their sort order, paged, searchable by name or slug',
        querystring: listCategoriesQuerySchema,
        response: { 200: categoryListSchema, ...errors },
      },
    },
    (request) => listUnder(app.db, null, request.query),
  );

  api.post(
    '/createCategory',
    {
      config: on(CATEGORY_PAGE, 'create'),
      schema: {
        tags: ['categories'],
        summary: 'Create a top-level category',
        body: categoryBodySchema,
        response: { 201: categorySchema, ...errors },
      },
    },
    async (request, reply) => {
      const values = valuesOf(request.body);
      await assertSlugFree(app.db, null, values.slug);
      const [created] = await rethrowSlugClash(values.slug, 'category', () =>
        app.db.insert(categories).values(values).returning({ id: categories.id }),
      );
      return reply.status(201).send(toCategory(await findCategory(app.db, created!.id, 'category')));
    },
  );

  api.put(
    '/updateCategory/:id',
    {
      config: on(CATEGORY_PAGE, 'edit'),
      schema: {
        tags: ['categories'],
        summary: 'Update a top-level category',
        params: idParams,
        body: categoryBodySchema,
        response: { 200: categorySchema, ...errors },
      },
    },
    (request) => update(request.params.id, 'category', request.body),
  );

  api.delete(
    '/deleteCategory/:id',
    {
      config: on(CATEGORY_PAGE, 'delete'),
      schema: {
        tags: ['categories'],
        summary: 'Delete a category that has no subcategories and no products',
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await remove(request.params.id, 'category');
      return reply.status(204).send(null);
    },
  );

  // ------------------------------------------------------------------ subcategories

  api.get(
    '/listSubcategories/:id',
    {
      config: on(SUBCATEGORY_PAGE, 'view'),
      schema: {
        tags: ['categories'],
        summary: 'A category with its subcategories, paged, searchable by name or slug',
        params: idParams,
        querystring: listCategoriesQuerySchema,
        response: { 200: subcategoryListSchema, ...errors },
      },
    },
    async (request) => {
      const parent = toCategory(await findCategory(app.db, request.params.id, 'category'));
      return { parent, ...(await listUnder(app.db, parent.id, request.query)) };
    },
  );

  api.post(
    '/createSubcategory/:id',
    {
      config: on(SUBCATEGORY_PAGE, 'create'),
      schema: {
        tags: ['categories'],
        summary: 'Create a subcategory under the category `id`',
        params: idParams,
        body: categoryBodySchema,
        response: { 201: categorySchema, ...errors },
      },
    },
    async (request, reply) => {
      const parentId = request.params.id;
      const values = valuesOf(request.body);
      const created = await rethrowSlugClash(values.slug, 'subcategory', () =>
        app.db.transaction(async (tx) => {
          // Shares the parent's row lock with other inserts but not with its delete: the parent cannot
          // disappear under the new subcategory (parent_id has no foreign key to do this for us).
          const [parent] = await tx
            .select({ id: categories.id })
            .from(categories)
            .where(and(eq(categories.id, parentId), isNull(categories.parentId)))
            .for('share');
          if (!parent) throw new HttpError(404, 'Category not found', 'CATEGORY_NOT_FOUND');
          await assertSlugFree(tx, parentId, values.slug);
          const [row] = await tx
            .insert(categories)
            .values({ ...values, parentId })
            .returning({ id: categories.id });
          return row!;
        }),
      );
      return reply.status(201).send(toCategory(await findCategory(app.db, created.id, 'subcategory')));
    },
  );

  api.put(
    '/updateSubcategory/:id',
    {
      config: on(SUBCATEGORY_PAGE, 'edit'),
      schema: {
        tags: ['categories'],
        summary: 'Update a subcategory',
        params: idParams,
        body: categoryBodySchema,
        response: { 200: categorySchema, ...errors },
      },
    },
    (request) => update(request.params.id, 'subcategory', request.body),
  );

  api.delete(
    '/deleteSubcategory/:id',
    {
      config: on(SUBCATEGORY_PAGE, 'delete'),
      schema: {
        tags: ['categories'],
        summary: 'Delete a subcategory that has no products',
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await remove(request.params.id, 'subcategory');
      return reply.status(204).send(null);
    },
  );
}
