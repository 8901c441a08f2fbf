// Moving a batch to staging (moveToStaging, moveToStagingOnlyPricingAndInventory,
// mergeDuplicatesToStaging). A move commits exactly what validation previewed:
// - a new product is inserted unless a product with its SKU appeared meanwhile (conflict);
// - an update writes each previewed change only if the product's stored value is still the previewed
//   "before" — any field changed in staging since is a conflict, reported, never overwritten;
// - a duplicate fills in only what its product has empty (MERGE_RULE).
// Rows are taken in chunks; each chunk's product writes, their history, the rows' results and the
// batch's counters are ONE transaction. A row with a result is never taken again, so running a move
// twice, or resuming it after a crash, creates and changes nothing twice.
import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AttributeValue, WeightUnit } from '../../../contracts/catalog';
import { plural } from '../../../contracts/domain/format';
import {
  type MoveKind,
  moveKindLabels,
  moveKinds,
  type ResultCounts,
  type RowResult,
} from '../../../contracts/imports';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { type FieldChange, importBatches, importRows, products } from '../../db/schema';
import { JobFailure, type JobHandler, yieldToEventLoop } from '../../jobs/worker';
import { recordAudit, recordAuditEntries } from '../../lib/audit';
import { attributeIndexOf, completenessOf } from '../attributes/attribute-values';
import { productKeys } from '../products/product-keys';
import { type Notify, tellLowStock } from '../stock/low-stock';
import { countStockMany, type StockCount, stockOf } from '../stock/stock';
import { importLink, loadBatchForJob, runBatchJob, setBatchStatus, stopBatchNow } from './batch-jobs';
import { type CatalogContext, loadCatalogContext } from './catalog-context';
import type { BatchRow, ImportRow } from './imports';
import { changeText, type Planned, type PlannedChange, type ProductFields } from './row-verdict';

export const MOVE_KIND = 'imports.move';
export const MOVE_CHUNK = 500;

export const movePayloadSchema = z.object({
  batchId: z.string().uuid(),
  kind: z.enum(moveKinds),
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
});
export type MovePayload = z.infer<typeof movePayloadSchema>;

export const moveTaskName = (kind: MoveKind, fileName: string) => `${moveKindLabels[kind]}: ${fileName}`;

/** Which rows a move takes (and which it leaves for another move). */
export function movableRows(kind: MoveKind) {
  if (kind === 'duplicates') return eq(importRows.outcome, 'duplicate');
  // A pricing sheet names only SKU, price and stock: its rows for unknown SKUs cannot be new products
  // (errors in a full move) and are reported as having no match.
  if (kind === 'pricing') return inArray(importRows.outcome, ['create', 'update', 'unchanged', 'error']);
  return inArray(importRows.outcome, ['create', 'update', 'unchanged']);
}

const PRICING_FIELDS = new Set(['priceMinor', 'currency', 'inventory']);

interface StoredProduct extends ProductFields {
  id: string;
  sku: string;
  attributeValues: AttributeValue[];
}

interface TakenRow {
  line: number;
  productId: string | null;
  planned: Planned | null;
  duplicateOf: { line: number | null; productId: string | null } | null;
}

interface RowOutcomeWrite {
  line: number;
  result: RowResult;
  message: string | null;
  productId: string | null;
}

/** A product's stored columns from its fields and values: keys, search index and completeness. */
function derivedColumns(
  fields: ProductFields & { sku: string },
  values: AttributeValue[],
  catalog: CatalogContext,
) {
  const set = fields.categoryId ? catalog.setOf(fields.categoryId) : new Map();
  // Values outside the category's set are dropped (as when a product changes category in the form),
  // and the rest keep the set's order.
  const byId = new Map(values.map((value) => [value.keyId, value]));
  const ordered = [...set.keys()].flatMap((id) => {
    const value = byId.get(id);
    return value ? [value] : [];
  });
  const { completeness, missingAttributes } = completenessOf(ordered, set);
  const keys = productKeys(fields.title, fields.sku);
  return {
    title: keys.title,
    title_key: keys.titleKey,
    sku: keys.sku,
    sku_key: keys.skuKey,
    category_id: fields.categoryId,
    price_minor: fields.priceMinor,
    currency: fields.currency,
    inventory: fields.inventory,
    weight: fields.weight,
    weight_unit: fields.weightUnit,
    attribute_values: ordered,
    attr_index: attributeIndexOf(ordered, set),
    completeness,
    missing: missingAttributes,
  };
}
type Derived = ReturnType<typeof derivedColumns>;

