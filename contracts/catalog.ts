// The catalogue (issue 14): typed attributes and staging products (SPEC §1, §2, §3). Shared by the API,
// the staging pages, the seed and the benchmark. Attribute values travel and are stored as SPEC §3
// says: `{ keyId, value }` for a SINGLE attribute, `{ keyId, values: [{ value, valueId }] }` for a MULTI
// one; `keyId` is the attribute's id and `valueId` an ENUMERATED option's id (or a media id).
import { z } from 'zod';
import { currencyCodes } from './domain/currency';
import { type FieldKind, type QueryField, queryTreeSchema } from './query-tree';

// ── Attributes ───────────────────────────────────────────────────────────────────────────────────────

/** SPEC §3, in its order. */
export const attributeDataTypes = [
  'ENUMERATED',
  'STRING',
  'WYSIWYG',
  'IMAGE',
  'VIDEO',
  'DATETIME',
  'OBJECT',
  'BOOLEAN',
  'NUMBER',
  'FLOAT',
] as const;
export type AttributeDataType = (typeof attributeDataTypes)[number];

export const attributeDataTypeLabels: Record<AttributeDataType, string> = {
  ENUMERATED: 'Options',
  STRING: 'Text',
  WYSIWYG: 'Rich text',
  IMAGE: 'Image',
  VIDEO: 'Video',
  DATETIME: 'Date and time',
  OBJECT: 'JSON object',
  BOOLEAN: 'Yes / no',
  NUMBER: 'Whole number',
  FLOAT: 'Decimal number',
};

export const attributeTypes = ['SINGLE', 'MULTI'] as const;
export type AttributeType = (typeof attributeTypes)[number];

/**
 * Types that may hold several values. A number, a date, a yes/no, a rich text or a JSON object is one
 * value by nature; a list of options, of texts (keywords) or of media is not.
 */
export const multiValueDataTypes: ReadonlySet<AttributeDataType> = new Set([
  'ENUMERATED',
  'STRING',
  'IMAGE',
  'VIDEO',
]);

/** Types whose values carry a unit the attribute names (cm, g, W, mAh, …). */
export const unitDataTypes: ReadonlySet<AttributeDataType> = new Set(['NUMBER', 'FLOAT']);

export const ATTRIBUTE_LIMITS = {
  /** Characters of a STRING value. */
  text: 1000,
  /** Characters of a WYSIWYG value, after sanitising. */
  html: 50_000,
  /** Bytes of an OBJECT value as JSON. */
  objectBytes: 8 * 1024,
  /** Values of a MULTI attribute. */
  values: 50,
  options: 500,
} as const;

export const attributeCodeSchema = z
  .string()
  .trim()
  .min(2, 'A code has at least 2 characters.')
  .max(40, 'A code has at most 40 characters.')
  .regex(/^[a-z][a-z0-9_]*$/, 'A code is lower-case letters, digits and _, starting with a letter.');

export const attributeOptionSchema = z.object({ valueId: z.number().int(), value: z.string() });
export type AttributeOption = z.infer<typeof attributeOptionSchema>;

export const attributeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  label: z.string(),
  dataType: z.enum(attributeDataTypes),
  attributeType: z.enum(attributeTypes),
  isRequired: z.boolean(),
  unit: z.string().nullable(),
  /** The heading the product page groups it under ("Basics", "Dimensions", …). */
  groupName: z.string(),
  options: z.array(attributeOptionSchema),
  /** Categories whose attribute set holds it (their subcategories inherit it). */
  categoryIds: z.array(z.string()),
  productCount: z.number().int().optional(),
});
export type Attribute = z.infer<typeof attributeSchema>;
export const attributeListSchema = z.object({ result: z.array(attributeSchema) });

const optionLabel = z.string().trim().min(1, 'An option needs a label.').max(100);

export const createAttributeBodySchema = z.object({
  code: attributeCodeSchema,
  label: z.string().trim().min(1, 'Give the attribute a label.').max(100),
  dataType: z.enum(attributeDataTypes),
  attributeType: z.enum(attributeTypes).default('SINGLE'),
  isRequired: z.boolean().default(false),
  unit: z.string().trim().max(20).nullable().default(null),
  groupName: z.string().trim().max(60).default('Attributes'),
  options: z.array(optionLabel).max(ATTRIBUTE_LIMITS.options).default([]),
  categoryIds: z.array(z.string().uuid()).max(200).default([]),
});
export type CreateAttributeBody = z.input<typeof createAttributeBodySchema>;

