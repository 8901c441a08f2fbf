// The attributes admin (issue 14): attribute definitions, their options and categories' attribute sets.
//
// What may change once products depend on an attribute:
// - the label, the group, the unit and whether it is required: always;
// - the data type and single/multi: only while no product holds a value for it (a stored value has the
//   shape and type it was checked against; converting would silently lose or invent data);
// - the code: only while no product holds a value and no saved view names it (`attr.<code>` in its query
//   or columns), since both would break without saying so;
// - options: added, renamed (the label copied into products' stored values follows in the same
//   transaction) and reordered freely; an option chosen by products is never deleted (409 with the count);
// - deleting an attribute is refused while products hold values for it (409 with the count): values are
//   seller data, and no admin click removes them across the catalogue. Taking it out of the categories'
//   sets hides it from product forms without losing anything.
//
// A category's own set never repeats what it inherits from its parent: a subcategory may not list its
// parent's attributes, and a parent that gains an attribute takes it out of its subcategories' own sets
// (their products see the same set). Values of an attribute taken out of a set stay stored (re-adding it
// brings them back) and no longer count for completeness.
//
// Whenever the required attributes of a category change (isRequired flips, a set changes, a required
// attribute is deleted), the completeness and missing attributes of its products (and of its
// subcategories' products) are recomputed by a job queued in the same transaction (completeness-job.ts):
// the answer carries its `taskStatus`, and the person who made the change follows it to its task toast.
import { and, asc, count, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import {
  type AttributeDetail,
  type AttributeSummary,
  type CategoryAttributeSet,
  type CategoryRef,
  type ListAttributesQuery,
  type ListSetCategoriesQuery,
  listAttributesQuerySchema,
  listSetCategoriesQuerySchema,
  type SetCategoryList,
  type UpdateAttributeAdminBody,
  updateAttributeAdminBodySchema,
} from '../../../contracts/attribute-admin';
import {
  type Attribute,
  type AttributeDataType,
  type AttributeType,
  attributeDataTypeLabels,
  attributeFieldKey,
  type CreateAttributeBody,
  createAttributeBodySchema,
  multiValueDataTypes,
  unitDataTypes,
} from '../../../contracts/catalog';
import { plural } from '../../../contracts/domain/format';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import {
  attributeOptions,
  attributes,
  categories,
  categoryAttributes,
  products,
  savedViews,
} from '../../db/schema';
import { taskAccepted } from '../../jobs/queue';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { isUniqueViolation } from '../../lib/pg-errors';
import { queueCompletenessRecompute } from './completeness-job';

type CreateBody = ReturnType<typeof createAttributeBodySchema.parse>;
type UpdateBody = ReturnType<typeof updateAttributeAdminBodySchema.parse>;
type AttributeRow = typeof attributes.$inferSelect;

const attributeNotFound = () => new HttpError(404, 'There is no such attribute.', 'ATTRIBUTE_NOT_FOUND');
const categoryNotFound = () => new HttpError(404, 'There is no such category.', 'CATEGORY_NOT_FOUND');

/** A SQL list of values for `IN (…)`; callers never pass an empty list. */
const listOf = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

// ── Reading ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * Counted per row in the same query. Spelled with the outer table named: drizzle leaves columns
 * unqualified when a query has one table, and a bare `id` in the subquery would be the subquery's own.
 */
const summaryColumns = {
  attribute: attributes,
  optionCount: sql<number>`(select count(*)::int from "attribute_options" as "o" where "o"."attribute_id" = "attributes"."id")`,
  categoryCount: sql<number>`(select count(*)::int from "category_attributes" as "ca" where "ca"."attribute_id" = "attributes"."id")`,
};

function toSummary(row: {
  attribute: AttributeRow;
  optionCount: number;
  categoryCount: number;
}): AttributeSummary {
  const { attribute } = row;
  return {
    id: attribute.id,
    code: attribute.code,
    label: attribute.label,
    dataType: attribute.dataType,
    attributeType: attribute.attributeType,
    isRequired: attribute.isRequired,
    unit: attribute.unit,
    groupName: attribute.groupName,
    optionCount: Number(row.optionCount),
    categoryCount: Number(row.categoryCount),
    updatedAt: attribute.updatedAt.toISOString(),
  };
}

/** One page of attributes, by label, searchable by code or label and filtered by data type and group. */
export async function listAttributes(db: Db, input: ListAttributesQuery) {
  const query = listAttributesQuerySchema.parse(input);
  const filters: SQL[] = [];
  if (query.query) {
    const pattern = containsPattern(query.query);
    filters.push(or(ilike(attributes.code, pattern), ilike(attributes.label, pattern)) as SQL);
  }
  if (query.dataType) filters.push(eq(attributes.dataType, query.dataType));
  if (query.groupName) filters.push(eq(attributes.groupName, query.groupName));
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select(summaryColumns)
      .from(attributes)
      .where(where)
      .orderBy(asc(attributes.label), asc(attributes.code))
      .limit(query.limit)
      .offset(query.skip),
    db.select({ n: count() }).from(attributes).where(where),
  ]);
  return { result: rows.map(toSummary), count: total?.n ?? 0 };
}

