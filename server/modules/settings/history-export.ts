// The settings history's export (issue 29): every change the list's filters select, one row per field
// (When, Who, Scope, Section, Field as the page labels it, Field key, Before, After, Request id), newest
// first, through the one export job. The labels are the page's own (contracts/settings-labels.ts). The
// route resolves whose history the user may read before the job starts, so the job writes that scope
// only: a seller's file holds their shop's changes and nothing else.
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportFormats } from '../../../contracts/exports';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import { SETTINGS_ROUTE, type StoredSection, storedSections } from '../../../contracts/settings';
import {
  settingsHistoryExportBodySchema,
  settingsHistoryFiltersSchema,
} from '../../../contracts/settings-history';
import { fieldLabel, sectionTitles } from '../../../contracts/settings-labels';
import type { Db } from '../../db/client';
import { auditEntries, type FieldChange, sellers } from '../../db/schema';
import { taskAccepted } from '../../jobs/queue';
import { errorResponses } from '../../lib/error-responses';
import type { FileStorage } from '../../lib/storage/types';
import { type ExportCursor, type ExportDefinition, exportJobHandler } from '../exports/export-job';
import type { Cell, Column } from '../exports/table';
import { historyConditions } from './history';
import { historyScopeOf, type ScopeOf } from './history-actors';

export const SETTINGS_HISTORY_EXPORT_KIND = 'export.settings-history';
export const SETTINGS_HISTORY_EXPORT_NAME = 'Settings history export';

/** The job's payload: the filters, and the scope the route allowed ('all': every scope, admins). */
export const historyExportPayloadSchema = settingsHistoryFiltersSchema.omit({ sellerId: true }).extend({
  scope: z.union([z.literal('all'), z.object({ sellerId: z.string().uuid().nullable() })]),
  format: z.enum(exportFormats),
});
export type HistoryExportPayload = z.infer<typeof historyExportPayloadSchema>;

const columns: Column[] = [
  { header: 'When', width: 20 },
  { header: 'Who', width: 24 },
  { header: 'Scope', width: 24 },
  { header: 'Section', width: 14 },
  { header: 'Field', width: 26 },
  { header: 'Field key', width: 20 },
  { header: 'Before', width: 40 },
  { header: 'After', width: 40 },
  { header: 'Request id', width: 24 },
];

/** One field change of an entry (an entry without changes still gets one row, so none is lost). */
interface ChangeRow {
  id: string;
  cursorKey: string;
  at: Date;
  actorName: string;
  section: string;
  sellerId: string | null;
  sellerName: string | null;
  requestId: string | null;
  change: FieldChange | null;
}

const isStoredSection = (section: string): section is StoredSection =>
  (storedSections as readonly string[]).includes(section);

/** A section's title as its tab names it (an entry of a section since removed: its name as stored). */
const sectionName = (section: string) => (isStoredSection(section) ? sectionTitles[section] : section);

/** A stored value as one cell: text as is, numbers bare, anything else (lists, objects) as JSON. */
export function valueCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return JSON.stringify(value);
}

function cellsOf(row: ChangeRow): Cell[] {
  return [
    row.at,
    row.actorName,
    row.sellerId === null ? 'Marketplace' : (row.sellerName ?? row.sellerId),
    sectionName(row.section),
    row.change ? fieldLabel(row.section as StoredSection, row.change.field) : null,
    row.change?.field ?? null,
    valueCell(row.change?.before),
    valueCell(row.change?.after),
    row.requestId,
  ];
}

async function conditionsOf(db: Db, payload: HistoryExportPayload): Promise<SQL> {
  const { scope, format: _format, ...filters } = payload;
  const conditions = await historyConditions(db, {
    ...filters,
    scope: scope === 'all' ? undefined : scope,
  });
  return and(eq(auditEntries.subjectType, 'settings'), ...conditions) as SQL;
}

async function countChanges(db: Db, payload: HistoryExportPayload): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(greatest(jsonb_array_length(${auditEntries.changes}), 1)), 0)` })
    .from(auditEntries)
    .where(await conditionsOf(db, payload));
  return Number(row?.n ?? 0);
}

/**
 * Entries after the cursor in the list's order (newest first: time, then write order). The cursor is
 * `time|seq` as text, cast back, so entries of one transaction (one time) are neither skipped nor
 * repeated. Each entry becomes one row per field change.
 */
async function readBatch(
  db: Db,
  payload: HistoryExportPayload,
  after: ExportCursor | null,
  limit: number,
): Promise<ChangeRow[]> {
  const cut = after?.key.lastIndexOf('|') ?? -1;
  const keyset =
    after && cut > 0
      ? sql`(${auditEntries.createdAt}, ${auditEntries.seq}) < (CAST(${after.key.slice(0, cut)} AS timestamptz), CAST(${after.key.slice(cut + 1)} AS bigint))`
      : undefined;
  const entries = await db
    .select({
      id: auditEntries.id,
      at: auditEntries.createdAt,
      actorName: auditEntries.actorName,
      section: auditEntries.action,
      sellerId: auditEntries.subjectId,
      sellerName: sellers.sellerName,
      requestId: auditEntries.note,
      changes: auditEntries.changes,
      cursorKey: sql<string>`${auditEntries.createdAt}::text || '|' || ${auditEntries.seq}::text`,
    })
    .from(auditEntries)
    .leftJoin(sellers, eq(sellers.id, auditEntries.subjectId))
    .where(and(await conditionsOf(db, payload), keyset))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.seq))
    .limit(limit);
  return entries.flatMap(({ changes, ...entry }): ChangeRow[] =>
    changes.length === 0 ? [{ ...entry, change: null }] : changes.map((change) => ({ ...entry, change })),
  );
}

export const settingsHistoryExport: ExportDefinition<HistoryExportPayload, ChangeRow> = {
  kind: SETTINGS_HISTORY_EXPORT_KIND,
  name: SETTINGS_HISTORY_EXPORT_NAME,
  fileStem: 'settings-history',
  sheetName: 'Settings history',
  noun: ['change', 'changes'],
  payloadSchema: historyExportPayloadSchema,
  columns: async () => ({ columns }),
  count: countChanges,
  readBatch,
  cellsOf,
};

export const settingsHistoryExportHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(settingsHistoryExport, options);

/** POST /history/export, registered by the settings routes (under their prefix). */
export function historyExportRoute(app: FastifyInstance, scopeOf: ScopeOf) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/history/export',
    {
      // Whoever may read the history may take it away as a file: the same rows, the same scope.
      config: { permission: { route: SETTINGS_ROUTE, action: 'view' as const } },
      schema: {
        tags: ['settings', 'exports'],
        summary: 'Exports the settings history the filters select to CSV or XLSX, one row per field',
        description:
          'Answers 202 with `taskStatus` at once. When the file is written, the owner is notified on the broker with a link to `/api/v1/exports/{taskId}/download`.',
        body: settingsHistoryExportBodySchema,
        response: { 202: taskAcceptedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { sellerId, format, ...filters } = request.body;
      const scope = await historyScopeOf(scopeOf, app, request, sellerId);
      const payload: HistoryExportPayload = { ...filters, scope: scope ?? 'all', format };
      const job = await app.jobs.enqueue({
        kind: SETTINGS_HISTORY_EXPORT_KIND,
        name: SETTINGS_HISTORY_EXPORT_NAME,
        ownerId: request.user.id,
        payload,
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );
}