const RECORD_COLUMNS = sql.raw(`title text, title_key text, sku text, sku_key text, category_id uuid,
  price_minor integer, currency text, inventory integer, weight double precision, weight_unit text,
  attribute_values jsonb, attr_index jsonb, completeness integer, missing jsonb`);

async function insertProducts(tx: Tx, sellerId: string, rows: (Derived & { line: number })[]) {
  if (rows.length === 0) return new Map<string, string>();
  const inserted = rowsOf<{ id: string; sku_key: string }>(
    await tx.execute(sql`
      INSERT INTO products (seller_id, title, title_key, sku, sku_key, category_id, price_minor, currency,
                            inventory, weight, weight_unit, attribute_values, attr_index, completeness,
                            missing_attributes)
      SELECT ${sellerId}::uuid, x.title, x.title_key, x.sku, x.sku_key, x.category_id, x.price_minor, x.currency,
             x.inventory, x.weight, x.weight_unit, x.attribute_values, x.attr_index, x.completeness,
             ARRAY(SELECT jsonb_array_elements_text(x.missing)::integer)
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(line integer, ${RECORD_COLUMNS})
      ON CONFLICT (seller_id, sku_key) DO NOTHING
      RETURNING id, sku_key`),
  );
  return new Map(inserted.map((row) => [row.sku_key, row.id]));
}

async function updateProducts(tx: Tx, rows: (Derived & { id: string })[]) {
  if (rows.length === 0) return;
  await tx.execute(sql`
    UPDATE products AS p
    SET title = x.title, title_key = x.title_key, category_id = x.category_id, price_minor = x.price_minor,
        currency = x.currency, inventory = x.inventory, weight = x.weight, weight_unit = x.weight_unit,
        attribute_values = x.attribute_values, attr_index = x.attr_index, completeness = x.completeness,
        missing_attributes = ARRAY(SELECT jsonb_array_elements_text(x.missing)::integer),
        version = p.version + 1, updated_at = now()
    FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(id uuid, ${RECORD_COLUMNS})
    WHERE p.id = x.id`);
}

/** The chunk's product entries, in one statement. */
async function recordHistory(
  tx: Tx,
  actor: MovePayload['actor'],
  entries: { productId: string; action: string; changes: FieldChange[]; note: string }[],
) {
  await recordAuditEntries(
    tx,
    entries.map(({ productId, ...entry }) => ({
      subject: { type: 'product', id: productId },
      actor,
      ...entry,
    })),
  );
}

async function lockProducts(tx: Tx, sellerId: string, ids: string[]): Promise<Map<string, StoredProduct>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: products.id,
      sku: products.sku,
      title: products.title,
      categoryId: products.categoryId,
      priceMinor: products.priceMinor,
      currency: products.currency,
      inventory: products.inventory,
      weight: products.weight,
      weightUnit: products.weightUnit,
      attributeValues: products.attributeValues,
    })
    .from(products)
    .where(and(inArray(products.id, [...new Set(ids)]), eq(products.sellerId, sellerId)))
    .orderBy(products.id)
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function storedValue(product: StoredProduct, field: string): unknown {
  if (field.startsWith('attr:')) {
    const id = Number(field.slice(5));
    return product.attributeValues.find((value) => value.keyId === id) ?? null;
  }
  return product[field as keyof ProductFields];
}

