// Catalog imports (issue 15, SPEC §7 "Imports"). Shared by the server, the SPA and the tests.
//
// The model:
// - An **import** is one uploaded sheet (CSV or XLSX) for one seller's catalogue.
// - A **batch** is one validation run of an import: the column mapping and the blank-cell rule it used,
//   its per-row report and what its moves changed. Uploading makes batch 1; reprocessing (after fixing
//   the mapping or the attributes) makes the next one, and the import's current batch is the newest.
// - A batch's rows are validated and compared with staging BEFORE anything is written: every row says
//   what moving it would do (create / update with each field before → after / unchanged), or why it
//   will not (duplicate, error with the cell and message). A move commits exactly that preview: a
//   product whose fields changed since is reported as a conflict, never overwritten.
// - An **import request** is a seller asking staff to import for them: a file to map, or a feed URL.
import { z } from 'zod';
import { exportFormats } from './exports';
import { intParam } from './int-param';
import { taskStatusSchema } from './notifications';

export const IMPORTS_ROUTE = '/imports/manage-imports';

/** Sheets up to this size are accepted (the upload stops reading past it). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** Data rows per sheet. */
export const IMPORT_MAX_ROWS = 200_000;
export const IMPORT_PAGE_SIZES = [25, 50, 100] as const;

export const sheetFormats = ['csv', 'xlsx'] as const;
export type SheetFormat = (typeof sheetFormats)[number];

// ── Column mapping ─────────────────────────────────────────────────────────────────────────────────

/** The product fields a column can fill (attributes are `attr:<code>`). */
export const importFields = [
  'sku',
  'title',
  'category',
  'price',
  'currency',
  'inventory',
  'weight',
  'weightUnit',
] as const;
export type ImportField = (typeof importFields)[number];
export const ATTRIBUTE_TARGET_PREFIX = 'attr:';
export const attributeTarget = (code: string) => `${ATTRIBUTE_TARGET_PREFIX}${code}`;
export const attributeCodeOfTarget = (target: string) =>
  target.startsWith(ATTRIBUTE_TARGET_PREFIX) ? target.slice(ATTRIBUTE_TARGET_PREFIX.length) : null;

/** A column's target: a product field, `attr:<code>`, or null (not imported, listed as such). */
export const mappingTargetSchema = z
  .string()
  .max(60)
  .regex(/^(sku|title|category|price|currency|inventory|weight|weightUnit|attr:[a-z][a-z0-9_]*)$/, {
    message: 'Map a column to a product field or an attribute.',
  })
  .nullable();

export const columnMappingSchema = z.object({
  /** The column's position in the sheet (0-based) and its header as written. */
  index: z.number().int().min(0).max(500),
  header: z.string().max(300),
  target: mappingTargetSchema,
});
export type ColumnMapping = z.infer<typeof columnMappingSchema>;
export const mappingSchema = z.array(columnMappingSchema).max(200);

/** What a column may be mapped to, for the mapping editor. */
export const mappingTargetOptionSchema = z.object({
  target: z.string(),
  label: z.string(),
  kind: z.enum(['field', 'attribute']),
  /** The attribute's data type (attributes only). */
  dataType: z.string().nullable(),
  /** Needed to create a product (SKU, title, category, price). */
  requiredToCreate: z.boolean(),
  /** How a cell is read, e.g. "a number like 1299.50", "one of: Red, Blue", "values separated by |". */
  hint: z.string(),
});
export type MappingTargetOption = z.infer<typeof mappingTargetOptionSchema>;
export const mappingTargetListSchema = z.object({ result: z.array(mappingTargetOptionSchema) });

/** How a blank cell is read when it updates an existing product. */
export const blankPolicies = ['keep', 'clear'] as const;
export type BlankPolicy = (typeof blankPolicies)[number];
export const blankPolicyLabels: Record<BlankPolicy, string> = {
  keep: 'Blank cells keep the stored value',
  clear: 'Blank cells clear the stored value (never SKU, title, category, price or currency)',
};

