// Lead imports: upload → headers and a suggested mapping (the shared sheet reader and column matcher) →
// the user confirms the mapping, the duplicates policy, tags and consent → the job (lead-job.ts) → the
// report: counts by outcome, rows a page at a time, and the error sheet through the one export job.
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type LeadColumnMapping,
  type LeadImport,
  type LeadImportUpload,
  type LeadRowProblem,
  type LeadRows,
  type LeadTarget,
  leadTargetHints,
  leadTargetLabels,
  leadTargets,
  type startLeadImportBodySchema,
} from '../../../contracts/contacts';
import { exportFormats } from '../../../contracts/exports';
import type { LeadImportCounts, LeadRowOutcome } from '../../../contracts/marketing';
import type { Db } from '../../db/client';
import { jobs, leadImportRows, leadImports } from '../../db/schema';
import { taskAccepted } from '../../jobs/queue';
import type { Actor } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { badRowReader, errorSheetDefinition } from '../../lib/sheet-import/error-sheet';
import { guessColumns, mappingShapeProblem } from '../../lib/sheet-import/mapping';
import {
  openSheet,
  receiveSheetUpload,
  SheetError,
  sheetHttpError,
  withReceivedSheet,
} from '../../lib/sheets';
import type { FileStorage } from '../../lib/storage/types';
import { exportJobHandler } from '../exports/export-job';
import { LEAD_FOLDER, LEAD_IMPORT_KIND, leadFileKey, leadTaskName } from './lead-job';
import { leadNamedTargets } from './lead-rows';

export { LEAD_FOLDER };

type Row = typeof leadImports.$inferSelect;

export const emptyLeadCounts = (): LeadImportCounts => ({ created: 0, updated: 0, skipped: 0, invalid: 0 });

const notFound = () => new HttpError(404, 'There is no such lead import.', 'LEAD_IMPORT_NOT_FOUND');

export const leadTargetOptions = () =>
  leadTargets.map((target) => ({
    target,
    label: leadTargetLabels[target],
    hint: leadTargetHints[target],
    required: target === 'email',
  }));

export function toLeadImport(row: Row): LeadImport {
  const defaults = row.defaults as { tags?: string[]; consent?: boolean };
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    fileSize: row.fileSize,
    headers: row.headers,
    mapping: row.mapping as unknown as LeadColumnMapping[],
    duplicates: row.duplicates,
    tags: defaults.tags ?? [],
    consent: defaults.consent ?? false,
    status: row.status,
    awaitingMapping: row.status === 'queued' && row.taskId === null,
    rowsRead: row.rowsRead,
    progress: row.progress,
    counts: { ...emptyLeadCounts(), ...row.counts },
    rowsPerSecond: row.rowsPerSecond,
    error: row.error,
    taskId: row.taskId,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

export async function findLeadImport(db: Db, id: string): Promise<Row> {
  const [row] = await db.select().from(leadImports).where(eq(leadImports.id, id));
  if (!row) throw notFound();
  return row;
}

/** Receives the sheet, reads its header and answers the suggested mapping; nothing runs yet. */
export async function uploadLeadSheet(
  deps: { db: Db; storage: FileStorage; dataDir: string },
  request: FastifyRequest,
  actor: Actor,
): Promise<LeadImportUpload> {
  const { db, storage, dataDir } = deps;
  const file = await receiveSheetUpload(request, { storage, dataDir, folder: LEAD_FOLDER });
  return withReceivedSheet(storage, file, async () => {
    let headers: string[];
    try {
      const sheet = await openSheet(file.localPath, {
        format: file.format,
        user: request.user.id,
      });
      headers = sheet.headers;
      await sheet.close();
    } catch (error) {
      if (error instanceof SheetError) throw sheetHttpError(error);
      throw error;
    }
    const mapping = guessColumns(headers, leadNamedTargets) as LeadColumnMapping[];
    const [row] = await db
      .insert(leadImports)
      .values({
        fileName: file.fileName,
        format: file.format,
        fileSize: file.size,
        storagePath: file.relativePath,
        headers,
        mapping: mapping as unknown as Record<string, string | null>,
        counts: emptyLeadCounts(),
        createdBy: actor.id,
        createdByName: actor.name,
      })
      .returning();
    return { import: toLeadImport(row as Row), targets: leadTargetOptions() };
  });
}

function leadMappingProblem(mapping: readonly LeadColumnMapping[], headers: readonly string[]) {
  const shape = mappingShapeProblem(mapping, headers, (target) => leadTargetLabels[target as LeadTarget]);
  if (shape) return shape;
  if (!mapping.some((column) => column.target === 'email'))
    return 'Map a column to E-mail: every lead needs an address.';
  return null;
}

/** Confirms the mapping and the duplicates policy, and starts the job (once: a second start is 409). */
export async function startLeadImport(
  app: FastifyInstance,
  ownerId: string,
  id: string,
  body: z.output<typeof startLeadImportBodySchema>,
) {
  const job = await app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(leadImports).where(eq(leadImports.id, id)).for('update');
    if (!row) throw notFound();
    if (row.taskId !== null) {
      throw new HttpError(409, 'This import has already started.', 'LEAD_IMPORT_STARTED');
    }
    const problem = leadMappingProblem(body.mapping, row.headers);
    if (problem) throw new HttpError(400, problem, 'INVALID_MAPPING', { mapping: problem });
    const [job] = await tx
      .insert(jobs)
      .values({
        kind: LEAD_IMPORT_KIND,
        name: leadTaskName(row.fileName),
        ownerId,
        payload: { importId: id },
        maxAttempts: 5,
      })
      .returning();
    if (!job) throw new Error('the job was not stored');
    await tx
      .update(leadImports)
      .set({
        mapping: body.mapping as unknown as Record<string, string | null>,
        duplicates: body.duplicates,
        defaults: { tags: body.tags, consent: body.consent },
        taskId: job.id,
      })
      .where(eq(leadImports.id, id));
    return job;
  });
  app.jobs.worker.wake();
  return { import: toLeadImport(await findLeadImport(app.db, id)), ...taskAccepted(job) };
}

