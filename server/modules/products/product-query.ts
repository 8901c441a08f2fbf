// A staging query (contracts/query-tree.ts) over products: checked against the fields it names, then
// compiled to a parameterised WHERE (server/lib/query-tree/compile.ts). Only the attributes the query
// names are read, and only the subcategories of the categories it names.
import { inArray, type SQL, sql } from 'drizzle-orm';
import {
  attributeCodeOfField,
  attributeQueryField,
  kindOfDataType,
  productBuiltinFields,
} from '../../../contracts/catalog';
import { uuidsOnly } from '../../../contracts/domain/ids';
import {
  conditionsOf,
  findQueryProblem,
  normalizeText,
  type QueryField,
  type QueryTree,
} from '../../../contracts/query-tree';
import type { Db, Tx } from '../../db/client';
import { categories, products } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import {
  type ConditionCompiler,
  compileQuery,
  dateColumn,
  enumColumn,
  jsonIndexKey,
  mediaCountColumn,
  numberColumn,
  sqlTrue,
  textColumn,
  treeArrayColumn,
} from '../../lib/query-tree/compile';
import { attributesByCode } from '../attributes/attribute-defs';
import type { AttributeDef } from '../attributes/attribute-values';

/**
 * The ids of the chosen draft tags and of every tag below them, read at query time, so a subtree moved
 * since the query was saved is followed. A subtree is a range of paths: with COLLATE "C" the paths under
 * "/4/17/" are exactly those from "/4/17/" up to (not including) "/4/170" ('0' follows '/' in byte
 * order), a range the path index answers — `LIKE x.path || '%'` could not use it, as its pattern is
 * only known at run time.
 */
function draftSubtrees(ids: string[]): SQL {
  return sql`SELECT n.id FROM tag_nodes x
    JOIN tag_nodes n ON n.path >= x.path AND n.path < left(x.path, -1) || '0'
    WHERE x.id = ANY(${`{${ids.join(',')}}`}::uuid[])`;
}

/**
 * Title and SKU conditions that hold only where the text is in the title or the SKU also say so in the
 * words of the trigram index (searchCondition), which the planner can then use: `title_key LIKE '%x%'`
 * alone matches no index, and a selective title condition read all 200k products. Same truth value:
 * contains, starts with and equals each imply "title or SKU contains".
 */
function trigramIndexed(compile: ConditionCompiler): ConditionCompiler {
  return (condition) => {
    const text = ['contains', 'startsWith', 'equals'].includes(condition.op)
      ? normalizeText(String(condition.value))
      : '';
    return text ? sql`(${searchCondition(text)} AND ${compile(condition)})` : compile(condition);
  };
}

/** The built-in fields' compilers; `category` needs the subcategories, read beforehand. */
function builtinCompilers(subcategories: ReadonlyMap<string, string[]>): Record<string, ConditionCompiler> {
  return {
    title: trigramIndexed(textColumn(sql`${products.titleKey}`)),
    sku: trigramIndexed(textColumn(sql`${products.skuKey}`)),
    status: enumColumn(sql`${products.status}`),
    // A category stands for itself and its subcategories.
    category: enumColumn(sql`${products.categoryId}`, (values) =>
      uuidsOnly(values).flatMap((id) => [id, ...(subcategories.get(id) ?? [])]),
    ),
    seller: enumColumn(sql`${products.sellerId}`, uuidsOnly),
    // Prices are typed in major units and stored in minor units (cents, paise).
    price: numberColumn(sql`${products.priceMinor}`, (value) => Math.round(value * 100)),
    currency: enumColumn(sql`${products.currency}`),
    inventory: numberColumn(sql`${products.inventory}`),
    completeness: numberColumn(sql`${products.completeness}`),
    images: mediaCountColumn(sql`${products.imageCount}`),
    tags: treeArrayColumn(sql`${products.tagIds}`, draftSubtrees, uuidsOnly),
    createdAt: dateColumn(sql`${products.createdAt}`),
    updatedAt: dateColumn(sql`${products.updatedAt}`),
  };
}