/** The product with the changes applied. */
function applyChanges(product: StoredProduct, changes: readonly PlannedChange[]): StoredProduct {
  const next: StoredProduct = { ...product, attributeValues: [...product.attributeValues] };
  for (const change of changes) {
    if (change.field.startsWith('attr:')) {
      const id = Number(change.field.slice(5));
      next.attributeValues = next.attributeValues.filter((value) => value.keyId !== id);
      if (change.after) next.attributeValues.push(change.after as AttributeValue);
    } else {
      (next as unknown as Record<string, unknown>)[change.field] = change.after;
    }
  }
  return next;
}

interface ChunkContext {
  tx: Tx;
  /** Products whose on hand the chunk changed (their low-stock crossings are told after it commits). */
  touchedStock: string[];
  upload: ImportRow;
  batch: BatchRow;
  kind: MoveKind;
  actor: MovePayload['actor'];
  catalog: CatalogContext;
}

const noteOf = (context: ChunkContext, line: number) =>
  `Import ${context.upload.fileName}, batch ${context.batch.number}, line ${line}`;

/** New products (full moves); a pricing-only move reports them as not found. */
async function moveCreates(context: ChunkContext, rows: TakenRow[], out: RowOutcomeWrite[]) {
  if (context.kind === 'pricing') {
    for (const row of rows)
      out.push({
        line: row.line,
        result: 'no_match',
        message: 'No staging product has this SKU.',
        productId: null,
      });
    return;
  }
  const planned = rows.map((row) => {
    const plan = row.planned as Extract<Planned, { kind: 'create' }>;
    return {
      line: row.line,
      ...derivedColumns({ ...plan.fields, sku: plan.sku }, plan.attributeValues, context.catalog),
    };
  });
  const ids = await insertProducts(context.tx, context.upload.sellerId, planned);
  const history: Parameters<typeof recordHistory>[2] = [];
  for (const row of planned) {
    const id = ids.get(row.sku_key);
    if (id) {
      out.push({ line: row.line, result: 'created', message: null, productId: id });
      history.push({ productId: id, action: 'created', changes: [], note: noteOf(context, row.line) });
    } else {
      out.push({
        line: row.line,
        result: 'conflict',
        message:
          'A product with this SKU was added to staging after the preview. Reprocess the batch to compare with it.',
        productId: null,
      });
    }
  }
  await recordHistory(context.tx, context.actor, history);
}

/** Updates: each previewed change, if staging still holds its "before". */
async function moveUpdates(context: ChunkContext, rows: TakenRow[], out: RowOutcomeWrite[]) {
  const current = await lockProducts(
    context.tx,
    context.upload.sellerId,
    rows.map((row) => row.productId as string),
  );
  // Inventory is on hand: it changes through the stock path, never below what open orders hold.
  const reserved = new Map(
    (await stockOf(context.tx, [...current.keys()])).map((item) => [item.productId, item.reserved]),
  );
  const writes: (Derived & { id: string })[] = [];
  const counts: StockCount[] = [];
  const history: Parameters<typeof recordHistory>[2] = [];
  for (const row of rows) {
    const plan = row.planned as Extract<Planned, { kind: 'update' }>;
    const product = current.get(plan.productId);
    if (!product) {
      out.push({
        line: row.line,
        result: 'conflict',
        message: 'The product was deleted from staging after the preview.',
        productId: null,
      });
      continue;
    }
    const changes =
      context.kind === 'pricing'
        ? plan.changes.filter((change) => PRICING_FIELDS.has(change.field))
        : plan.changes;
    if (changes.length === 0) {
      out.push({
        line: row.line,
        result: 'unchanged',
        message: 'Price and inventory are already as in the sheet.',
        productId: product.id,
      });
      continue;
    }
    const stale = changes.filter((change) => !same(storedValue(product, change.field), change.before));
    if (stale.length) {
      const names = stale.map((change) => changeText(change, context.catalog).label).join(', ');
      out.push({
        line: row.line,
        result: 'conflict',
        message: `Changed in staging since the preview (${names}); nothing was overwritten. Reprocess the batch to compare again.`,
        productId: product.id,
      });
      continue;
    }
    const next = applyChanges(product, changes);
    const held = reserved.get(product.id) ?? 0;
    if (next.inventory !== product.inventory && next.inventory < held) {
      out.push({
        line: row.line,
        result: 'conflict',
        message: `Inventory cannot go below the ${plural(held, 'unit')} reserved by open orders; nothing was changed.`,
        productId: product.id,
      });
      continue;
    }
    if (next.inventory !== product.inventory)
      counts.push({ productId: product.id, counted: next.inventory, note: noteOf(context, row.line) });
    current.set(product.id, next);
    writes.push({ id: product.id, ...derivedColumns(next, next.attributeValues, context.catalog) });
    history.push({
      productId: product.id,
      action: 'updated',
      changes: changes.map((change) => {
        const text = changeText(change, context.catalog);
        return { field: text.label, before: text.before, after: text.after };
      }),
      note: noteOf(context, row.line),
    });
    out.push({ line: row.line, result: 'updated', message: null, productId: product.id });
  }
  await countStockMany(context.tx, counts, 'import', context.actor);
  await updateProducts(context.tx, writes);
  await recordHistory(context.tx, context.actor, history);
  context.touchedStock.push(...counts.map((count) => count.productId));
}