export async function listLeadImports(db: Db, page: { skip: number; limit: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(leadImports)
      .orderBy(desc(leadImports.createdAt), desc(leadImports.id))
      .offset(page.skip)
      .limit(page.limit),
    db.select({ n: count() }).from(leadImports),
  ]);
  return { result: rows.map(toLeadImport), count: total?.n ?? 0 };
}

export async function leadImportRowsPage(
  db: Db,
  id: string,
  query: { outcome?: LeadRowOutcome | undefined; skip: number; limit: number },
): Promise<LeadRows> {
  await findLeadImport(db, id);
  const where = and(
    eq(leadImportRows.importId, id),
    query.outcome ? eq(leadImportRows.outcome, query.outcome) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(leadImportRows)
      .where(where)
      .orderBy(asc(leadImportRows.line))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: count() }).from(leadImportRows).where(where),
  ]);
  return {
    result: rows.map((row) => ({
      line: row.line,
      outcome: row.outcome as LeadRows['result'][number]['outcome'],
      email: row.email,
      contactId: row.contactId,
      cells: row.cells,
      errors: row.errors as LeadRowProblem[],
    })),
    count: total?.n ?? 0,
  };
}

/** Deletes an import that never started (the user left the mapping step), with its file. */
export async function discardLeadImport(db: Db, storage: FileStorage, id: string) {
  const row = await findLeadImport(db, id);
  if (row.taskId !== null) {
    throw new HttpError(409, 'This import has started: its report stays.', 'LEAD_IMPORT_STARTED');
  }
  await db.delete(leadImports).where(eq(leadImports.id, id));
  // Row first, then file: an outage here leaves an orphan file, never a row without its file.
  await storage.delete(leadFileKey(row.storagePath)).catch(() => undefined);
}

// ── The error sheet ─────────────────────────────────────────────────────────────────────────────────

export const LEAD_ERRORS_KIND = 'export.leadImportErrors';
export const LEAD_ERRORS_NAME = 'Lead import error sheet';
const errorSheetPayloadSchema = z.object({ importId: z.string().uuid(), format: z.enum(exportFormats) });

export const leadErrorSheetHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(
    errorSheetDefinition({
      kind: LEAD_ERRORS_KIND,
      name: LEAD_ERRORS_NAME,
      fileStem: 'lead-import-errors',
      payloadSchema: errorSheetPayloadSchema,
      async headersOf(db, payload) {
        const [row] = await db
          .select({ headers: leadImports.headers })
          .from(leadImports)
          .where(eq(leadImports.id, payload.importId));
        return row?.headers ?? [];
      },
      ...badRowReader({
        table: leadImportRows,
        line: leadImportRows.line,
        cells: leadImportRows.cells,
        errors: leadImportRows.errors,
        badRowsOf: (payload: z.output<typeof errorSheetPayloadSchema>) =>
          and(eq(leadImportRows.importId, payload.importId), eq(leadImportRows.outcome, 'invalid')),
      }),
    }),
    options,
  );
