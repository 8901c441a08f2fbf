// The tag tree (issue 16, SPEC §1–2 "Tags"). Shared by the server, the SPA and the tests.
//
// The model:
// - People edit a DRAFT tree. Nothing they do reaches the storefront until someone with the publish
//   permission publishes it, as a new numbered VERSION, atomically: the published read API serves one
//   whole version or the one before, never half of one.
// - A version is immutable. Rolling back to version K makes K the draft again; publishing it makes a
//   new version, so the history is never rewritten.
// - A node keeps its id for life, across the draft and every version: products carry node ids.
// - Every draft write names the node version it read (`version`); a stale one answers 409 saying who
//   changed the node. Publishing names the draft revision its diff was read at, for the same reason.
import { z } from 'zod';
import { exportFormats } from './exports';
import { intParam } from './int-param';

export const TAGS_ROUTE = '/tags/manage-tags';

export const TAG_NAME_MAX = 120;
export const TAG_CODE_MAX = 80;
/** Children a tree expand answers at most per page. */
export const TAG_CHILDREN_PAGE_MAX = 1000;
/** Entries each kind of change lists in a diff (the counts are always exact). */
export const TAG_DIFF_LIST_MAX = 500;

const uuid = (message: string) => z.string().uuid(message);

export const tagNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the tag a name.')
  .max(TAG_NAME_MAX, `A tag name has at most ${TAG_NAME_MAX} characters.`)
  .refine((name) => !/[\r\n\t]/.test(name), 'A tag name is one line of text.')
  .refine((name) => !name.includes('>'), 'A tag name cannot contain ">" (it separates levels in a path).');

export const tagCodeSchema = z
  .string()
  .trim()
  .min(1, 'Give the tag a code.')
  .max(TAG_CODE_MAX, `A code has at most ${TAG_CODE_MAX} characters.`)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'A code is lower-case letters and digits joined by single hyphens.');

/** A node's state in the draft against the published tree. */
export const tagStatuses = ['published', 'new', 'changed', 'removed'] as const;
export type TagStatus = (typeof tagStatuses)[number];
export const tagStatusLabels: Record<TagStatus, string> = {
  published: 'Published',
  new: 'New',
  changed: 'Changed',
  removed: 'To be removed',
};

export const tagNodeSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  level: z.number().int(),
  childrenCount: z.number().int(),
  /** Products tagged with the node, and with any node of its subtree (as of the last level calculation). */
  productCount: z.number().int(),
  productTotal: z.number().int(),
  /** Draft nodes only: against the published tree. */
  status: z.enum(tagStatuses),
  /** Draft nodes only: what a write must name. */
  version: z.number().int(),
  updatedBy: z.string(),
  updatedAt: z.string(),
});
export type TagNode = z.infer<typeof tagNodeSchema>;

/** A node with the names of its ancestors, root first (search results, the details panel). */
export const tagNodeWithPathSchema = tagNodeSchema.extend({
  pathNames: z.array(z.string()),
  /** The ancestors' ids, root first (to open the tree down to the node). */
  ancestorIds: z.array(z.string()),
});
export type TagNodeWithPath = z.infer<typeof tagNodeWithPathSchema>;

export const tagNodeListSchema = z.object({ result: z.array(tagNodeSchema), count: z.number().int() });
export type TagNodeList = z.infer<typeof tagNodeListSchema>;
export const tagSearchResultSchema = z.object({
  result: z.array(tagNodeWithPathSchema),
  count: z.number().int(),
});
export type TagSearchResult = z.infer<typeof tagSearchResultSchema>;

/** Which tree a read is of: the draft, or a published version (`latest` or a number). */
export const tagTreeSourceSchema = z.union([
  z.literal('draft'),
  z.literal('latest'),
  intParam.min(1, 'There is no such version.'),
]);
export type TagTreeSource = z.infer<typeof tagTreeSourceSchema>;

export const tagChildrenQuerySchema = z.object({
  /** The parent node; absent for the roots. */
  parent: uuid('There is no such tag.').optional(),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(TAG_CHILDREN_PAGE_MAX).default(200),
});
export type TagChildrenQuery = z.input<typeof tagChildrenQuerySchema>;