/** Duplicates: each fills in what its product has empty (MERGE_RULE), never overwriting. */
async function moveMerges(context: ChunkContext, rows: TakenRow[], out: RowOutcomeWrite[]) {
  // Rows that duplicate an earlier line merge into the product that line created or updated.
  const lines = rows
    .filter((row) => !row.productId && row.duplicateOf?.line)
    .map((row) => row.duplicateOf?.line as number);
  const byLine = new Map<number, string | null>();
  if (lines.length) {
    const found = await context.tx
      .select({ line: importRows.line, productId: importRows.productId, result: importRows.result })
      .from(importRows)
      .where(and(eq(importRows.batchId, context.batch.id), inArray(importRows.line, lines)));
    for (const row of found) byLine.set(row.line, row.result === 'conflict' ? null : row.productId);
  }
  const targetOf = (row: TakenRow) => row.productId ?? byLine.get(row.duplicateOf?.line ?? -1) ?? null;
  const current = await lockProducts(
    context.tx,
    context.upload.sellerId,
    rows.map(targetOf).filter((id): id is string => Boolean(id)),
  );
  const touched = new Map<string, StoredProduct>();
  const history: Parameters<typeof recordHistory>[2] = [];
  for (const row of rows) {
    const target = targetOf(row);
    const product = target ? (touched.get(target) ?? current.get(target)) : undefined;
    if (!product) {
      out.push({
        line: row.line,
        result: 'skipped',
        message: row.duplicateOf?.line
          ? `Line ${row.duplicateOf.line} is not in staging yet: move the batch to staging first.`
          : 'The product this row duplicates is no longer in staging.',
        productId: null,
      });
      continue;
    }
    const plan = row.planned as Extract<Planned, { kind: 'merge' }>;
    const set = product.categoryId ? context.catalog.setOf(product.categoryId) : new Map();
    const changes: PlannedChange[] = [];
    if (product.weight === null && plan.weight !== null) {
      changes.push({ field: 'weight', before: null, after: plan.weight });
      if (product.weightUnit !== plan.weightUnit)
        changes.push({
          field: 'weightUnit',
          before: product.weightUnit,
          after: plan.weightUnit as WeightUnit,
        });
    }
    const filled = new Set(product.attributeValues.map((value) => value.keyId));
    for (const value of plan.attributeValues) {
      if (!filled.has(value.keyId) && set.has(value.keyId))
        changes.push({ field: `attr:${value.keyId}`, before: null, after: value });
    }
    if (changes.length === 0) {
      out.push({
        line: row.line,
        result: 'unchanged',
        message: 'The product already has every value this row holds.',
        productId: product.id,
      });
      continue;
    }
    touched.set(product.id, applyChanges(product, changes));
    history.push({
      productId: product.id,
      action: 'merged',
      changes: changes.map((change) => {
        const text = changeText(change, context.catalog);
        return { field: text.label, before: text.before, after: text.after };
      }),
      note: noteOf(context, row.line),
    });
    out.push({ line: row.line, result: 'merged', message: null, productId: product.id });
  }
  await updateProducts(
    context.tx,
    [...touched.values()].map((product) => ({
      id: product.id,
      ...derivedColumns(product, product.attributeValues, context.catalog),
    })),
  );
  await recordHistory(context.tx, context.actor, history);
}

