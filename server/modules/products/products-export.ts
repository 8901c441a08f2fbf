// The staging products export: the grid's query (and search) in the grid's order, with the columns and
// attributes the person chose, through the one export job (exports/export-job.ts). The query is
// compiled when the job runs, against the attributes as they are then.
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  type AttributeValue,
  type ProductSortField,
  type ProductStatus,
  productSortFields,
  productStatusLabels,
} from '../../../contracts/catalog';
import {
  exportableProductColumns,
  exportProductsBodySchema,
  type ProductColumnKey,
  productColumns,
} from '../../../contracts/catalog-actions';
import { exportFormats } from '../../../contracts/exports';
import { queryTreeSchema } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { categories, products, sellers } from '../../db/schema';
import { JobFailure } from '../../jobs/worker';
import { HttpError } from '../../lib/http-error';
import type { FileStorage } from '../../lib/storage/types';
import { attributesByCode } from '../attributes/attribute-defs';
import { type AttributeDef, plainTextOf } from '../attributes/attribute-values';
import {
  type ExportCursor,
  type ExportDefinition,
  exportJobHandler,
  pastCursor,
} from '../exports/export-job';
import type { Cell, Column } from '../exports/table';
import { compileProductQuery, ownerScope } from './product-query';

export const PRODUCTS_EXPORT_KIND = 'export.products';

/** The job's payload: the export body as parsed, plus whose products a seller may export. */
export const productsExportPayloadSchema = z.object({
  query: queryTreeSchema,
  search: z.string(),
  sort: z.enum(productSortFields),
  order: z.enum(['asc', 'desc']),
  columns: z.array(z.enum(exportableProductColumns as [ProductColumnKey, ...ProductColumnKey[]])),
  attributeColumns: z.array(z.string()),
  format: z.enum(exportFormats),
  sellerId: z.string().nullable(),
});
export type ProductsExportPayload = z.infer<typeof productsExportPayloadSchema>;

export const productsExportPayload = (
  body: z.input<typeof exportProductsBodySchema>,
  sellerId: string | null,
): ProductsExportPayload => ({ ...exportProductsBodySchema.parse(body), sellerId });

interface ExportRow {
  id: string;
  cursorKey: string;
  title: string;
  sku: string;
  status: ProductStatus;
  seller_name: string;
  category_name: string | null;
  price_minor: number;
  currency: string;
  inventory: number;
  completeness: number;
  created_at: string | Date;
  updated_at: string | Date;
  attribute_values: AttributeValue[];
}

/** Sort keys and the type their text form is cast back to for the keyset. */
const sortKeys: Record<ProductSortField, { key: SQL; type: 'text' | 'timestamptz' | 'integer' }> = {
  updatedAt: { key: sql`${products.updatedAt}`, type: 'timestamptz' },
  createdAt: { key: sql`${products.createdAt}`, type: 'timestamptz' },
  title: { key: sql`${products.titleKey}`, type: 'text' },
  sku: { key: sql`${products.skuKey}`, type: 'text' },
  price: { key: sql`${products.priceMinor}`, type: 'integer' },
  inventory: { key: sql`${products.inventory}`, type: 'integer' },
  completeness: { key: sql`${products.completeness}`, type: 'integer' },
};

const labelOf = (key: ProductColumnKey) => productColumns.find((column) => column.key === key)?.label ?? key;

/** Built-in cells; price is followed by its currency so a sheet can sum prices per currency. */
const builtinCells: Record<string, (row: ExportRow) => Cell[]> = {
  title: (row) => [row.title],
  sku: (row) => [row.sku],
  seller: (row) => [row.seller_name],
  category: (row) => [row.category_name],
  status: (row) => [productStatusLabels[row.status]],
  price: (row) => [row.price_minor / 100, row.currency],
  inventory: (row) => [row.inventory],
  completeness: (row) => [row.completeness],
  updatedAt: (row) => [new Date(row.updated_at)],
  createdAt: (row) => [new Date(row.created_at)],
};