/** The group names in use, for the filter and the editor's suggestions. */
export async function listAttributeGroups(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ name: attributes.groupName })
    .from(attributes)
    .orderBy(asc(attributes.groupName))
    .limit(500);
  return rows.map((row) => row.name);
}

async function findAttribute(db: Db | Tx, id: number, lock = false): Promise<AttributeRow> {
  const query = db.select().from(attributes).where(eq(attributes.id, id));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw attributeNotFound();
  return row;
}

/** Products holding a value for the attribute, whatever their category (attr_index has a key per value). */
export async function productsUsing(db: Db | Tx, attributeId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::int AS n FROM ${products} WHERE (${products.attrIndex} -> ${String(attributeId)}) IS NOT NULL`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** How many products chose each option of an ENUMERATED attribute (only options someone chose). */
async function optionUsage(db: Db | Tx, attributeId: number, optionIds?: number[]) {
  const key = String(attributeId);
  const only = optionIds?.length ? sql`AND (item.value)::text::int IN (${listOf(optionIds)})` : sql``;
  const rows = rowsOf<{ id: number; n: number }>(
    await db.execute(sql`
      SELECT (item.value)::text::int AS id, count(*)::int AS n
      FROM ${products} AS p, jsonb_array_elements(p.attr_index -> ${key}) AS item(value)
      WHERE jsonb_typeof(p.attr_index -> ${key}) = 'array' ${only}
      GROUP BY 1`),
  );
  return new Map(rows.map((row) => [Number(row.id), Number(row.n)]));
}

/** Saved views whose query or columns name the attribute's field (`"attr.<code>"` in their JSON). */
async function savedViewsNaming(db: Db | Tx, code: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(savedViews)
    .where(sql`${savedViews.state}::text LIKE ${containsPattern(JSON.stringify(attributeFieldKey(code)))}`);
  return row?.n ?? 0;
}

async function categoryRefs(db: Db | Tx, ids: string[]): Promise<CategoryRef[]> {
  if (ids.length === 0) return [];
  const rows = rowsOf<{ id: string; name: string; parent_id: string | null; parent_name: string | null }>(
    await db.execute(sql`
      SELECT c.id, c.name, c.parent_id, parent.name AS parent_name
      FROM ${categories} AS c LEFT JOIN ${categories} AS parent ON parent.id = c.parent_id
      WHERE c.id IN (${listOf(ids)})
      ORDER BY coalesce(parent.name, c.name), c.parent_id NULLS FIRST, c.name`),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    parentName: row.parent_name,
  }));
}

/** One attribute as the editor shows it: options with their use, categories, and what depends on it. */
export async function getAttributeDetail(db: Db | Tx, id: number): Promise<AttributeDetail> {
  const [row] = await db.select(summaryColumns).from(attributes).where(eq(attributes.id, id));
  if (!row) throw attributeNotFound();
  const [options, usage, holders, productCount, savedViewCount] = await Promise.all([
    db
      .select()
      .from(attributeOptions)
      .where(eq(attributeOptions.attributeId, id))
      .orderBy(asc(attributeOptions.sortOrder), asc(attributeOptions.id)),
    row.attribute.dataType === 'ENUMERATED' ? optionUsage(db, id) : new Map<number, number>(),
    db
      .select({ id: categoryAttributes.categoryId })
      .from(categoryAttributes)
      .where(eq(categoryAttributes.attributeId, id)),
    productsUsing(db, id),
    savedViewsNaming(db, row.attribute.code),
  ]);
  return {
    ...toSummary(row),
    options: options.map((option) => ({
      valueId: option.id,
      value: option.value,
      productCount: usage.get(option.id) ?? 0,
    })),
    categories: await categoryRefs(
      db,
      holders.map((holder) => holder.id),
    ),
    productCount,
    savedViewCount,
  };
}

/** Categories whose own set holds any of these attributes. */
async function categoriesHolding(tx: Db | Tx, attributeIds: number[]): Promise<string[]> {
  if (attributeIds.length === 0) return [];
  const rows = await tx
    .selectDistinct({ id: categoryAttributes.categoryId })
    .from(categoryAttributes)
    .where(inArray(categoryAttributes.attributeId, attributeIds));
  return rows.map((row) => row.id);
}

// ── Checks shared by create and update ──────────────────────────────────────────────────────────────

interface Shape {
  dataType: AttributeDataType;
  attributeType: AttributeType;
  unit: string | null;
  optionCount: number;
}

/** What a data type allows: a unit for numbers only, several values for lists only, options for ENUMERATED. */
function checkShape(shape: Shape) {
  const typeLabel = attributeDataTypeLabels[shape.dataType].toLowerCase();
  if (shape.unit && !unitDataTypes.has(shape.dataType)) {
    const message = `A ${typeLabel} attribute has no unit: only whole and decimal numbers do.`;
    throw new HttpError(400, message, 'INVALID_ATTRIBUTE', { unit: message });
  }
  if (shape.attributeType === 'MULTI' && !multiValueDataTypes.has(shape.dataType)) {
    const message = `A ${typeLabel} attribute holds one value: only options, texts, images and videos can hold several.`;
    throw new HttpError(400, message, 'INVALID_ATTRIBUTE', { attributeType: message });
  }
  if (shape.optionCount > 0 && shape.dataType !== 'ENUMERATED') {
    const message = 'Only an attribute of type Options has options.';
    throw new HttpError(400, message, 'INVALID_ATTRIBUTE', { options: message });
  }
}

/** Option labels are unique per attribute, ignoring case (as the unique index attribute_options_value_uq). */
function checkOptionLabels(labels: readonly string[]) {
  const seen = new Map<string, number>();
  for (const [index, label] of labels.entries()) {
    const key = label.toLowerCase();
    if (seen.has(key)) {
      const message = `“${label}” is already an option.`;
      throw new HttpError(409, message, 'DUPLICATE_OPTION', { [`options.${index}`]: message });
    }
    seen.set(key, index);
  }
}

const codeTaken = (code: string) => {
  const message = `Another attribute already has the code “${code}”.`;
  return new HttpError(409, message, 'CODE_TAKEN', { code: message });
};

async function assertCodeFree(tx: Tx, code: string) {
  const [clash] = await tx.select({ id: attributes.id }).from(attributes).where(eq(attributes.code, code));
  if (clash) throw codeTaken(code);
}

/**
 * The categories an attribute is attached to: all must exist, and a subcategory is not listed with its
 * own parent (it inherits from it). Locked for share so none disappears before the transaction ends.
 */
async function checkCategories(tx: Tx, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await tx
    .select({ id: categories.id, name: categories.name, parentId: categories.parentId })
    .from(categories)
    .where(inArray(categories.id, unique))
    .for('share');
  if (rows.length !== unique.length) {
    const message = 'Choose categories that exist.';
    throw new HttpError(400, message, 'INVALID_CATEGORY', { categoryIds: message });
  }
  const listed = new Set(unique);
  const child = rows.find((row) => row.parentId && listed.has(row.parentId));
  if (child) {
    const message = `${child.name} inherits the attribute from its parent category: leave it out.`;
    throw new HttpError(400, message, 'INVALID_CATEGORY', { categoryIds: message });
  }
  return unique;
}

/** Appends the attribute to each category's set (last position) and drops it from their subcategories' own sets. */
async function attachToCategories(tx: Tx, attributeId: number, categoryIds: readonly string[]) {
  if (categoryIds.length === 0) return;
  await tx.execute(sql`
    INSERT INTO ${categoryAttributes} (category_id, attribute_id, sort_order)
    SELECT c.id, ${attributeId}::int,
      coalesce((SELECT max(x.sort_order) + 1 FROM ${categoryAttributes} AS x WHERE x.category_id = c.id), 0)
    FROM ${categories} AS c WHERE c.id IN (${listOf(categoryIds)})
    ON CONFLICT DO NOTHING`);
  await dropInheritedFromSubcategories(tx, categoryIds);
}

/** A subcategory's own set never repeats what its parent holds: the parent's copy is the one that counts. */
async function dropInheritedFromSubcategories(tx: Tx, parentIds: readonly string[]) {
  if (parentIds.length === 0) return;
  await tx.execute(sql`
    DELETE FROM ${categoryAttributes} AS own
    USING ${categories} AS sub, ${categoryAttributes} AS parent_set
    WHERE own.category_id = sub.id
      AND sub.parent_id IN (${listOf(parentIds)})
      AND parent_set.category_id = sub.parent_id
      AND parent_set.attribute_id = own.attribute_id`);
}

// ── Create, update, delete ──────────────────────────────────────────────────────────────────────────

/** An answer that may have queued a completeness recompute: its task rides along (SPEC §7 taskStatus). */
export type WithRecompute<T> = T & { taskStatus?: ReturnType<typeof taskAccepted>['taskStatus'] };

/** The recompute queued by a change (none when no required attribute moved), as the answer's extra. */
async function queueRecompute(tx: Tx, ownerId: string | null, categoryIds: readonly string[]) {
  const job = await queueCompletenessRecompute(tx, ownerId, categoryIds);
  return job ? taskAccepted(job) : {};
}

export async function createAttribute(
  db: Db,
  input: CreateAttributeBody,
  ownerId: string | null = null,
): Promise<WithRecompute<AttributeDetail>> {
  const body: CreateBody = createAttributeBodySchema.parse(input);
  const dataType = body.dataType;
  checkShape({
    dataType,
    attributeType: body.attributeType,
    unit: body.unit,
    optionCount: body.options.length,
  });
  checkOptionLabels(body.options);
  try {
    return await db.transaction(async (tx) => {
      await assertCodeFree(tx, body.code);
      const categoryIds = await checkCategories(tx, body.categoryIds);
      const [last] = await tx
        .select({ max: sql<number | null>`max(${attributes.sortOrder})` })
        .from(attributes);
      const [row] = (await tx
        .insert(attributes)
        .values({
          code: body.code,
          label: body.label,
          dataType,
          attributeType: body.attributeType,
          isRequired: body.isRequired,
          unit: body.unit || null,
          groupName: body.groupName || 'Attributes',
          // New attributes come after the others of their group on product pages.
          sortOrder: Number(last?.max ?? -1) + 1,
        })
        .returning()) as [AttributeRow];
      if (body.options.length) {
        await tx
          .insert(attributeOptions)
          .values(body.options.map((value, sortOrder) => ({ attributeId: row.id, value, sortOrder })));
      }
      await attachToCategories(tx, row.id, categoryIds);
      const queued = await queueRecompute(tx, ownerId, body.isRequired ? categoryIds : []);
      return { ...(await getAttributeDetail(tx, row.id)), ...queued };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'attributes_code_uq')) throw codeTaken(body.code);
    throw error;
  }
}

/** A change that stored values depend on is refused while any product holds one. */
function assertNoValues(productCount: number, field: 'code' | 'dataType' | 'attributeType', label: string) {
  if (productCount === 0) return;
  const what = { code: 'code', dataType: 'data type', attributeType: 'single or multiple choice' }[field];
  const message = `${plural(productCount, 'product holds', 'products hold')} a value for ${label}: its ${what} can no longer change.`;
  throw new HttpError(409, message, 'ATTRIBUTE_HAS_VALUES', { [field]: message });
}

/**
 * Options as the editor sends them: the full list in order. Kept ones are renamed and reordered, new
 * ones added, missing ones deleted unless products chose them. Renamed labels are copied into the
 * products' stored values, found through the attr_index GIN index.
 */
async function syncOptions(
  tx: Tx,
  attributeId: number,
  wanted: readonly { valueId?: number; value: string }[],
) {
  checkOptionLabels(wanted.map((option) => option.value));
  const existing = await tx
    .select()
    .from(attributeOptions)
    .where(eq(attributeOptions.attributeId, attributeId))
    .for('update');
  const byId = new Map(existing.map((option) => [option.id, option]));
  const kept = new Set<number>();
  for (const [index, option] of wanted.entries()) {
    if (option.valueId === undefined) continue;
    if (!byId.has(option.valueId) || kept.has(option.valueId)) {
      const message = 'This option is not one of the attribute’s: reload and try again.';
      throw new HttpError(400, message, 'INVALID_OPTION', { [`options.${index}`]: message });
    }
    kept.add(option.valueId);
  }
  const removed = existing.filter((option) => !kept.has(option.id));
  if (removed.length) {
    const usage = await optionUsage(
      tx,
      attributeId,
      removed.map((option) => option.id),
    );
    const used = removed.filter((option) => (usage.get(option.id) ?? 0) > 0);
    if (used.length) {
      const first = used[0] as (typeof used)[number];
      const uses = usage.get(first.id) ?? 0;
      const message =
        used.length === 1
          ? `Option “${first.value}” is chosen by ${plural(uses, 'product')}: choose another option on ${uses === 1 ? 'it' : 'them'} before deleting it.`
          : `${used.length} of the options you removed are chosen by products (“${first.value}” by ${plural(uses, 'product')}): choose other options on those products before deleting them.`;
      throw new HttpError(409, message, 'OPTION_IN_USE', { options: message });
    }
    await tx.delete(attributeOptions).where(
      inArray(
        attributeOptions.id,
        removed.map((option) => option.id),
      ),
    );
  }
  const renamed = wanted.filter(
    (option): option is { valueId: number; value: string } =>
      option.valueId !== undefined && byId.get(option.valueId)?.value !== option.value,
  );
  // Swapping two labels, or changing only the case, would trip the unique index half-way: park first.
  if (renamed.length) {
    await tx
      .update(attributeOptions)
      .set({ value: sql`'\u0001' || ${attributeOptions.id}::text` })
      .where(
        inArray(
          attributeOptions.id,
          renamed.map((option) => option.valueId),
        ),
      );
  }
  const moved = wanted.flatMap((option, sortOrder) => {
    if (option.valueId === undefined) return [];
    const before = byId.get(option.valueId);
    return before && (before.value !== option.value || before.sortOrder !== sortOrder)
      ? [{ id: option.valueId, value: option.value, sortOrder }]
      : [];
  });
  if (moved.length) {
    await tx.execute(sql`
      UPDATE ${attributeOptions} AS o SET value = v.value, sort_order = v.sort_order
      FROM (VALUES ${sql.join(
        moved.map((option) => sql`(${option.id}::int, ${option.value}::text, ${option.sortOrder}::int)`),
        sql`, `,
      )}) AS v(id, value, sort_order)
      WHERE o.id = v.id`);
  }
  const added = wanted.flatMap((option, sortOrder) =>
    option.valueId === undefined ? [{ attributeId, value: option.value, sortOrder }] : [],
  );
  if (added.length) await tx.insert(attributeOptions).values(added);
  for (const option of renamed) await relabelOption(tx, attributeId, option.valueId, option.value);
}

/**
 * Products store an option's label beside its id (SPEC §3 `{ value, valueId }`): a renamed option's new
 * label replaces the old one in every product that chose it, SINGLE or MULTI, in place. Only those
 * products are read (attr_index containment, GIN); their version and update time stay.
 */
async function relabelOption(tx: Tx, attributeId: number, optionId: number, label: string) {
  const chosen = JSON.stringify({ [String(attributeId)]: [optionId] });
  await tx.execute(sql`
    UPDATE ${products} AS p SET attribute_values = (
      SELECT coalesce(jsonb_agg(
        CASE
          WHEN (entry.v ->> 'keyId')::int <> ${attributeId}::int THEN entry.v
          WHEN entry.v ? 'values' THEN jsonb_set(entry.v, '{values}', (
            SELECT coalesce(jsonb_agg(
              CASE WHEN item.x ->> 'valueId' = ${String(optionId)}
                THEN jsonb_set(item.x, '{value}', to_jsonb(${label}::text)) ELSE item.x END
              ORDER BY item.n), '[]'::jsonb)
            FROM jsonb_array_elements(entry.v -> 'values') WITH ORDINALITY AS item(x, n)))
          WHEN entry.v ->> 'valueId' = ${String(optionId)}
            THEN jsonb_set(entry.v, '{value}', to_jsonb(${label}::text))
          ELSE entry.v
        END ORDER BY entry.n), '[]'::jsonb)
      FROM jsonb_array_elements(p.attribute_values) WITH ORDINALITY AS entry(v, n))
    WHERE p.attr_index @> CAST(${chosen} AS jsonb)`);
}

export async function updateAttribute(
  db: Db,
  id: number,
  input: UpdateAttributeAdminBody,
  ownerId: string | null = null,
): Promise<WithRecompute<AttributeDetail>> {
  const body: UpdateBody = updateAttributeAdminBodySchema.parse(input);
  try {
    return await db.transaction(async (tx) => {
      const current = await findAttribute(tx, id, true);
      const dataType = body.dataType ?? current.dataType;
      const attributeType = body.attributeType ?? current.attributeType;
      const isRequired = body.isRequired ?? current.isRequired;
      // A type without a unit drops the one it had, unless the edit names one (then it is refused).
      const unit =
        body.unit !== undefined ? body.unit || null : unitDataTypes.has(dataType) ? current.unit : null;
      const changesCode = body.code !== undefined && body.code !== current.code;
      const changesType = dataType !== current.dataType;
      const changesArity = attributeType !== current.attributeType;
      const [{ n: storedOptions } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(attributeOptions)
        .where(eq(attributeOptions.attributeId, id));
      // Leaving ENUMERATED drops the options (nothing can use them: no product holds a value).
      const optionCount =
        dataType === 'ENUMERATED' ? (body.options?.length ?? storedOptions) : (body.options?.length ?? 0);
      checkShape({ dataType, attributeType, unit, optionCount });

      if (changesCode || changesType || changesArity) {
        const productCount = await productsUsing(tx, id);
        if (changesCode) assertNoValues(productCount, 'code', current.label);
        if (changesType) assertNoValues(productCount, 'dataType', current.label);
        if (changesArity) assertNoValues(productCount, 'attributeType', current.label);
      }
      if (changesCode && body.code) {
        const views = await savedViewsNaming(tx, current.code);
        if (views > 0) {
          const message = `${plural(views, 'saved view names', 'saved views name')} ${current.label} by its code: it can no longer change.`;
          throw new HttpError(409, message, 'ATTRIBUTE_IN_SAVED_VIEWS', { code: message });
        }
        await assertCodeFree(tx, body.code);
      }

      if (dataType !== 'ENUMERATED' && storedOptions > 0) {
        await tx.delete(attributeOptions).where(eq(attributeOptions.attributeId, id));
      }
      if (dataType === 'ENUMERATED' && body.options !== undefined) await syncOptions(tx, id, body.options);

      const recompute = new Set<string>();
      if (body.categoryIds !== undefined) {
        const wanted = await checkCategories(tx, body.categoryIds);
        const before = await categoriesHolding(tx, [id]);
        const removed = before.filter((categoryId) => !wanted.includes(categoryId));
        const added = wanted.filter((categoryId) => !before.includes(categoryId));
        if (removed.length) {
          await tx
            .delete(categoryAttributes)
            .where(
              and(eq(categoryAttributes.attributeId, id), inArray(categoryAttributes.categoryId, removed)),
            );
        }
        await attachToCategories(tx, id, added);
        // Required before or after: the categories it left or joined count it differently now.
        if (isRequired || current.isRequired)
          for (const categoryId of [...removed, ...added]) recompute.add(categoryId);
      }

      await tx
        .update(attributes)
        .set({
          ...(body.code !== undefined ? { code: body.code } : {}),
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.groupName !== undefined ? { groupName: body.groupName || 'Attributes' } : {}),
          dataType,
          attributeType,
          isRequired,
          unit,
          updatedAt: new Date(),
        })
        .where(eq(attributes.id, id));

      if (isRequired !== current.isRequired) {
        for (const categoryId of await categoriesHolding(tx, [id])) recompute.add(categoryId);
      }
      const queued = await queueRecompute(tx, ownerId, [...recompute]);
      return { ...(await getAttributeDetail(tx, id)), ...queued };
    });
  } catch (error) {
    if (body.code && isUniqueViolation(error, 'attributes_code_uq')) throw codeTaken(body.code);
    if (isUniqueViolation(error, 'attribute_options_value_uq')) {
      const message = 'Another option of this attribute already has that label.';
      throw new HttpError(409, message, 'DUPLICATE_OPTION', { options: message });
    }
    throw error;
  }
}

/** Answers the recompute it queued, if any (the 204 answer has no body to carry it). */
export async function deleteAttribute(db: Db, id: number, ownerId: string | null = null) {
  return db.transaction(async (tx) => {
    const current = await findAttribute(tx, id, true);
    const productCount = await productsUsing(tx, id);
    if (productCount > 0) {
      throw new HttpError(
        409,
        `${plural(productCount, 'product holds', 'products hold')} a value for ${current.label}: clear ${productCount === 1 ? 'it' : 'them'} before deleting the attribute, or take it out of the categories' sets to hide it from product forms.`,
        'ATTRIBUTE_IN_USE',
      );
    }
    const holders = current.isRequired ? await categoriesHolding(tx, [id]) : [];
    // Options and set memberships go with it (ON DELETE CASCADE).
    await tx.delete(attributes).where(eq(attributes.id, id));
    return queueRecompute(tx, ownerId, holders);
  });
}