/** A chunk's rows moved, each row's result stored, `results` counted. */
async function moveRows(context: ChunkContext, taken: TakenRow[], results: ResultCounts) {
  const out: RowOutcomeWrite[] = [];
  const kindOf = (row: TakenRow) => row.planned?.kind;
  await moveCreates(
    context,
    taken.filter((row) => kindOf(row) === 'create'),
    out,
  );
  await moveUpdates(
    context,
    taken.filter((row) => kindOf(row) === 'update'),
    out,
  );
  for (const row of taken.filter((candidate) => kindOf(candidate) === 'none'))
    out.push({ line: row.line, result: 'unchanged', message: null, productId: row.productId });
  for (const row of taken.filter((candidate) => !candidate.planned)) {
    out.push(
      row.productId
        ? {
            line: row.line,
            result: 'skipped',
            message: 'The row has errors: fix them and upload the sheet again.',
            productId: row.productId,
          }
        : {
            line: row.line,
            result: 'no_match',
            message: 'No staging product has this SKU.',
            productId: null,
          },
    );
  }
  if (context.kind === 'duplicates')
    await moveMerges(
      context,
      taken.filter((row) => kindOf(row) === 'merge'),
      out,
    );
  for (const row of out) results[row.result] += 1;
  await context.tx.execute(sql`
    UPDATE ${importRows} AS r SET result = x.result, result_message = x.message, product_id = coalesce(x.product_id, r.product_id)
    FROM json_to_recordset(${JSON.stringify(
      out.map((row) => ({
        line: row.line,
        result: row.result,
        message: row.message,
        product_id: row.productId,
      })),
    )}::json) AS x(line integer, result text, message text, product_id uuid)
    WHERE r.batch_id = ${context.batch.id} AND r.line = x.line`);
}

/**
 * Moves the rows of the next window of MOVE_CHUNK lines after `cursor.line` (the batch's move_line);
 * answers how many rows it took and whether the batch was asked to stop. The chunk holds the batch
 * row, so chunks of one batch never overlap, and a worker whose cursor is no longer the batch's (it
 * lost its lease to another) fails before writing anything. A window of lines, not "the next 500
 * movable rows": that would read every row left to move and sort them, for each chunk (quadratic in the
 * sheet); a window is one bounded index range. `result IS NULL` still keeps a row from being moved twice.
 */
async function moveChunk(
  db: Db,
  base: Omit<ChunkContext, 'tx'>,
  cursor: { line: number },
  results: ResultCounts,
): Promise<{ taken: number; stop: boolean }> {
  return db.transaction(async (tx) => {
    const [held] = rowsOf<{ line: number }>(
      await tx.execute(
        sql`SELECT move_line AS line FROM ${importBatches} WHERE id = ${base.batch.id} FOR UPDATE`,
      ),
    );
    if (held?.line !== cursor.line) throw new Error('another worker moved this batch on');
    const end = cursor.line + MOVE_CHUNK;
    const taken = (await tx
      .select({
        line: importRows.line,
        productId: importRows.productId,
        planned: importRows.planned,
        duplicateOf: importRows.duplicateOf,
      })
      .from(importRows)
      .where(
        and(
          eq(importRows.batchId, base.batch.id),
          gt(importRows.line, cursor.line),
          lte(importRows.line, end),
          movableRows(base.kind),
          isNull(importRows.result),
        ),
      )
      .orderBy(importRows.line)) as TakenRow[];
    if (taken.length) await moveRows({ ...base, tx }, taken, results);
    const [batch] = rowsOf<{ stop: boolean }>(
      await tx.execute(sql`
        UPDATE ${importBatches} SET rows_moved = rows_moved + ${taken.length}, move_line = ${end},
               results = ${JSON.stringify(results)}::jsonb, updated_at = now()
        WHERE id = ${base.batch.id}
        RETURNING stop_requested AS stop`),
    );
    cursor.line = end;
    return { taken: taken.length, stop: batch?.stop ?? false };
  });
}

