// Product categories and their subcategories (/sellers/manage-category → /sellers/manage-subcategory).
// A subcategory is a category with a parent; the tree is one level deep.
import { z } from 'zod';
import { intParam } from './int-param';

export const CATEGORY_PAGE_SIZE = 20;
export const MAX_SLUG_LENGTH = 100;
export const MAX_SORT_ORDER = 100_000;

/**
 * The slug a name suggests: lower case ASCII letters and digits joined by single hyphens; accents are
 * dropped ("Crème Brûlée" → "creme-brulee"). The page shows it as the default; the user may edit it.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

export const slugSchema = z
  .string()
  .trim()
  .max(MAX_SLUG_LENGTH, `Slug must be at most ${MAX_SLUG_LENGTH} characters`)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Slug may use lower-case letters and digits joined by hyphens');

export const categoryBodySchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(100, 'Name must be at most 100 characters'),
  /** Absent or empty: made from the name. */
  slug: z.union([slugSchema, z.literal('')]).optional(),
  description: z.string().trim().max(1000, 'Description must be at most 1000 characters').default(''),
  isActive: z.boolean().default(true),
  // A JSON number: "5", true, [] or null are refused, not coerced.
  sortOrder: z
    .number({ error: 'Sort order must be a number' })
    .int('Sort order must be a whole number')
    .min(0, 'Sort order cannot be negative')
    .max(MAX_SORT_ORDER, `Sort order must be at most ${MAX_SORT_ORDER}`)
    .default(0),
});
export type CategoryBody = z.input<typeof categoryBodySchema>;

export const listCategoriesQuerySchema = z.object({
  /** Name or slug; case-insensitive, partial. */
  query: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(CATEGORY_PAGE_SIZE),
});
export type ListCategoriesQuery = z.input<typeof listCategoriesQuerySchema>;

export const categorySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  /** Null for a top-level category. */
  parentId: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
  /** Subcategories under it (always 0 for a subcategory). */
  subcategoryCount: z.number().int(),
  /** Products filed directly under it. */
  productCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Category = z.infer<typeof categorySchema>;

export const categoryListSchema = z.object({ rows: z.array(categorySchema), count: z.number().int() });
export type CategoryList = z.infer<typeof categoryListSchema>;

/** A category's subcategories, with the category itself for the page title. */
export const subcategoryListSchema = categoryListSchema.extend({ parent: categorySchema });
export type SubcategoryList = z.infer<typeof subcategoryListSchema>;