// ── Categories' attribute sets ──────────────────────────────────────────────────────────────────────

/** Categories (top level, or the subcategories of `parentId`) with the size of their own sets. */
export async function listSetCategories(db: Db, input: ListSetCategoriesQuery): Promise<SetCategoryList> {
  const query = listSetCategoriesQuerySchema.parse(input);
  const filters: SQL[] = [
    query.parentId ? eq(categories.parentId, query.parentId) : isNull(categories.parentId),
  ];
  if (query.query) filters.push(ilike(categories.name, containsPattern(query.query)));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: categories.id,
        name: categories.name,
        parentId: categories.parentId,
        isActive: categories.isActive,
        attributeCount: sql<number>`(select count(*)::int from "category_attributes" as "ca" where "ca"."category_id" = "categories"."id")`,
        subcategoryCount: sql<number>`(select count(*)::int from "categories" as "sub" where "sub"."parent_id" = "categories"."id")`,
      })
      .from(categories)
      .where(where)
      .orderBy(asc(categories.sortOrder), asc(categories.name), asc(categories.id))
      .limit(query.limit)
      .offset(query.skip),
    db.select({ n: count() }).from(categories).where(where),
  ]);
  return {
    result: rows.map((row) => ({
      ...row,
      attributeCount: Number(row.attributeCount),
      subcategoryCount: Number(row.subcategoryCount),
    })),
    count: total?.n ?? 0,
  };
}

