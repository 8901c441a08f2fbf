// The attributes admin API (issue 14), under /api/v1/attributes. Reading needs the Attributes page's
// `view` (every role has it); writing needs its create, edit or delete (admins by default). The set a
// product of a category is asked for (`forCategory`) needs only Staging Products `view`: sellers fill
// products without managing attributes. The rules of what may change are in attribute-admin.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ATTRIBUTES_ROUTE,
  attributeDetailSchema,
  attributeGroupListSchema,
  attributeSummaryListSchema,
  categoryAttributeSetSchema,
  listAttributesQuerySchema,
  listSetCategoriesQuerySchema,
  putCategoryAttributeSetBodySchema,
  savedAttributeSchema,
  savedCategorySetSchema,
  setCategoryListSchema,
  updateAttributeAdminBodySchema,
} from '../../../contracts/attribute-admin';
import { attributeListSchema, createAttributeBodySchema } from '../../../contracts/catalog';
import type { RouteAction } from '../../../contracts/routes';
import { resourceErrors as errors } from '../../lib/error-responses';
import { STAGING_PRODUCTS } from '../products/routes';
import {
  attributesForCategory,
  createAttribute,
  deleteAttribute,
  getAttributeDetail,
  getCategoryAttributeSet,
  listAttributeGroups,
  listAttributes,
  listSetCategories,
  putCategoryAttributeSet,
  updateAttribute,
} from './attribute-admin';
import { COMPLETENESS_JOB_KIND, completenessRecomputeHandler } from './completeness-job';

const on = (route: string, action: RouteAction) => ({ permission: { route, action } });
const idParams = z.object({
  id: z.coerce
    .number({ error: 'There is no such attribute.' })
    .int('There is no such attribute.')
    .positive('There is no such attribute.')
    .max(2_147_483_647, 'There is no such attribute.'),
});
const categoryParams = z.object({ categoryId: z.string().uuid('There is no such category.') });
const tags = ['attributes'];

export async function attributeRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(COMPLETENESS_JOB_KIND, completenessRecomputeHandler(app.db));
  /** A change committed with its recompute queued in its transaction: the worker may start it now. */
  const queued = <T extends { taskStatus?: unknown }>(answer: T): T => {
    if (answer.taskStatus) app.jobs.worker.wake();
    return answer;
  };

  api.get(
    '/',
    {
      config: on(ATTRIBUTES_ROUTE, 'view'),
      schema: {
        tags,
        summary:
          'A page of attributes by label, searchable by code or label, filtered by data type and group',
        querystring: listAttributesQuerySchema,
        response: { 200: attributeSummaryListSchema, ...errors },
      },
    },
    (request) => listAttributes(app.db, request.query),
  );

  api.get(
    '/groups',
    {
      config: on(ATTRIBUTES_ROUTE, 'view'),
      schema: {
        tags,
        summary: 'The group names attributes use',
        response: { 200: attributeGroupListSchema, ...errors },
      },
    },
    async () => ({ result: await listAttributeGroups(app.db) }),
  );

  api.get(
    '/categories',
    {
      config: on(ATTRIBUTES_ROUTE, 'view'),
      schema: {
        tags,
        summary: 'Top-level categories, or the subcategories of `parentId`, with the size of their own sets',
        querystring: listSetCategoriesQuerySchema,
        response: { 200: setCategoryListSchema, ...errors },
      },
    },
    (request) => listSetCategories(app.db, request.query),
  );

  api.get(
    '/categories/:categoryId',
    {
      config: on(ATTRIBUTES_ROUTE, 'view'),
      schema: {
        tags,
        summary: "A category's own attribute set in order, and the set it inherits from its parent",
        params: categoryParams,
        response: { 200: categoryAttributeSetSchema, ...errors },
      },
    },
    (request) => getCategoryAttributeSet(app.db, request.params.categoryId),
  );

  api.put(
    '/categories/:categoryId',
    {
      config: on(ATTRIBUTES_ROUTE, 'edit'),
      schema: {
        tags,
        summary: "Replaces a category's own attribute set (ordered attribute ids)",
        description:
          "A subcategory may not list what it inherits; a parent's new attributes leave its subcategories' own sets. When the required attributes change, the completeness of the category's products (and its subcategories') is recomputed by a background task queued with the change: the answer carries its `taskStatus`, and its owner is notified when it is done.",
        params: categoryParams,
        body: putCategoryAttributeSetBodySchema,
        response: { 200: savedCategorySetSchema, ...errors },
      },
    },
    async (request) =>
      queued(
        await putCategoryAttributeSet(
          app.db,
          request.params.categoryId,
          request.body.attributeIds,
          request.user.id,
        ),
      ),
  );

  api.get(
    '/forCategory/:categoryId',
    {
      config: on(STAGING_PRODUCTS, 'view'),
      schema: {
        tags,
        summary: 'The attributes a product of this category has: the parent’s set, then its own, in order',
        params: categoryParams,
        response: { 200: attributeListSchema, ...errors },
      },
    },
    async (request) => ({ result: await attributesForCategory(app.db, request.params.categoryId) }),
  );

  api.get(
    '/:id',
    {
      config: on(ATTRIBUTES_ROUTE, 'view'),
      schema: {
        tags,
        summary: 'One attribute with its options (and their use), its categories and what depends on it',
        params: idParams,
        response: { 200: attributeDetailSchema, ...errors },
      },
    },
    (request) => getAttributeDetail(app.db, request.params.id),
  );

  api.post(
    '/',
    {
      config: on(ATTRIBUTES_ROUTE, 'create'),
      schema: {
        tags,
        summary: 'Creates an attribute, with its options and the categories whose sets hold it',
        description:
          'A required attribute queues the completeness recompute of those categories’ products: the answer carries its `taskStatus`.',
        body: createAttributeBodySchema,
        response: { 201: savedAttributeSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(queued(await createAttribute(app.db, request.body, request.user.id))),
  );

  api.patch(
    '/:id',
    {
      config: on(ATTRIBUTES_ROUTE, 'edit'),
      schema: {
        tags,
        summary: 'Edits an attribute (only the fields sent); options are the full list in order',
        description:
          'The data type and single/multi change only while no product holds a value (409); the code also only while no saved view names it. An option chosen by products cannot be removed (409 with the count); a renamed option’s label is updated in those products. A change of `isRequired` or of the categories queues the completeness recompute of the products concerned: the answer carries its `taskStatus`.',
        params: idParams,
        body: updateAttributeAdminBodySchema,
        response: { 200: savedAttributeSchema, ...errors },
      },
    },
    async (request) =>
      queued(await updateAttribute(app.db, request.params.id, request.body, request.user.id)),
  );

  api.delete(
    '/:id',
    {
      config: on(ATTRIBUTES_ROUTE, 'delete'),
      schema: {
        tags,
        summary: 'Deletes an attribute no product holds a value for (409 with the count otherwise)',
        description:
          'Deleting a required attribute queues the completeness recompute of its categories’ products; its owner is notified when it is done.',
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      queued(await deleteAttribute(app.db, request.params.id, request.user.id));
      return reply.code(204).send(null);
    },
  );
}