export interface CompiledProductQuery {
  where: SQL;
  /** The attributes the query names, by code. */
  attributes: Map<string, AttributeDef>;
  /** Neither a condition nor a search: every product matches. */
  unfiltered: boolean;
}

/** Subcategories of the categories a query names (a category condition means the whole branch). */
async function subcategoriesOf(db: Db | Tx, tree: QueryTree): Promise<Map<string, string[]>> {
  const ids = uuidsOnly(
    conditionsOf(tree)
      .filter((condition) => condition.field === 'category' && Array.isArray(condition.value))
      .flatMap((condition) => condition.value as (string | number)[]),
  );
  const children = new Map<string, string[]>();
  if (ids.length === 0) return children;
  const rows = await db
    .select({ id: categories.id, parentId: categories.parentId })
    .from(categories)
    .where(inArray(categories.parentId, [...new Set(ids)]));
  for (const row of rows) {
    if (!row.parentId) continue;
    children.set(row.parentId, [...(children.get(row.parentId) ?? []), row.id]);
  }
  return children;
}

/** The fields a query may use (built-ins and the given attributes) and how each compiles. */
export function productFields(
  defs: readonly AttributeDef[],
  subcategories: ReadonlyMap<string, string[]>,
): { fields: Map<string, QueryField>; compilerOf: (key: string) => ConditionCompiler | undefined } {
  const fields = new Map<string, QueryField>(productBuiltinFields.map((field) => [field.key, field]));
  const compilers = new Map(Object.entries(builtinCompilers(subcategories)));
  for (const def of defs) {
    const field = attributeQueryField({
      ...def,
      options: [...def.options].map(([valueId, value]) => ({ valueId, value })),
    });
    fields.set(field.key, field);
    compilers.set(
      field.key,
      jsonIndexKey(sql`${products.attrIndex}`, String(def.id), kindOfDataType[def.dataType]),
    );
  }
  return { fields, compilerOf: (key) => compilers.get(key) };
}

/** What compileProductQuery reads before it compiles: the attributes and subcategories a query names. */
export async function loadQueryContext(db: Db | Tx, tree: QueryTree) {
  const codes = conditionsOf(tree)
    .map((condition) => attributeCodeOfField(condition.field))
    .filter((code): code is string => code !== null);
  const [defs, subcategories] = await Promise.all([attributesByCode(db, codes), subcategoriesOf(db, tree)]);
  return { defs, subcategories };
}

/**
 * Checks a query against the product fields and the attributes it names (400 with a sentence naming
 * the condition when it does not fit) and compiles it, with the search box's text, to a WHERE.
 */
export async function compileProductQuery(
  db: Db | Tx,
  tree: QueryTree,
  search = '',
): Promise<CompiledProductQuery> {
  const { defs, subcategories } = await loadQueryContext(db, tree);
  const { fields, compilerOf } = productFields(defs, subcategories);
  const problem = findQueryProblem(tree, fields);
  if (problem) throw new HttpError(400, problem, 'INVALID_QUERY');
  const where = compileQuery(tree, compilerOf);
  const text = normalizeText(search);
  return {
    where: text ? sql`(${where} AND ${searchCondition(text)})` : where,
    attributes: new Map(defs.map((def) => [def.code, def])),
    unfiltered: !text && conditionsOf(tree).length === 0,
  };
}

/**
 * The search box: title or SKU contains the text. Exactly the expression of the trigram index
 * products_search_trgm_idx, so PostgreSQL and PGlite answer it from the index.
 */
export function searchCondition(normalized: string): SQL {
  return sql`(${products.titleKey} || ' ' || ${products.skuKey}) LIKE ${containsPattern(normalized)}`;
}

/** Everything a user may see: a seller their own products only. */
export function ownerScope(sellerId: string | null): SQL {
  return sellerId ? sql`${products.sellerId} = ${sellerId}` : sqlTrue;
}