async function findCategoryRef(db: Db | Tx, categoryId: string, lock = false): Promise<CategoryRef> {
  if (lock) {
    const [locked] = await db
      .select({ id: categories.id })
      .from(categories)
      .where(eq(categories.id, categoryId))
      .for('update');
    if (!locked) throw categoryNotFound();
  }
  const [ref] = await categoryRefs(db, [categoryId]);
  if (!ref) throw categoryNotFound();
  return ref;
}

/** A category's own set in its order, as list rows. */
async function ownSet(db: Db | Tx, categoryId: string): Promise<AttributeSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(categoryAttributes)
    .innerJoin(attributes, eq(attributes.id, categoryAttributes.attributeId))
    .where(eq(categoryAttributes.categoryId, categoryId))
    .orderBy(asc(categoryAttributes.sortOrder), asc(attributes.id));
  return rows.map(toSummary);
}

export async function getCategoryAttributeSet(
  db: Db | Tx,
  categoryId: string,
): Promise<CategoryAttributeSet> {
  const category = await findCategoryRef(db, categoryId);
  const [own, inherited] = await Promise.all([
    ownSet(db, categoryId),
    category.parentId ? ownSet(db, category.parentId) : Promise.resolve([]),
  ]);
  // Rows written before the no-repeat rule (or racing a parent's change) are shown once, as inherited.
  const inheritedIds = new Set(inherited.map((attribute) => attribute.id));
  return { category, attributes: own.filter((attribute) => !inheritedIds.has(attribute.id)), inherited };
}