/** The code and the data type never change: stored values and saved queries depend on them. */
export const updateAttributeBodySchema = z.object({
  label: z.string().trim().min(1, 'Give the attribute a label.').max(100).optional(),
  attributeType: z.enum(attributeTypes).optional(),
  isRequired: z.boolean().optional(),
  unit: z.string().trim().max(20).nullable().optional(),
  groupName: z.string().trim().max(60).optional(),
  /** Existing options keep their valueId (renamed in place); new ones have none; missing ones are removed. */
  options: z
    .array(z.object({ valueId: z.number().int().optional(), value: optionLabel }))
    .max(ATTRIBUTE_LIMITS.options)
    .optional(),
  categoryIds: z.array(z.string().uuid()).max(200).optional(),
});
export type UpdateAttributeBody = z.input<typeof updateAttributeBodySchema>;

// ── Attribute values (SPEC §3) ───────────────────────────────────────────────────────────────────────

export const attributeScalarSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.record(z.string(), z.unknown()),
  z.array(z.unknown()),
  z.null(),
]);
export type AttributeScalar = z.infer<typeof attributeScalarSchema>;

/** As stored and answered: a SINGLE value, or the values of a MULTI attribute. */
export const attributeValueSchema = z.union([
  z.object({
    keyId: z.number().int(),
    values: z.array(
      z.object({
        value: attributeScalarSchema,
        valueId: z.union([z.number().int(), z.string()]).optional(),
        /** An IMAGE value's thumbnail, as a signed link (answers only). */
        thumbUrl: z.string().optional(),
      }),
    ),
  }),
  z.object({
    keyId: z.number().int(),
    value: attributeScalarSchema,
    /** An ENUMERATED option's id or a media id, beside its label or URL in `value`. */
    valueId: z.union([z.number().int(), z.string()]).optional(),
    /** An IMAGE value's thumbnail, as a signed link (answers only). */
    thumbUrl: z.string().optional(),
  }),
]);
export type AttributeValue = z.infer<typeof attributeValueSchema>;

/**
 * As sent: the same shapes; the server checks each against its attribute's type. An option may be
 * named by its valueId alone; a value of null (or an empty list) clears the attribute.
 */
export const attributeValueInputSchema = z.union([
  // The list shape first: an object with `values` must never be read as a single value without one.
  z.object({
    keyId: z.number().int(),
    values: z
      .array(
        z.object({
          value: attributeScalarSchema.optional(),
          valueId: z.union([z.number().int(), z.string()]).optional(),
        }),
      )
      .max(ATTRIBUTE_LIMITS.values),
  }),
  z.object({
    keyId: z.number().int(),
    value: attributeScalarSchema.optional(),
    valueId: z.union([z.number().int(), z.string()]).optional(),
  }),
]);
export type AttributeValueInput = z.infer<typeof attributeValueInputSchema>;

// ── Products ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * The staging lifecycle. A product is written as a draft, sent for review when complete, approved or
 * rejected (with a reason) by staff, and goes live; live products can be taken offline (inactive) and
 * brought back to draft for changes. Each move is checked by the server and recorded in the history.
 */
export const productStatuses = ['draft', 'in_review', 'approved', 'live', 'rejected', 'inactive'] as const;
export type ProductStatus = (typeof productStatuses)[number];

export const productStatusLabels: Record<ProductStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  approved: 'Approved',
  live: 'Live',
  rejected: 'Rejected',
  inactive: 'Inactive',
};

/** Who may make a move: the product's own seller, or staff and admins who review. */
export type TransitionActor = 'seller' | 'reviewer';

export interface StatusTransition {
  from: ProductStatus;
  to: ProductStatus;
  /** The button's text. */
  label: string;
  by: readonly TransitionActor[];
  /** A rejection needs a reason the seller reads. */
  needsReason?: boolean;
  /** Sending for review needs every required attribute filled. */
  needsComplete?: boolean;
}

const both = ['seller', 'reviewer'] as const;
const reviewer = ['reviewer'] as const;