function resultsNote(results: ResultCounts) {
  // Each result's words for one and for more ("1 conflict", "2 conflicts"; "3 created").
  const words: [keyof ResultCounts, string, string][] = [
    ['created', 'created', 'created'],
    ['updated', 'updated', 'updated'],
    ['merged', 'merged', 'merged'],
    ['unchanged', 'unchanged', 'unchanged'],
    ['conflict', 'conflict', 'conflicts'],
    ['no_match', 'without a matching SKU', 'without a matching SKU'],
    ['skipped', 'skipped', 'skipped'],
  ];
  const parts = words
    .filter(([key]) => results[key] > 0)
    .map(([key, one, many]) => plural(results[key], one, many));
  return parts.length ? parts.join(', ') : 'nothing to move';
}

export function moveHandler(options: { db: Db; notify?: Notify }): JobHandler {
  const { db } = options;
  return async (context) => {
    const parsed = movePayloadSchema.safeParse(context.payload);
    if (!parsed.success) throw new JobFailure('The move settings are not valid.', true);
    const { kind, actor } = parsed.data;
    const { batch, upload } = await loadBatchForJob(db, context.payload);
    const what = moveKindLabels[kind];
    return runBatchJob(db, context, batch.id, async () => {
      if (batch.stopRequested) return stopBatchNow(db, batch, upload, what);
      await setBatchStatus(db, batch.id, 'moving', {
        step: 'move',
        moveKind: kind,
        error: null,
        finishedAt: null,
      });
      const catalog = await loadCatalogContext(db);
      const before = { ...batch.results };
      const results = { ...batch.results };
      const started = Date.now();
      let moved = 0;
      const cursor = { line: batch.moveLine };
      for (;;) {
        context.signal.throwIfAborted();
        const touchedStock: string[] = [];
        const { taken, stop } = await moveChunk(
          db,
          { upload, batch, kind, actor, catalog, touchedStock },
          cursor,
          results,
        );
        if (options.notify && touchedStock.length) await tellLowStock(db, touchedStock, options.notify);
        moved += taken;
        const done = batch.rowsMoved + moved;
        await db
          .update(importBatches)
          .set({ rowsPerSecond: moved / Math.max((Date.now() - started) / 1000, 0.001) })
          .where(eq(importBatches.id, batch.id));
        await context.setProgress(Math.min(99, (100 * done) / Math.max(batch.rowsToMove, 1)));
        if (cursor.line >= batch.checkpointLine) break;
        if (stop) return stopBatchNow(db, batch, upload, what);
        await yieldToEventLoop();
      }
      await setBatchStatus(db, batch.id, 'moved', { finishedAt: new Date() });
      const delta = Object.fromEntries(
        Object.entries(results).map(([key, value]) => [key, value - before[key as keyof ResultCounts]]),
      ) as ResultCounts;
      await recordAudit(db, {
        subject: { type: 'import', id: upload.id },
        actor,
        action: 'moved',
        changes: [{ field: what, before: null, after: resultsNote(delta) }],
        note: `Batch ${batch.number}: ${resultsNote(delta)}.`,
      });
      return {
        batchId: batch.id,
        results: delta,
        title: `${what} is done`,
        body: `${upload.fileName}: ${resultsNote(delta)}.`,
        link: importLink(upload.id),
      };
    });
  };
}