/** Replaces a category's own set (in order); queues its products' recompute when required attributes change. */
export async function putCategoryAttributeSet(
  db: Db,
  categoryId: string,
  attributeIds: readonly number[],
  ownerId: string | null = null,
): Promise<WithRecompute<CategoryAttributeSet>> {
  return db.transaction(async (tx) => {
    const category = await findCategoryRef(tx, categoryId, true);
    const seen = new Set<number>();
    for (const attributeId of attributeIds) {
      if (seen.has(attributeId)) {
        const message = `Attribute ${attributeId} is listed twice.`;
        throw new HttpError(400, message, 'INVALID_ATTRIBUTE_SET', { attributeIds: message });
      }
      seen.add(attributeId);
    }
    const chosen = attributeIds.length
      ? await tx
          .select({ id: attributes.id, label: attributes.label, isRequired: attributes.isRequired })
          .from(attributes)
          .where(inArray(attributes.id, [...attributeIds]))
          .for('share')
      : [];
    if (chosen.length !== attributeIds.length) {
      const known = new Set(chosen.map((attribute) => attribute.id));
      const message = `Attribute ${attributeIds.find((attributeId) => !known.has(attributeId))} does not exist.`;
      throw new HttpError(400, message, 'INVALID_ATTRIBUTE_SET', { attributeIds: message });
    }
    if (category.parentId && attributeIds.length) {
      const inherited = await tx
        .select({ id: categoryAttributes.attributeId })
        .from(categoryAttributes)
        .where(
          and(
            eq(categoryAttributes.categoryId, category.parentId),
            inArray(categoryAttributes.attributeId, [...seen]),
          ),
        );
      const repeated = chosen.find((attribute) => inherited.some((row) => row.id === attribute.id));
      if (repeated) {
        const message = `${repeated.label} is inherited from ${category.parentName}: leave it out.`;
        throw new HttpError(400, message, 'INVALID_ATTRIBUTE_SET', { attributeIds: message });
      }
    }
    const before = await tx
      .select({ id: attributes.id, isRequired: attributes.isRequired })
      .from(categoryAttributes)
      .innerJoin(attributes, eq(attributes.id, categoryAttributes.attributeId))
      .where(eq(categoryAttributes.categoryId, categoryId));
    await tx.delete(categoryAttributes).where(eq(categoryAttributes.categoryId, categoryId));
    if (attributeIds.length) {
      await tx
        .insert(categoryAttributes)
        .values(attributeIds.map((attributeId, sortOrder) => ({ categoryId, attributeId, sortOrder })));
    }
    if (!category.parentId) await dropInheritedFromSubcategories(tx, [categoryId]);
    const requiredBefore = before.filter((row) => row.isRequired).map((row) => row.id);
    const requiredAfter = chosen.filter((row) => row.isRequired).map((row) => row.id);
    const requiredChanged =
      requiredBefore.length !== requiredAfter.length ||
      requiredBefore.some((id) => !requiredAfter.includes(id));
    const queued = await queueRecompute(tx, ownerId, requiredChanged ? [categoryId] : []);
    return { ...(await getCategoryAttributeSet(tx, categoryId)), ...queued };
  });
}

