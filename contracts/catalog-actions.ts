// What the staging grid does with the products a query selects (issue 14): the columns it shows and
// exports, bulk actions, the report and the export. All of them take the same query tree and search
// as the grid (contracts/query-tree.ts), so what a person sees is what they act on.
import { z } from 'zod';
import { productSelectionSchema, productSortFields, productStatuses } from './catalog';
import { exportFormats } from './exports';
import { queryTreeSchema } from './query-tree';

/** The grid's built-in columns (attribute columns are `attr.<code>`), in their default order. */
export const productColumns = [
  { key: 'image', label: 'Image', sort: null, export: false },
  { key: 'title', label: 'Title', sort: 'title', export: true },
  { key: 'sku', label: 'SKU', sort: 'sku', export: true },
  { key: 'seller', label: 'Seller', sort: null, export: true },
  { key: 'category', label: 'Category', sort: null, export: true },
  { key: 'status', label: 'Status', sort: null, export: true },
  { key: 'price', label: 'Price', sort: 'price', export: true },
  { key: 'inventory', label: 'Inventory', sort: 'inventory', export: true },
  { key: 'completeness', label: 'Completeness', sort: 'completeness', export: true },
  { key: 'updatedAt', label: 'Updated', sort: 'updatedAt', export: true },
  { key: 'createdAt', label: 'Created', sort: 'createdAt', export: true },
] as const;
export type ProductColumnKey = (typeof productColumns)[number]['key'];
export const productColumnKeys = productColumns.map((column) => column.key) as ProductColumnKey[];
export const defaultProductColumns: ProductColumnKey[] = productColumnKeys.filter(
  (key) => key !== 'createdAt',
);
export const exportableProductColumns = productColumns
  .filter((column) => column.export)
  .map((column) => column.key) as ProductColumnKey[];

/**
 * A bulk action on up to this many products runs in its request, one transaction, and answers its
 * result; a larger selection runs as a background task (`asJob`), in batches, answering `taskStatus`.
 */
export const BULK_LIMIT = 10_000;
/** No bulk action reaches more products than this, even as a task: a larger query is narrowed first. */
export const BULK_JOB_LIMIT = 1_000_000;

/**
 * How many products a selection holds, exactly, up to BULK_JOB_LIMIT (for a confirmation). `overLimit`:
 * more than that, so no bulk action takes it; `asJob`: more than BULK_LIMIT, so it runs as a task.
 */
export const selectionCountSchema = z.object({
  count: z.number().int(),
  overLimit: z.boolean(),
  asJob: z.boolean(),
});
export type SelectionCount = z.infer<typeof selectionCountSchema>;
export const selectionBodySchema = z.object({ selection: productSelectionSchema });

export const exportProductsBodySchema = z.object({
  query: queryTreeSchema.default({ combinator: 'and', children: [] }),
  search: z.string().trim().max(100).default(''),
  sort: z.enum(productSortFields).default('updatedAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  columns: z
    .array(z.enum(exportableProductColumns as [ProductColumnKey, ...ProductColumnKey[]]))
    .max(20)
    .default(exportableProductColumns),
  /** Attribute codes, each a column after the built-in ones. */
  attributeColumns: z.array(z.string().max(40)).max(60).default([]),
  format: z.enum(exportFormats).default('csv'),
});
export type ExportProductsBody = z.input<typeof exportProductsBodySchema>;

export const reportBodySchema = z.object({
  query: queryTreeSchema.default({ combinator: 'and', children: [] }),
  search: z.string().trim().max(100).default(''),
});
export type ReportBody = z.input<typeof reportBodySchema>;

/** A count under a name; `id` is null for "Other" and for products without a category. */
const bucket = z.object({ id: z.string().nullable(), label: z.string(), count: z.number().int() });
export type ReportBucket = z.infer<typeof bucket>;

/** Completeness in bands of 20 points; the last band is complete products only. */
export const completenessBands = ['0–19 %', '20–39 %', '40–59 %', '60–79 %', '80–99 %', '100 %'] as const;

export const catalogReportSchema = z.object({
  total: z.number().int(),
  byStatus: z.array(z.object({ status: z.enum(productStatuses), count: z.number().int() })),
  /** The largest categories and sellers, then one "Other" bucket with the rest. */
  byCategory: z.array(bucket),
  bySeller: z.array(bucket),
  completeness: z.array(z.object({ band: z.string(), count: z.number().int() })),
  /** Required attributes most often empty, with how many products miss each. */
  missingAttributes: z.array(
    z.object({ id: z.number().int(), code: z.string(), label: z.string(), count: z.number().int() }),
  ),
  withoutImages: z.number().int(),
  generatedAt: z.string(),
});
export type CatalogReport = z.infer<typeof catalogReportSchema>;

/** How many categories or sellers a report names before it groups the rest as "Other". */
export const REPORT_TOP = 12;
