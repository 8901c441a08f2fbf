// Tag tree API (issue 16), under /api/v1/tags. Every route names the Manage Tags permission it needs:
// view to read, create / edit / delete to change the draft, export, and publish (publish and roll back).
// Sellers read published versions only: any route that reads or changes the draft refuses them.
//
// A tree is named by `:source` — `draft`, `latest` (what the storefront shows) or a version number — so
// the draft and every version are read through the same four routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageSchema, auditQuerySchema } from '../../../contracts/audit';
import { intParam } from '../../../contracts/int-param';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import type { RouteAction } from '../../../contracts/routes';
import {
  createTagBodySchema,
  deleteTagBodySchema,
  deleteTagImpactSchema,
  deleteTagResultSchema,
  moveTagBodySchema,
  publishBodySchema,
  publishPreviewSchema,
  rollbackBodySchema,
  TAGS_ROUTE,
  tagAllPageSchema,
  tagAllQuerySchema,
  tagChildrenQuerySchema,
  tagDiffQuerySchema,
  tagDiffSchema,
  tagExportBodySchema,
  tagNodeListSchema,
  tagNodeWithPathSchema,
  tagOverviewSchema,
  tagSearchQuerySchema,
  tagSearchResultSchema,
  tagTreeSourceSchema,
  tagTreeStateSchema,
  tagVersionListQuerySchema,
  tagVersionListSchema,
  tagVersionSchema,
  updateTagBodySchema,
} from '../../../contracts/tags';
import { taskAccepted } from '../../jobs/queue';
import { readAuditPage } from '../../lib/audit';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { exportJobHandler } from '../exports/export-job';
import { viewerOf } from '../products/products';
import { actorOf } from '../users/actor';
import { createTag, deleteImpact, deleteTag, moveTag, updateTag } from './draft-writes';
import { LEVELS_KIND, LEVELS_TASK_NAME, levelsHandler } from './levels-job';
import { tagOverview } from './overview';
import { TAGS_EXPORT_KIND, TAGS_EXPORT_NAME, tagsExport } from './tags-export';
import { allNodes, childrenOf, readNode, searchNodes } from './tree-reads';
import { type ResolvedSource, resolveSource } from './tree-source';
import {
  diffTrees,
  listVersions,
  publish,
  publishPreview,
  readTreeState,
  readVersion,
  rollback,
} from './versions';

const tags = (action: RouteAction) => ({ permission: { route: TAGS_ROUTE, action } });
const openapiTags = ['tags'];
const nodeParams = z.object({ id: z.string().uuid('There is no such tag.') });
const sourceParams = z.object({ source: tagTreeSourceSchema });
const sourceNodeParams = sourceParams.extend({ id: z.string().uuid('There is no such tag.') });
const versionParams = z.object({ number: intParam.min(1, 'There is no such version.') });

/** The draft is for staff and admins: sellers read what is published. */
function assertNotSeller(request: FastifyRequest) {
  if (viewerOf(request).sellerId) {
    throw new HttpError(403, 'Sellers read the published tag tree, not the draft.', 'DRAFT_FOR_STAFF');
  }
}