// ── Imports and batches ────────────────────────────────────────────────────────────────────────────

/**
 * A batch's life: queued → validating → ready (report and preview done, nothing written) → moving →
 * moved (a move finished; another move may follow). `stopped` and `failed` resume from their
 * checkpoint in the step they were in (`step`).
 */
export const batchStatuses = [
  'queued',
  'validating',
  'ready',
  'moving',
  'moved',
  'stopped',
  'failed',
] as const;
export type BatchStatus = (typeof batchStatuses)[number];
export const batchStatusLabels: Record<BatchStatus, string> = {
  queued: 'Queued',
  validating: 'Validating',
  ready: 'Ready to move',
  moving: 'Moving',
  moved: 'Moved',
  stopped: 'Stopped',
  failed: 'Failed',
};
/** Statuses in which a job is working on the batch (it can be stopped, not changed). */
export const runningBatchStatuses: readonly BatchStatus[] = ['queued', 'validating', 'moving'];

export const moveKinds = ['full', 'pricing', 'duplicates'] as const;
export type MoveKind = (typeof moveKinds)[number];
export const moveKindLabels: Record<MoveKind, string> = {
  full: 'Move to staging',
  pricing: 'Update pricing and inventory only',
  duplicates: 'Merge duplicates into staging',
};

/** The rule mergeDuplicatesToStaging follows, shown to the user before they run it. */
export const MERGE_RULE =
  'Each duplicate row is merged into the product it duplicates: it fills in only the fields and attributes that product has empty, and never overwrites a stored value. Inventory is not added up.';

/** A row's verdict after validation (what moving it would do). */
export const rowOutcomes = ['create', 'update', 'unchanged', 'duplicate', 'error'] as const;
export type RowOutcome = (typeof rowOutcomes)[number];
export const rowOutcomeLabels: Record<RowOutcome, string> = {
  create: 'New product',
  update: 'Update',
  unchanged: 'Unchanged',
  duplicate: 'Duplicate',
  error: 'Error',
};

/** What a move did with a row. */
export const rowResults = [
  'created',
  'updated',
  'unchanged',
  'merged',
  'conflict',
  'no_match',
  'skipped',
] as const;
export type RowResult = (typeof rowResults)[number];
export const rowResultLabels: Record<RowResult, string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  merged: 'Merged',
  conflict: 'Conflict',
  no_match: 'No product with this SKU',
  skipped: 'Skipped',
};

export const outcomeCountsSchema = z.object({
  total: z.number().int(),
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  duplicate: z.number().int(),
  error: z.number().int(),
});
export type OutcomeCounts = z.infer<typeof outcomeCountsSchema>;

export const resultCountsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  merged: z.number().int(),
  conflict: z.number().int(),
  no_match: z.number().int(),
  skipped: z.number().int(),
});
export type ResultCounts = z.infer<typeof resultCountsSchema>;

const actorSchema = z.object({ id: z.string().nullable(), name: z.string() });