export const statusTransitions: readonly StatusTransition[] = [
  { from: 'draft', to: 'in_review', label: 'Send for review', by: both, needsComplete: true },
  { from: 'in_review', to: 'approved', label: 'Approve', by: reviewer },
  { from: 'in_review', to: 'rejected', label: 'Reject', by: reviewer, needsReason: true },
  { from: 'in_review', to: 'draft', label: 'Withdraw', by: both },
  { from: 'approved', to: 'live', label: 'Go live', by: reviewer },
  { from: 'approved', to: 'draft', label: 'Back to draft', by: both },
  { from: 'rejected', to: 'draft', label: 'Back to draft', by: both },
  { from: 'live', to: 'inactive', label: 'Deactivate', by: both },
  { from: 'inactive', to: 'live', label: 'Reactivate', by: reviewer },
  { from: 'inactive', to: 'draft', label: 'Back to draft', by: both },
];

export const transitionsFrom = (status: ProductStatus, actor: TransitionActor) =>
  statusTransitions.filter((move) => move.from === status && move.by.includes(actor));

export const weightUnits = ['g', 'kg', 'lb'] as const;
export type WeightUnit = (typeof weightUnits)[number];
export const lengthUnits = ['cm', 'm', 'in'] as const;

export const PRODUCT_LIMITS = { title: 200, sku: 64, images: 20, tags: 50 } as const;

export const skuSchema = z
  .string()
  .trim()
  .min(1, 'Give the product a SKU.')
  .max(PRODUCT_LIMITS.sku, `A SKU has at most ${PRODUCT_LIMITS.sku} characters.`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'A SKU is letters, digits and . _ / - (no spaces).');

const money = z
  .number({ error: 'The price must be a number.' })
  .min(0, 'The price cannot be negative.')
  .max(100_000_000, 'The price is too large.');

export const dimensionsSchema = z.object({
  length: z.number().min(0).max(100_000),
  width: z.number().min(0).max(100_000),
  height: z.number().min(0).max(100_000),
  unit: z.enum(lengthUnits),
});
export type Dimensions = z.infer<typeof dimensionsSchema>;

export const productImageSchema = z.object({
  id: z.string(),
  url: z.string(),
  thumbUrl: z.string(),
  webUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  fileName: z.string(),
});
export type ProductImage = z.infer<typeof productImageSchema>;

/**
 * A tag a product carries, named by its path in the draft tag tree (root first: a name alone is
 * ambiguous, "Shirts" sits under Men and under Women). `inTree` is false for a tag the draft no longer
 * holds (a rollback took it away and no publish has remapped it yet): it keeps its last known name.
 */
export const productTagSchema = z.object({
  id: z.string(),
  name: z.string(),
  pathNames: z.array(z.string()),
  inTree: z.boolean(),
});
export type ProductTag = z.infer<typeof productTagSchema>;