export const tagSearchQuerySchema = z.object({
  query: z.string().trim().min(1, 'Type something to search for.').max(100),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(50),
});
export type TagSearchQuery = z.input<typeof tagSearchQuerySchema>;

/** "Expand all": every node, a page at a time in seq order, compact (the client builds the tree). */
export const tagAllQuerySchema = z.object({
  after: intParam.default(0),
  limit: intParam.min(1).max(10_000).default(5_000),
});
/** [id, parentId, name, code, level, childrenCount, productTotal, status] */
export const compactTagSchema = z.tuple([
  z.string(),
  z.string().nullable(),
  z.string(),
  z.string(),
  z.number().int(),
  z.number().int(),
  z.number().int(),
  z.enum(tagStatuses),
]);
export type CompactTag = z.infer<typeof compactTagSchema>;
export const tagAllPageSchema = z.object({
  result: z.array(compactTagSchema),
  /** Pass as `after` for the next page; null at the end. */
  next: z.number().int().nullable(),
  count: z.number().int(),
});
export type TagAllPage = z.infer<typeof tagAllPageSchema>;

// ── Draft writes ───────────────────────────────────────────────────────────────────────────────────

export const createTagBodySchema = z.object({
  parentId: uuid('There is no such parent tag.').nullable(),
  name: tagNameSchema,
  /** Made from the name when not given. */
  code: tagCodeSchema.optional(),
});
export type CreateTagBody = z.input<typeof createTagBodySchema>;

export const updateTagBodySchema = z
  .object({
    version: z.number().int().min(1),
    name: tagNameSchema.optional(),
    code: tagCodeSchema.optional(),
  })
  .refine((body) => body.name !== undefined || body.code !== undefined, {
    message: 'Give a new name or code.',
    path: ['name'],
  });
export type UpdateTagBody = z.input<typeof updateTagBodySchema>;

export const moveTagBodySchema = z.object({
  version: z.number().int().min(1),
  /** The new parent; null makes the node a root. */
  parentId: uuid('There is no such parent tag.').nullable(),
});
export type MoveTagBody = z.input<typeof moveTagBodySchema>;

/** What becomes of a deleted node's children: they move up to its parent, or go with it. */
export const tagChildrenRules = ['lift', 'delete'] as const;
/** What becomes of products tagged with a deleted node: they get its parent instead, or lose the tag. */
export const tagProductRules = ['parent', 'untag'] as const;
export const deleteTagBodySchema = z.object({
  version: z.number().int().min(1),
  children: z.enum(tagChildrenRules).default('lift'),
  products: z.enum(tagProductRules).default('untag'),
});
export type DeleteTagBody = z.input<typeof deleteTagBodySchema>;
export const deleteTagResultSchema = z.object({
  deleted: z.number().int(),
  lifted: z.number().int(),
  productsChanged: z.number().int(),
});
export type DeleteTagResult = z.infer<typeof deleteTagResultSchema>;

/** What deleting a node would touch, for the question the page asks first. */
export const deleteTagImpactSchema = z.object({
  children: z.number().int(),
  descendants: z.number().int(),
  /** Products tagged with the node itself, and with any node of its subtree. */
  products: z.number().int(),
  subtreeProducts: z.number().int(),
});
export type DeleteTagImpact = z.infer<typeof deleteTagImpactSchema>;

// ── Diff, publish, versions ────────────────────────────────────────────────────────────────────────

export const tagDiffNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  /** The names from the root down to the node, joined with " > ". */
  path: z.string(),
  level: z.number().int(),
});
export type TagDiffNode = z.infer<typeof tagDiffNodeSchema>;

export const tagDiffSchema = z.object({
  from: z.string(),
  to: z.string(),
  counts: z.object({
    added: z.number().int(),
    removed: z.number().int(),
    renamed: z.number().int(),
    moved: z.number().int(),
    recoded: z.number().int(),
  }),
  added: z.array(tagDiffNodeSchema),
  removed: z.array(tagDiffNodeSchema),
  renamed: z.array(tagDiffNodeSchema.extend({ before: z.string() })),
  moved: z.array(tagDiffNodeSchema.extend({ fromPath: z.string() })),
  recoded: z.array(tagDiffNodeSchema.extend({ before: z.string() })),
  /** Products tagged with a node added, removed, renamed or moved (their storefront path changes). */
  affectedProducts: z.number().int(),
  /** A list was cut at TAG_DIFF_LIST_MAX entries. */
  truncated: z.boolean(),
});
export type TagDiff = z.infer<typeof tagDiffSchema>;