/**
 * What a product of the category is asked for (the add-product form): the parent's set, then the
 * category's own, each in its order, with options, unit, group, required, data type and single/multi.
 */
export async function attributesForCategory(db: Db, categoryId: string): Promise<Attribute[]> {
  const [category] = await db
    .select({ id: categories.id, parentId: categories.parentId })
    .from(categories)
    .where(eq(categories.id, categoryId));
  if (!category) throw categoryNotFound();
  const owners = category.parentId ? [category.parentId, categoryId] : [categoryId];
  const rows = await db
    .select({ attribute: attributes, owner: categoryAttributes.categoryId })
    .from(categoryAttributes)
    .innerJoin(attributes, eq(attributes.id, categoryAttributes.attributeId))
    .where(inArray(categoryAttributes.categoryId, owners))
    .orderBy(
      sql`${categoryAttributes.categoryId} = ${categoryId}`,
      asc(categoryAttributes.sortOrder),
      asc(attributes.id),
    );
  // A Map keeps the first insertion's position: the parent's (inherited) one when an id is in both.
  const ordered = [...new Map(rows.map((row) => [row.attribute.id, row.attribute])).values()];
  if (ordered.length === 0) return [];
  const ids = ordered.map((attribute) => attribute.id);
  const [options, holders] = await Promise.all([
    db
      .select()
      .from(attributeOptions)
      .where(inArray(attributeOptions.attributeId, ids))
      .orderBy(asc(attributeOptions.sortOrder), asc(attributeOptions.id)),
    db
      .select({ attributeId: categoryAttributes.attributeId, categoryId: categoryAttributes.categoryId })
      .from(categoryAttributes)
      .where(inArray(categoryAttributes.attributeId, ids)),
  ]);
  return ordered.map((attribute) => ({
    id: attribute.id,
    code: attribute.code,
    label: attribute.label,
    dataType: attribute.dataType,
    attributeType: attribute.attributeType,
    isRequired: attribute.isRequired,
    unit: attribute.unit,
    groupName: attribute.groupName,
    options: options
      .filter((option) => option.attributeId === attribute.id)
      .map((option) => ({ valueId: option.id, value: option.value })),
    categoryIds: holders.filter((row) => row.attributeId === attribute.id).map((row) => row.categoryId),
  }));
}