export async function tagRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(LEVELS_KIND, levelsHandler({ db: app.db }));
  app.jobs.register(
    TAGS_EXPORT_KIND,
    exportJobHandler(tagsExport, { db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );

  /** The tree a read names, refusing the draft to sellers. */
  const sourceOf = async (request: FastifyRequest, source: z.infer<typeof tagTreeSourceSchema>) => {
    if (source === 'draft') assertNotSeller(request);
    return resolveSource(app.db, source);
  };
  const draft: ResolvedSource = { kind: 'draft' };

  api.get(
    '/state',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'The draft revision, the latest version and when node levels were last calculated',
        response: { 200: tagTreeStateSchema, ...errors },
      },
    },
    async () => readTreeState(app.db),
  );

  // ── Reading a tree ────────────────────────────────────────────────────────────────────────────────

  api.get(
    '/trees/:source/children',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'A node’s children (the top-level tags without `parent`), by name, a page at a time',
        params: sourceParams,
        querystring: tagChildrenQuerySchema,
        response: { 200: tagNodeListSchema, ...errors },
      },
    },
    async (request) => childrenOf(app.db, await sourceOf(request, request.params.source), request.query),
  );

  api.get(
    '/trees/:source/search',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'Tags whose name or code contains the query, with their paths',
        params: sourceParams,
        querystring: tagSearchQuerySchema,
        response: { 200: tagSearchResultSchema, ...errors },
      },
    },
    async (request) => searchNodes(app.db, await sourceOf(request, request.params.source), request.query),
  );

  api.get(
    '/trees/:source/all',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'Every tag, a page at a time, compact: to show the whole tree expanded',
        params: sourceParams,
        querystring: tagAllQuerySchema,
        response: { 200: tagAllPageSchema, ...errors },
      },
    },
    async (request) => allNodes(app.db, await sourceOf(request, request.params.source), request.query),
  );

  api.get(
    '/trees/:source/nodes/:id',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'One tag with the names of its ancestors',
        params: sourceNodeParams,
        response: { 200: tagNodeWithPathSchema, ...errors },
      },
    },
    async (request) => readNode(app.db, await sourceOf(request, request.params.source), request.params.id),
  );

  // ── Changing the draft ────────────────────────────────────────────────────────────────────────────

  api.post(
    '/draft/nodes',
    {
      config: tags('create'),
      schema: {
        tags: openapiTags,
        summary: 'Adds a tag to the draft, under a parent or at the top level',
        body: createTagBodySchema,
        response: { 201: tagNodeWithPathSchema, ...errors },
      },
    },
    async (request, reply) => {
      assertNotSeller(request);
      const id = await createTag(app.db, await actorOf(app.db, request), request.body);
      return reply.code(201).send(await readNode(app.db, draft, id));
    },
  );

  api.patch(
    '/draft/nodes/:id',
    {
      config: tags('edit'),
      schema: {
        tags: openapiTags,
        summary: 'Renames a draft tag or changes its code (the version read must be current)',
        params: nodeParams,
        body: updateTagBodySchema,
        response: { 200: tagNodeWithPathSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      await updateTag(app.db, await actorOf(app.db, request), request.params.id, request.body);
      return readNode(app.db, draft, request.params.id);
    },
  );

  api.post(
    '/draft/nodes/:id/move',
    {
      config: tags('edit'),
      schema: {
        tags: openapiTags,
        summary: 'Moves a draft tag and its subtree under another parent (never under itself)',
        params: nodeParams,
        body: moveTagBodySchema,
        response: { 200: tagNodeWithPathSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      await moveTag(app.db, await actorOf(app.db, request), request.params.id, request.body);
      return readNode(app.db, draft, request.params.id);
    },
  );

  api.get(
    '/draft/nodes/:id/deleteImpact',
    {
      config: tags('delete'),
      schema: {
        tags: openapiTags,
        summary: 'What deleting a draft tag would touch: its children, descendants and products',
        params: nodeParams,
        response: { 200: deleteTagImpactSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      return deleteImpact(app.db, request.params.id);
    },
  );

  api.post(
    '/draft/nodes/:id/delete',
    {
      config: tags('delete'),
      schema: {
        tags: openapiTags,
        summary:
          'Deletes a draft tag; its children move up or go with it; its products get the parent or lose it',
        params: nodeParams,
        body: deleteTagBodySchema,
        response: { 200: deleteTagResultSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      return deleteTag(app.db, await actorOf(app.db, request), request.params.id, request.body);
    },
  );

  api.get(
    '/draft/nodes/:id/history',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'What happened to a draft tag, newest first',
        params: nodeParams,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      return readAuditPage(app.db, { type: 'tag', id: request.params.id }, request.query);
    },
  );

  api.post(
    '/calculateLevels',
    {
      config: tags('edit'),
      schema: {
        tags: openapiTags,
        summary: 'Recomputes every tag’s level and product counts as a task',
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      assertNotSeller(request);
      const job = await app.jobs.enqueue({
        kind: LEVELS_KIND,
        name: LEVELS_TASK_NAME,
        ownerId: request.user.id,
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );

  // ── Publishing and versions ───────────────────────────────────────────────────────────────────────

  api.get(
    '/publishPreview',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary:
          'What publishing the draft would change, the tags whose products need a destination, and integrity problems',
        response: { 200: publishPreviewSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      return publishPreview(app.db);
    },
  );

  api.post(
    '/publish',
    {
      config: tags('publish'),
      schema: {
        tags: openapiTags,
        summary:
          'Publishes the draft as the next version, atomically (the draft revision read must be current)',
        body: publishBodySchema,
        response: { 201: tagVersionSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await publish(app.db, await actorOf(app.db, request), request.body)),
  );

  api.post(
    '/rollback',
    {
      config: tags('publish'),
      schema: {
        tags: openapiTags,
        summary: 'Makes a published version the draft again; publishing it makes a new version',
        body: rollbackBodySchema,
        response: { 200: tagTreeStateSchema, ...errors },
      },
    },
    async (request) => rollback(app.db, await actorOf(app.db, request), request.body),
  );

  api.get(
    '/versions',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'Published versions, newest first',
        querystring: tagVersionListQuerySchema,
        response: { 200: tagVersionListSchema, ...errors },
      },
    },
    async (request) => listVersions(app.db, request.query),
  );

  api.get(
    '/versions/:number',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'One published version',
        params: versionParams,
        response: { 200: tagVersionSchema, ...errors },
      },
    },
    async (request) => readVersion(app.db, request.params.number),
  );

  api.get(
    '/diff',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'What differs between two trees (the draft, `latest`, or version numbers)',
        querystring: tagDiffQuerySchema,
        response: { 200: tagDiffSchema, ...errors },
      },
    },
    async (request) => {
      const [from, to] = await Promise.all([
        sourceOf(request, request.query.from),
        sourceOf(request, request.query.to),
      ]);
      return diffTrees(app.db, from, to);
    },
  );

  api.get(
    '/history',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'What happened to the tree: publishes, rollbacks, level calculations, newest first',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      return readAuditPage(app.db, { type: 'tag', id: null }, request.query);
    },
  );

  api.get(
    '/overview',
    {
      config: tags('view'),
      schema: {
        tags: openapiTags,
        summary: 'The draft by status, depth, tags without products and the largest subtrees',
        response: { 200: tagOverviewSchema, ...errors },
      },
    },
    async (request) => {
      assertNotSeller(request);
      return tagOverview(app.db);
    },
  );

  api.post(
    '/export',
    {
      config: tags('export'),
      schema: {
        tags: openapiTags,
        summary:
          'Writes the draft or a version to CSV, XLSX (a row per tag with its path) or nested JSON, as a task',
        body: tagExportBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const source = request.body.source;
      if (source === 'draft') assertNotSeller(request);
      else await resolveSource(app.db, source);
      const job = await app.jobs.enqueue({
        kind: TAGS_EXPORT_KIND,
        name: TAGS_EXPORT_NAME,
        ownerId: request.user.id,
        payload: { source, format: request.body.format },
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );
}