/** A row of the staging grid: what the grid shows, never the attribute metadata. */
export const productRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  sku: z.string(),
  status: z.enum(productStatuses),
  sellerId: z.string(),
  sellerName: z.string(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
  inventory: z.number().int(),
  completeness: z.number().int(),
  imageCount: z.number().int(),
  thumbUrl: z.string().nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
  /** Values of the attribute columns the request asked for, by attribute code. */
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ProductRow = z.infer<typeof productRowSchema>;

export const productSortFields = [
  'updatedAt',
  'createdAt',
  'title',
  'sku',
  'price',
  'inventory',
  'completeness',
] as const;
export type ProductSortField = (typeof productSortFields)[number];

export const PRODUCT_PAGE_SIZES = [25, 50, 100] as const;

/** Above this many matches a total is estimated ("about 48,000"), never counted row by row. */
export const EXACT_COUNT_LIMIT = 10_000;

export const searchProductsBodySchema = z.object({
  query: queryTreeSchema.default({ combinator: 'and', children: [] }),
  /** The search box: title or SKU contains. */
  search: z.string().trim().max(100).default(''),
  sort: z.enum(productSortFields).default('updatedAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  skip: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(200).default(50),
  /** Attribute codes whose values the rows carry (the grid's attribute columns). */
  attributeColumns: z.array(z.string().max(40)).max(30).default([]),
});
export type SearchProductsBody = z.input<typeof searchProductsBodySchema>;

export const productListSchema = z.object({
  result: z.array(productRowSchema),
  count: z.number().int(),
  /** False when `count` is an estimate (above EXACT_COUNT_LIMIT on a large catalogue). */
  countExact: z.boolean(),
});
export type ProductList = z.infer<typeof productListSchema>;

export const productSchema = productRowSchema.extend({
  statusReason: z.string().nullable(),
  weight: z.number().nullable(),
  weightUnit: z.enum(weightUnits),
  dimensions: dimensionsSchema.nullable(),
  /** Volumetric weight in kg (SPEC §9), from the dimensions. */
  volumetricWeight: z.number().nullable(),
  images: z.array(productImageSchema),
  tagIds: z.array(z.string()),
  /** The same tags, in the same order, with their paths. */
  tags: z.array(productTagSchema),
  attributeValues: z.array(attributeValueSchema),
  /** Required attributes of the category still empty. */
  missingAttributes: z.array(z.object({ id: z.number().int(), code: z.string(), label: z.string() })),
  version: z.number().int(),
});
export type Product = z.infer<typeof productSchema>;

/**
 * Tag ids as sent: lower-cased and each kept once (in the order first named), then at most `max`.
 * Duplicates are dropped before the limit counts, so naming a tag twice never costs a place.
 */
function tagIdsSchema(max: number) {
  return z
    .array(z.string().uuid('A tag is named by its id.'))
    .max(500)
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
    .refine((ids) => ids.length <= max, `A product carries at most ${max} tags.`);
}

export const productTitleSchema = z
  .string()
  .trim()
  .min(1, 'Give the product a title.')
  .max(PRODUCT_LIMITS.title, `A title has at most ${PRODUCT_LIMITS.title} characters.`);

/** A product's editable fields, without defaults (an edit must never fill in what it did not send). */
const productFields = {
  title: productTitleSchema,
  sku: skuSchema,
  categoryId: z.string().uuid('Choose a category.'),
  price: money,
  currency: z.enum(currencyCodes as [string, ...string[]]),
  inventory: z
    .number()
    .int('Inventory is a whole number.')
    .min(0, 'Inventory cannot be negative.')
    .max(10_000_000),
  weight: z.number().min(0).max(1_000_000).nullable(),
  weightUnit: z.enum(weightUnits),
  dimensions: dimensionsSchema.nullable(),
  imageIds: z.array(z.string().uuid()).max(PRODUCT_LIMITS.images),
  attributeValues: z.array(attributeValueInputSchema).max(200),
  /** Nodes of the draft tag tree (the server checks each); the list replaces the product's tags. */
  tagIds: tagIdsSchema(PRODUCT_LIMITS.tags),
};

export const createProductBodySchema = z.object({
  ...productFields,
  currency: productFields.currency.default('INR'),
  weight: productFields.weight.default(null),
  weightUnit: productFields.weightUnit.default('kg'),
  dimensions: productFields.dimensions.default(null),
  imageIds: productFields.imageIds.default([]),
  attributeValues: productFields.attributeValues.default([]),
  tagIds: productFields.tagIds.default([]),
  /** Staff and admins create for a seller; a seller's products are always their own. */
  sellerId: z.string().uuid().optional(),
});
export type CreateProductBody = z.input<typeof createProductBodySchema>;

/** Only the fields sent change; `version` is the version the editor read (a stale one answers 409). */
export const updateProductBodySchema = z
  .object(productFields)
  .partial()
  .extend({ version: z.number().int() });
export type UpdateProductBody = z.input<typeof updateProductBodySchema>;

export const changeStatusBodySchema = z.object({
  status: z.enum(productStatuses),
  reason: z.string().trim().max(500).optional(),
  version: z.number().int().optional(),
});
export type ChangeStatusBody = z.input<typeof changeStatusBodySchema>;

/** Bulk actions on selected rows, or on every row of a query. */
export const productSelectionSchema = z.union([
  z.object({ ids: z.array(z.string().uuid()).min(1).max(1000) }),
  z.object({ query: queryTreeSchema, search: z.string().trim().max(100).default('') }),
]);
export type ProductSelection = z.input<typeof productSelectionSchema>;

export const bulkStatusBodySchema = z.object({
  selection: productSelectionSchema,
  status: z.enum(productStatuses),
  reason: z.string().trim().max(500).optional(),
});
export const bulkCategoryBodySchema = z.object({
  selection: productSelectionSchema,
  categoryId: z.string().uuid('Choose a category.'),
});
export const bulkDeleteBodySchema = z.object({ selection: productSelectionSchema });

/** Adds tags to the selected products, or removes them; the products' other tags stay. */
export const bulkTagModes = ['add', 'remove'] as const;
export type BulkTagMode = (typeof bulkTagModes)[number];
export const bulkTagsBodySchema = z.object({
  selection: productSelectionSchema,
  mode: z.enum(bulkTagModes),
  tagIds: tagIdsSchema(PRODUCT_LIMITS.tags).refine((ids) => ids.length > 0, 'Choose at least one tag.'),
});
export type BulkTagsBody = z.input<typeof bulkTagsBodySchema>;

/** What a bulk action did: rows changed, and rows it could not change with why. */
export const bulkResultSchema = z.object({
  changed: z.number().int(),
  /** Up to 100 of the rows left alone, each with why; `skippedCount` counts them all. */
  skipped: z.array(z.object({ id: z.string(), sku: z.string(), reason: z.string() })),
  skippedCount: z.number().int(),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

// ── Query fields (the staging query builder; contracts/query-tree.ts) ───────────────────────────────

/** Attribute fields are keyed `attr.<code>`; built-in fields by their own name. */
export const ATTRIBUTE_FIELD_PREFIX = 'attr.';
export const attributeFieldKey = (code: string) => `${ATTRIBUTE_FIELD_PREFIX}${code}`;
export const attributeCodeOfField = (key: string) =>
  key.startsWith(ATTRIBUTE_FIELD_PREFIX) ? key.slice(ATTRIBUTE_FIELD_PREFIX.length) : null;

const PRODUCT_GROUP = 'Product';

/** The product's own fields a query may filter on. */
export const productBuiltinFields: readonly QueryField[] = [
  { key: 'title', label: 'Title', kind: 'text', group: PRODUCT_GROUP },
  { key: 'sku', label: 'SKU', kind: 'text', group: PRODUCT_GROUP },
  {
    key: 'status',
    label: 'Status',
    kind: 'enum',
    group: PRODUCT_GROUP,
    options: productStatuses.map((status) => ({ value: status, label: productStatusLabels[status] })),
  },
  { key: 'category', label: 'Category', kind: 'enum', group: PRODUCT_GROUP, optionSource: 'categories' },
  { key: 'seller', label: 'Seller', kind: 'enum', group: PRODUCT_GROUP, optionSource: 'sellers' },
  { key: 'price', label: 'Price', kind: 'number', group: PRODUCT_GROUP },
  {
    key: 'currency',
    label: 'Currency',
    kind: 'enum',
    group: PRODUCT_GROUP,
    options: currencyCodes.map((code) => ({ value: code, label: code })),
  },
  { key: 'inventory', label: 'Inventory', kind: 'number', group: PRODUCT_GROUP },
  { key: 'completeness', label: 'Completeness', kind: 'number', unit: '%', group: PRODUCT_GROUP },
  { key: 'images', label: 'Images', kind: 'media', group: PRODUCT_GROUP },
  // "Tag is under Shirts": the products carrying Shirts or any tag below it in the draft tag tree.
  { key: 'tags', label: 'Tag', kind: 'tree', group: PRODUCT_GROUP, optionSource: 'tags' },
  { key: 'createdAt', label: 'Created', kind: 'date', group: PRODUCT_GROUP },
  { key: 'updatedAt', label: 'Updated', kind: 'date', group: PRODUCT_GROUP },
];

/** The query field kind of each data type (no attribute holds a tree). */
export const kindOfDataType: Record<AttributeDataType, Exclude<FieldKind, 'tree'>> = {
  ENUMERATED: 'enum',
  STRING: 'text',
  WYSIWYG: 'text',
  IMAGE: 'media',
  VIDEO: 'media',
  DATETIME: 'date',
  OBJECT: 'object',
  BOOLEAN: 'boolean',
  NUMBER: 'number',
  FLOAT: 'number',
};

/** The query field of an attribute: enumerated ones offer their options, the rest their type's operators. */
export function attributeQueryField(
  attribute: Pick<Attribute, 'code' | 'label' | 'dataType' | 'unit' | 'options' | 'groupName'>,
): QueryField {
  return {
    key: attributeFieldKey(attribute.code),
    label: attribute.label,
    kind: kindOfDataType[attribute.dataType],
    group: `Attributes · ${attribute.groupName}`,
    ...(attribute.unit ? { unit: attribute.unit } : {}),
    ...(attribute.dataType === 'ENUMERATED'
      ? { options: attribute.options.map((option) => ({ value: option.valueId, label: option.value })) }
      : {}),
  };
}