export const tagDiffQuerySchema = z.object({
  from: tagTreeSourceSchema,
  to: tagTreeSourceSchema,
});

/** A removed node that products still carry: publish needs to know where they go. */
export const tagRemapNeedSchema = z.object({
  node: tagDiffNodeSchema,
  products: z.number().int(),
});
export type TagRemapNeed = z.infer<typeof tagRemapNeedSchema>;

export const publishPreviewSchema = z.object({
  draftRevision: z.number().int(),
  /** The latest version, or null before the first publish. */
  latest: z.number().int().nullable(),
  rolledBackFrom: z.number().int().nullable(),
  diff: tagDiffSchema,
  nodeCount: z.number().int(),
  remapNeeded: z.array(tagRemapNeedSchema),
  /** Integrity problems that block a publish until fixed (none in a healthy draft). */
  problems: z.array(z.string()),
});
export type PublishPreview = z.infer<typeof publishPreviewSchema>;

export const publishBodySchema = z.object({
  /** The revision the diff was read at: a draft changed since is refused (409). */
  draftRevision: z.number().int().min(0),
  note: z.string().trim().max(500).default(''),
  /** Where the products of each removed node go: another node of the draft, or nowhere (untag). */
  remap: z
    .array(z.object({ nodeId: uuid('There is no such tag.'), to: uuid('There is no such tag.').nullable() }))
    .max(10_000)
    .default([]),
});
export type PublishBody = z.input<typeof publishBodySchema>;

export const tagVersionSchema = z.object({
  number: z.number().int(),
  note: z.string(),
  publishedBy: z.object({ id: z.string().nullable(), name: z.string() }),
  publishedAt: z.string(),
  rolledBackFrom: z.number().int().nullable(),
  nodeCount: z.number().int(),
  summary: z.object({
    added: z.number().int(),
    removed: z.number().int(),
    renamed: z.number().int(),
    moved: z.number().int(),
  }),
});
export type TagVersion = z.infer<typeof tagVersionSchema>;
export const tagVersionListSchema = z.object({ result: z.array(tagVersionSchema), count: z.number().int() });
export type TagVersionList = z.infer<typeof tagVersionListSchema>;
export const tagVersionListQuerySchema = z.object({
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});

export const rollbackBodySchema = z.object({
  version: z.number().int().min(1),
  /** The draft revision the user saw: a draft changed since is refused (its edits would be lost). */
  draftRevision: z.number().int().min(0),
});
export type RollbackBody = z.input<typeof rollbackBodySchema>;

export const tagTreeStateSchema = z.object({
  draftRevision: z.number().int(),
  latest: z.number().int().nullable(),
  basedOn: z.number().int().nullable(),
  rolledBackFrom: z.number().int().nullable(),
  nodeCount: z.number().int(),
  /** When the last "calculate node levels" finished (product counts are as of then). */
  levelsCalculatedAt: z.string().nullable(),
});
export type TagTreeState = z.infer<typeof tagTreeStateSchema>;

// ── Overview, export ───────────────────────────────────────────────────────────────────────────────

export const tagOverviewSchema = z.object({
  byStatus: z.object({
    published: z.number().int(),
    new: z.number().int(),
    changed: z.number().int(),
    removed: z.number().int(),
  }),
  depth: z.array(z.object({ level: z.number().int(), count: z.number().int() })),
  withoutProducts: z.number().int(),
  largestSubtrees: z.array(tagDiffNodeSchema.extend({ size: z.number().int(), products: z.number().int() })),
  nodeCount: z.number().int(),
});
export type TagOverview = z.infer<typeof tagOverviewSchema>;

export const tagExportFormats = [...exportFormats, 'json'] as const;
export type TagExportFormat = (typeof tagExportFormats)[number];
export const tagExportBodySchema = z.object({
  source: z.union([z.literal('draft'), z.number().int().min(1)]).default('draft'),
  format: z.enum(tagExportFormats).default('csv'),
});
export type TagExportBody = z.input<typeof tagExportBodySchema>;