/** An attribute value as a sheet shows it: lists joined, rich text as plain text, JSON as text. */
function attributeCell(def: AttributeDef, value: AttributeValue | undefined): Cell {
  if (!value) return null;
  const items = 'values' in value ? value.values.map((item) => item.value) : [value.value];
  const shown = items.map((item) => {
    if (item === null || item === undefined) return '';
    if (def.dataType === 'WYSIWYG') return plainTextOf(String(item));
    if (def.dataType === 'BOOLEAN') return item ? 'Yes' : 'No';
    if (typeof item === 'object') return JSON.stringify(item);
    return String(item);
  });
  if (shown.length === 1 && (def.dataType === 'NUMBER' || def.dataType === 'FLOAT')) {
    const number = Number(items[0]);
    return Number.isFinite(number) ? number : (shown[0] ?? null);
  }
  return shown.join(', ');
}

async function whereOf(db: Db, payload: ProductsExportPayload): Promise<SQL> {
  try {
    const compiled = await compileProductQuery(db, payload.query, payload.search);
    return sql`(${ownerScope(payload.sellerId)} AND ${compiled.where})`;
  } catch (error) {
    // The query was valid when the export started; an attribute it names may have gone since.
    if (error instanceof HttpError) throw new JobFailure(error.message, true);
    throw error;
  }
}

const productsExport: ExportDefinition<ProductsExportPayload, ExportRow> = {
  kind: PRODUCTS_EXPORT_KIND,
  name: 'Products export',
  fileStem: 'products',
  sheetName: 'Products',
  noun: ['product', 'products'],
  payloadSchema: productsExportPayloadSchema,
  async columns(payload, db) {
    const defs = await attributesByCode(db, payload.attributeColumns);
    const byCode = new Map(defs.map((def) => [def.code, def]));
    const ordered = payload.attributeColumns.flatMap((code) => {
      const def = byCode.get(code);
      return def ? [def] : [];
    });
    const columns: Column[] = payload.columns.flatMap((key) =>
      key === 'price'
        ? [
            { header: 'Price', width: 12 },
            { header: 'Currency', width: 9 },
          ]
        : [{ header: labelOf(key), width: key === 'title' ? 40 : 18 }],
    );
    for (const def of ordered) {
      columns.push({ header: def.unit ? `${def.label} (${def.unit})` : def.label, width: 20 });
    }
    return { columns, context: ordered };
  },
  async count(db, payload) {
    const where = await whereOf(db, payload);
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::integer AS n FROM ${products} WHERE ${where}`),
    );
    return row?.n ?? 0;
  },
  async readBatch(db, payload, after: ExportCursor | null, limit) {
    const where = await whereOf(db, payload);
    const { key, type } = sortKeys[payload.sort];
    const descending = payload.order === 'desc';
    const direction = sql.raw(descending ? 'DESC' : 'ASC');
    const keyset = pastCursor(key, products.id, after, type, descending);
    return rowsOf<ExportRow>(
      await db.execute(sql`
        SELECT ${products.id} AS id, (${key})::text AS "cursorKey", ${products.title} AS title,
               ${products.sku} AS sku, ${products.status} AS status, ${sellers.sellerName} AS seller_name,
               ${categories.name} AS category_name, ${products.priceMinor} AS price_minor,
               ${products.currency} AS currency, ${products.inventory} AS inventory,
               ${products.completeness} AS completeness, ${products.createdAt} AS created_at,
               ${products.updatedAt} AS updated_at, ${products.attributeValues} AS attribute_values
        FROM ${products}
        JOIN ${sellers} ON ${sellers.id} = ${products.sellerId}
        LEFT JOIN ${categories} ON ${categories.id} = ${products.categoryId}
        WHERE ${where} AND ${keyset}
        ORDER BY ${key} ${direction}, ${products.id} ${direction}
        LIMIT ${limit}`),
    );
  },
  cellsOf(row, payload, context) {
    const defs = context as AttributeDef[];
    const values = new Map(row.attribute_values.map((value) => [value.keyId, value]));
    return [
      ...payload.columns.flatMap((key) => builtinCells[key]?.(row) ?? [null]),
      ...defs.map((def) => attributeCell(def, values.get(def.id))),
    ];
  },
};

export const productsExportHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(productsExport, options);