export const batchSchema = z.object({
  id: z.string(),
  importId: z.string(),
  /** 1 for the upload, then 2, 3 … for each reprocess. */
  number: z.number().int(),
  status: z.enum(batchStatuses),
  /** The step a running, stopped or failed batch is in. */
  step: z.enum(['validate', 'move']),
  /** The move running or last run (null before any move). */
  moveKind: z.enum(moveKinds).nullable(),
  mapping: mappingSchema,
  blankPolicy: z.enum(blankPolicies),
  /** Validation progress: data rows read from the sheet and the share of the file read (0–100). */
  rowsRead: z.number().int(),
  progress: z.number().int().min(0).max(100),
  /** Move progress: rows done of the rows the move takes. */
  rowsMoved: z.number().int(),
  rowsToMove: z.number().int(),
  /** Exact once validation is done: the outcomes always add up to `total`, the sheet's data rows. */
  counts: outcomeCountsSchema,
  /** What the moves did, added up over every move of this batch. */
  results: resultCountsSchema,
  /** Rows each move would still take (read for one import, once validated; null in lists). */
  leftToMove: z
    .object({ full: z.number().int(), pricing: z.number().int(), duplicates: z.number().int() })
    .nullable(),
  /** Why the batch failed or stopped, for the user. */
  error: z.string().nullable(),
  /** Rows per second of the last step that ran (validation or move), for the progress line. */
  rowsPerSecond: z.number().nullable(),
  taskId: z.string().nullable(),
  createdBy: actorSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Batch = z.infer<typeof batchSchema>;

export const importSchema = z.object({
  id: z.string(),
  sellerId: z.string(),
  sellerName: z.string(),
  fileName: z.string(),
  format: z.enum(sheetFormats),
  fileSize: z.number().int(),
  /** SHA-256 of the uploaded file: the batch's preview is of exactly this content. */
  fileHash: z.string(),
  /** Header cells as written in the sheet, in order. */
  headers: z.array(z.string()),
  /** The import request it was made for, if any. */
  requestId: z.string().nullable(),
  /** The newest batch (the one the page shows). */
  batch: batchSchema,
  createdBy: actorSchema,
  createdAt: z.string(),
});
export type Import = z.infer<typeof importSchema>;

export const importListSchema = z.object({ result: z.array(importSchema), count: z.number().int() });
export type ImportList = z.infer<typeof importListSchema>;

const pageQuery = {
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(25),
};

export const listImportsQuerySchema = z.object({
  ...pageQuery,
  status: z.enum(batchStatuses).optional(),
  sellerId: z.string().uuid().optional(),
});
export type ListImportsQuery = z.input<typeof listImportsQuerySchema>;

/** searchImports: the list's filters plus free text over the file name and the seller's name. */
export const searchImportsQuerySchema = listImportsQuerySchema.extend({
  query: z.string().trim().max(100).default(''),
});
export type SearchImportsQuery = z.input<typeof searchImportsQuerySchema>;

export const searchBatchesQuerySchema = z.object({
  ...pageQuery,
  importId: z.string().uuid().optional(),
  status: z.enum(batchStatuses).optional(),
  sellerId: z.string().uuid().optional(),
});
export type SearchBatchesQuery = z.input<typeof searchBatchesQuerySchema>;
export const batchListSchema = z.object({ result: z.array(batchSchema), count: z.number().int() });

export const batchQuerySchema = z.object({ batch: z.string().uuid('Choose a batch.') });

/** What the upload answers: the import (its batch queued) and the task that validates it. */
export const uploadAnswerSchema = z.object({ import: importSchema, taskStatus: taskStatusSchema });
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

export const batchTaskAnswerSchema = z.object({ batch: batchSchema, taskStatus: taskStatusSchema });
export type BatchTaskAnswer = z.infer<typeof batchTaskAnswerSchema>;

export const reprocessBatchBodySchema = z.object({
  batch: z.string().uuid('Choose a batch.'),
  /** The new mapping (defaults to the batch's). */
  mapping: mappingSchema.optional(),
  blankPolicy: z.enum(blankPolicies).optional(),
  /** Remember this mapping for the seller's next sheets (default true). */
  saveMapping: z.boolean().default(true),
});
export type ReprocessBatchBody = z.input<typeof reprocessBatchBodySchema>;

// ── The report and the preview ─────────────────────────────────────────────────────────────────────

export const cellErrorSchema = z.object({
  /** The column (0-based) and its header, or null for a row-level problem. */
  column: z.number().int().nullable(),
  header: z.string().nullable(),
  /** The spreadsheet cell, e.g. "D17" (null for a row-level problem). */
  cell: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type CellError = z.infer<typeof cellErrorSchema>;

/** One field a move would change: values as the user reads them. */
export const fieldChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type ImportFieldChange = z.infer<typeof fieldChangeSchema>;

export const reportRowSchema = z.object({
  line: z.number().int(),
  outcome: z.enum(rowOutcomes),
  sku: z.string(),
  title: z.string(),
  errors: z.array(cellErrorSchema),
  /** Duplicates: what the row duplicates (an earlier line, or a staging product) and why. */
  duplicateOf: z
    .object({
      line: z.number().int().nullable(),
      productId: z.string().nullable(),
      sku: z.string(),
      title: z.string(),
      reason: z.string(),
    })
    .nullable(),
  /** The staging product the row updates (or was merged into / created). */
  productId: z.string().nullable(),
  /** For updates: each field before → after (the dry-run diff). For creates: the values it will have. */
  changes: z.array(fieldChangeSchema),
  /** Set once a move handled the row. */
  result: z.enum(rowResults).nullable(),
  resultMessage: z.string().nullable(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

export const batchReportQuerySchema = z.object({
  batch: z.string().uuid('Choose a batch.'),
  outcome: z.enum(rowOutcomes).optional(),
  result: z.enum(rowResults).optional(),
  /** SKU or title contains. */
  search: z.string().trim().max(100).default(''),
  ...pageQuery,
});
export type BatchReportQuery = z.input<typeof batchReportQuerySchema>;

export const batchReportSchema = z.object({
  batch: batchSchema,
  /** Columns not mapped to anything: listed, never dropped silently. */
  unmappedColumns: z.array(z.object({ index: z.number().int(), header: z.string() })),
  /** The errors that occur most, with how many rows have each (the report's summary). */
  topErrors: z.array(
    z.object({
      code: z.string(),
      header: z.string().nullable(),
      message: z.string(),
      count: z.number().int(),
    }),
  ),
  rows: z.array(reportRowSchema),
  /** Rows matching the filters. */
  count: z.number().int(),
});
export type BatchReport = z.infer<typeof batchReportSchema>;

export const errorSheetBodySchema = z.object({
  batch: z.string().uuid('Choose a batch.'),
  /** Defaults to the sheet's own format. */
  format: z.enum(exportFormats).optional(),
});
export type ErrorSheetBody = z.input<typeof errorSheetBodySchema>;

// ── Moves, mark inactive, suggested titles ─────────────────────────────────────────────────────────

/** markInactive preview: the seller's products the batch does not contain, and how many can go inactive. */
export const markInactivePreviewSchema = z.object({
  /** Products of the seller whose SKU is not in the batch's sheet. */
  missing: z.number().int(),
  /** Of those, the live ones: only a live product can be made inactive. */
  willChange: z.number().int(),
});
export type MarkInactivePreview = z.infer<typeof markInactivePreviewSchema>;

export const markInactiveBodySchema = z.object({
  batch: z.string().uuid('Choose a batch.'),
  /** The count the user confirmed: if the catalogue changed since, the server refuses (409). */
  expected: z.number().int().min(0),
});
export const markInactiveResultSchema = z.object({ changed: z.number().int(), skipped: z.number().int() });

export const suggestedTitlesBodySchema = z.object({
  batch: z.string().uuid('Choose a batch.'),
  /** Lines to suggest for; absent: the rows with a title that differs from the suggestion, paged. */
  lines: z.array(z.number().int().min(1)).max(500).optional(),
  /** Only rows whose title is empty. */
  onlyMissing: z.boolean().default(false),
  ...pageQuery,
});
export type SuggestedTitlesBody = z.input<typeof suggestedTitlesBodySchema>;
export const suggestedTitleSchema = z.object({
  line: z.number().int(),
  sku: z.string(),
  current: z.string(),
  suggested: z.string(),
});
export const suggestedTitleListSchema = z.object({
  template: z.string(),
  result: z.array(suggestedTitleSchema),
  count: z.number().int(),
});
export type SuggestedTitleList = z.infer<typeof suggestedTitleListSchema>;

export const applySuggestedTitlesBodySchema = z.object({
  batch: z.string().uuid('Choose a batch.'),
  /** The lines to retitle; absent with `all: true` applies to every row with a suggestion. */
  lines: z.array(z.number().int().min(1)).max(10_000).optional(),
  all: z.boolean().default(false),
  onlyMissing: z.boolean().default(false),
});
export type ApplySuggestedTitlesBody = z.input<typeof applySuggestedTitlesBodySchema>;
export const applySuggestedTitlesResultSchema = z.object({
  applied: z.number().int(),
  batch: batchSchema,
  taskStatus: taskStatusSchema,
});

/**
 * The suggested-title template the admin sets: text with `{field}` placeholders for `brand`, `model`,
 * `title`, `sku`, `category` or any attribute code. The attributes it names are also the "key
 * attributes" that, with the normalised title, make two products duplicates.
 */
export const TITLE_TEMPLATE_LIMIT = 200;
export const DEFAULT_TITLE_TEMPLATE = '{brand} {model} {colour} {size}';
export const titleTemplateSchema = z.object({
  template: z
    .string()
    .trim()
    .min(1, 'Write a template, e.g. {brand} {model} {colour}.')
    .max(TITLE_TEMPLATE_LIMIT, `A template has at most ${TITLE_TEMPLATE_LIMIT} characters.`)
    .refine(
      (text) => /\{[a-zA-Z][a-zA-Z0-9_]*\}/.test(text),
      'Name at least one field in braces, e.g. {brand}.',
    ),
});
export type TitleTemplate = z.infer<typeof titleTemplateSchema>;

// ── Import requests ────────────────────────────────────────────────────────────────────────────────

export const requestStatuses = ['open', 'in_progress', 'done', 'rejected'] as const;
export type RequestStatus = (typeof requestStatuses)[number];
export const requestStatusLabels: Record<RequestStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  done: 'Done',
  rejected: 'Rejected',
};
export const requestKinds = ['file', 'feed'] as const;
export type RequestKind = (typeof requestKinds)[number];

export const importRequestSchema = z.object({
  id: z.string(),
  sellerId: z.string(),
  sellerName: z.string(),
  kind: z.enum(requestKinds),
  /** The sheet the seller sent (kind file). */
  fileName: z.string().nullable(),
  /** The feed to fetch (kind feed). */
  feedUrl: z.string().nullable(),
  note: z.string(),
  status: z.enum(requestStatuses),
  /** The staff member handling it. */
  assignee: actorSchema.nullable(),
  /** Staff's answer (why it was rejected, what was done). */
  response: z.string().nullable(),
  /** Imports made for it, newest first. */
  importIds: z.array(z.string()),
  createdBy: actorSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ImportRequest = z.infer<typeof importRequestSchema>;
export const importRequestListSchema = z.object({
  result: z.array(importRequestSchema),
  count: z.number().int(),
});
export type ImportRequestList = z.infer<typeof importRequestListSchema>;

export const listImportRequestsQuerySchema = z.object({
  ...pageQuery,
  status: z.enum(requestStatuses).optional(),
  sellerId: z.string().uuid().optional(),
});
export type ListImportRequestsQuery = z.input<typeof listImportRequestsQuerySchema>;

export const FEED_URL_LIMIT = 2000;
/** addImportProductsApi with a feed (a file is sent as multipart with `note` instead). */
export const feedRequestBodySchema = z.object({
  feedUrl: z.string().trim().min(1, 'Give the feed URL.').max(FEED_URL_LIMIT, 'The URL is too long.'),
  note: z.string().trim().max(2000).default(''),
  /** Staff asking on a seller's behalf name the seller. */
  sellerId: z.string().uuid().optional(),
});
export type FeedRequestBody = z.input<typeof feedRequestBodySchema>;

export const updateRequestBodySchema = z.object({
  status: z.enum(['in_progress', 'done', 'rejected']),
  response: z.string().trim().max(2000).optional(),
});
export type UpdateRequestBody = z.input<typeof updateRequestBodySchema>;

/** The feed a request names is fetched within these limits. */
export const FEED_LIMITS = { maxBytes: 20 * 1024 * 1024, timeoutMs: 30_000 } as const;

/** Where the sample sheet a new user can try is downloaded. */
export const SAMPLE_SHEET_PATH = '/api/v1/imports/sampleSheet';
