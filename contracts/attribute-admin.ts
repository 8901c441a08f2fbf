// The attributes admin (issue 14, /products/attributes): the API under /api/v1/attributes and its page.
// Builds on the attribute schemas of contracts/catalog.ts (data types, create body, option labels) and
// adds what the admin needs: a paged list, a detail with what uses the attribute, an edit that may also
// change the code and the data type while nothing depends on them, and categories' attribute sets.
import { z } from 'zod';
import {
  attributeCodeSchema,
  attributeDataTypes,
  attributeTypes,
  updateAttributeBodySchema,
} from './catalog';
import { intParam } from './int-param';
import { taskStatusSchema } from './notifications';

/** The manifest route whose actions guard the admin API and page. */
export const ATTRIBUTES_ROUTE = '/products/attributes';
export const ATTRIBUTE_PAGE_SIZE = 25;

export const listAttributesQuerySchema = z.object({
  /** Code or label contains; case-insensitive. */
  query: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  dataType: z.enum(attributeDataTypes).optional(),
  groupName: z.string().trim().max(60).optional(),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(ATTRIBUTE_PAGE_SIZE),
});
export type ListAttributesQuery = z.input<typeof listAttributesQuerySchema>;

/** A row of the admin list: the definition without its options, with how much hangs off it. */
export const attributeSummarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  label: z.string(),
  dataType: z.enum(attributeDataTypes),
  attributeType: z.enum(attributeTypes),
  isRequired: z.boolean(),
  unit: z.string().nullable(),
  groupName: z.string(),
  optionCount: z.number().int(),
  /** Categories whose own set holds it (their subcategories inherit it and are not counted). */
  categoryCount: z.number().int(),
  updatedAt: z.string(),
});
export type AttributeSummary = z.infer<typeof attributeSummarySchema>;

export const attributeSummaryListSchema = z.object({
  result: z.array(attributeSummarySchema),
  count: z.number().int(),
});
export type AttributeSummaryList = z.infer<typeof attributeSummaryListSchema>;

export const attributeGroupListSchema = z.object({ result: z.array(z.string()) });

export const categoryRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
});
export type CategoryRef = z.infer<typeof categoryRefSchema>;

/**
 * One attribute for the editor: its options (with how many products chose each), the categories whose
 * set holds it, and what depends on it. While `productCount` is 0 the data type and single/multi may
 * change; while `productCount` and `savedViewCount` are both 0 the code may change too.
 */
export const attributeDetailSchema = attributeSummarySchema.extend({
  options: z.array(
    z.object({ valueId: z.number().int(), value: z.string(), productCount: z.number().int() }),
  ),
  categories: z.array(categoryRefSchema),
  /** Products holding a value for it, whatever their category. */
  productCount: z.number().int(),
  /** Saved views whose query or columns name it (`attr.<code>`). */
  savedViewCount: z.number().int(),
});
export type AttributeDetail = z.infer<typeof attributeDetailSchema>;

/**
 * A change to what categories require answers at once; the completeness of the products concerned is
 * recomputed by a background task, whose `taskStatus` rides along (absent when nothing is recomputed).
 */
const recomputeTask = { taskStatus: taskStatusSchema.optional() };

/** The answer of creating or editing an attribute. */
export const savedAttributeSchema = attributeDetailSchema.extend(recomputeTask);
export type SavedAttribute = z.infer<typeof savedAttributeSchema>;

/**
 * The edit: only the fields sent change. Options are the full list in the wanted order: an entry with a
 * `valueId` keeps that option (renamed if its label differs), one without is added, and an option left
 * out is deleted (refused while products use it). `categoryIds` replaces the categories holding it.
 */
export const updateAttributeAdminBodySchema = updateAttributeBodySchema.extend({
  code: attributeCodeSchema.optional(),
  dataType: z.enum(attributeDataTypes).optional(),
});
export type UpdateAttributeAdminBody = z.input<typeof updateAttributeAdminBodySchema>;

// ── Categories' attribute sets ───────────────────────────────────────────────────────────────────────

export const listSetCategoriesQuerySchema = z.object({
  /** Absent: top-level categories; else that category's subcategories. */
  parentId: z.string().uuid('parentId must be a category id').optional(),
  query: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(200).default(100),
});
export type ListSetCategoriesQuery = z.input<typeof listSetCategoriesQuerySchema>;

export const setCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  isActive: z.boolean(),
  /** Attributes of its own set (inherited ones are not counted). */
  attributeCount: z.number().int(),
  subcategoryCount: z.number().int(),
});
export type SetCategory = z.infer<typeof setCategorySchema>;
export const setCategoryListSchema = z.object({
  result: z.array(setCategorySchema),
  count: z.number().int(),
});
export type SetCategoryList = z.infer<typeof setCategoryListSchema>;

/** A category's own attribute set in order, and (read-only here) the set it inherits from its parent. */
export const categoryAttributeSetSchema = z.object({
  category: categoryRefSchema,
  attributes: z.array(attributeSummarySchema),
  inherited: z.array(attributeSummarySchema),
});
export type CategoryAttributeSet = z.infer<typeof categoryAttributeSetSchema>;

/** The answer of replacing a category's set (with the recompute's task when required attributes changed). */
export const savedCategorySetSchema = categoryAttributeSetSchema.extend(recomputeTask);
export type SavedCategorySet = z.infer<typeof savedCategorySetSchema>;

export const CATEGORY_SET_LIMIT = 500;

export const putCategoryAttributeSetBodySchema = z.object({
  /** The category's own set, in the order the product form shows it. */
  attributeIds: z
    .array(z.number().int().positive().max(2_147_483_647, 'There is no such attribute.'))
    .max(CATEGORY_SET_LIMIT, `A category holds at most ${CATEGORY_SET_LIMIT} attributes.`),
});
export type PutCategoryAttributeSetBody = z.input<typeof putCategoryAttributeSetBodySchema>;
