// The lead import job: the sheet streamed through the shared reader (server/lib/sheets) and chunk loop
// (server/lib/sheet-import), each row checked (lead-rows.ts), de-duplicated within the sheet (the first
// row of an address wins) and against the contacts (update or skip, as the user chose), and each chunk of
// ~1,000 rows written set-based — the contacts, their timeline entries, the per-row report and the
// import's counts and checkpoint in ONE transaction. A resumed job (a crash, a retry) reopens the sheet
// after the checkpoint, so every row is counted once and no contact is written twice.
//
// An import never changes a contact's subscription: unsubscribed and bounced contacts stay so whatever
// the sheet says, and a new address on the suppression list starts unsubscribed.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatNumber } from '../../../contracts/domain/format';
import type { LeadImportCounts } from '../../../contracts/marketing';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { contacts, emailUnsubscribes, type FieldChange, leadImportRows, leadImports } from '../../db/schema';
import { GENERIC_JOB_ERROR, type JobContext, JobFailure, type JobHandler } from '../../jobs/worker';
import { recordAuditEntries } from '../../lib/audit';
import { forEachSheetChunk } from '../../lib/sheet-import/chunks';
import { openSheet, SheetError, type SheetRow } from '../../lib/sheets';
import { StorageUnavailableError } from '../../lib/storage/errors';
import { keyInFolder } from '../../lib/storage/keys';
import type { FileStorage } from '../../lib/storage/types';
import { contactSearchKey } from './audience';
import { companyTypeByName } from './company-types';
import { type LeadContext, type LeadFields, type LeadVerdict, leadVerdict } from './lead-rows';

/** Where lead sheets are stored (storage keys `uploads/leads/<uuid>.<csv|xlsx>`). */
export const LEAD_FOLDER = 'uploads/leads';
/** The key of a lead import's sheet (a row can only point into the leads' folder). */
export const leadFileKey = (storagePath: string) => keyInFolder(LEAD_FOLDER, storagePath);

export const LEAD_IMPORT_KIND = 'contacts.leadImport';
export const LEAD_CHUNK = 1000;
/** After an import that wrote this many contacts, VACUUM (ANALYZE) contacts; after fewer, ANALYZE. */
const VACUUM_AFTER_ROWS = 10_000;
const ANALYZE_AFTER_ROWS = 1_000;
export const leadTaskName = (fileName: string) => `Import leads from ${fileName}`;
export const leadImportLink = (id: string) => `/marketing/contacts?leadImport=${id}`;

const payloadSchema = z.object({ importId: z.string().uuid() });
type ImportRow = typeof leadImports.$inferSelect;
type ContactRow = typeof contacts.$inferSelect;

// PostgreSQL text and jsonb cannot hold NUL; a sheet may.
const clean = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

interface StoredRow {
  line: number;
  outcome: 'created' | 'updated' | 'skipped' | 'invalid';
  email: string;
  contact_id: string | null;
  cells: string[];
  errors: unknown[];
}

const editable = [
  'firstName',
  'lastName',
  'phone',
  'company',
  'companyTypeId',
  'country',
  'language',
  'tags',
  'consent',
] as const;

/** An existing contact with the sheet's non-blank values laid over it; tags are added, never removed. */
function merged(existing: ContactRow, fields: LeadFields) {
  const next = {
    firstName: fields.firstName ?? existing.firstName,
    lastName: fields.lastName ?? existing.lastName,
    phone: fields.phone ?? existing.phone,
    company: fields.company ?? existing.company,
    companyTypeId: fields.companyTypeId ?? existing.companyTypeId,
    country: fields.country ?? existing.country,
    language: fields.language ?? existing.language,
    tags: [...new Set([...existing.tags, ...fields.tags])].slice(0, 20),
    consent: fields.consent ?? existing.consent,
  };
  const changes: FieldChange[] = [];
  for (const field of editable) {
    const before = existing[field] ?? null;
    const after = next[field] ?? null;
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ field, before, after });
  }
  return { next, changes };
}

interface Update {
  id: string;
  email: string;
  next: ReturnType<typeof merged>['next'];
  changes: FieldChange[];
}

/** The first line of each address the stored rows already claimed (after a checkpoint). */
async function restoreSeen(db: Db, importId: string): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  const rows = await db
    .select({ email: leadImportRows.email, line: leadImportRows.line })
    .from(leadImportRows)
    .where(
      and(
        eq(leadImportRows.importId, importId),
        inArray(leadImportRows.outcome, ['created', 'updated', 'skipped']),
      ),
    )
    .orderBy(leadImportRows.line);
  for (const row of rows) if (row.email && !seen.has(row.email)) seen.set(row.email, row.line);
  return seen;
}

interface ChunkState {
  importId: string;
  checkpoint: number;
  duplicates: 'update' | 'skip';
  actorName: string;
  seen: Map<string, number>;
  counts: LeadImportCounts;
}

/** Writes a chunk: contacts, history, report rows, counts and checkpoint, all or nothing. */
async function writeChunk(
  db: Db,
  state: ChunkState,
  verdicts: LeadVerdict[],
  progress: { rowsRead: number; percent: number; rowsPerSecond: number },
): Promise<void> {
  const last = verdicts.at(-1)?.line ?? state.checkpoint;
  const counts = { ...state.counts };
  // The chunk's own addresses, added to the import's once the chunk commits (copying the import's map
  // for every chunk made a 100,000-row import quadratic: 2 s of a 28 s import).
  const added = new Map<string, number>();
  await db.transaction(async (tx) => {
    const stored: StoredRow[] = [];
    const fresh: { verdict: LeadVerdict & { ok: true }; row: StoredRow }[] = [];
    const candidates: { verdict: LeadVerdict & { ok: true }; row: StoredRow }[] = [];
    for (const verdict of verdicts) {
      const row: StoredRow = {
        line: verdict.line,
        outcome: 'invalid',
        email: clean(verdict.email).slice(0, 300),
        contact_id: null,
        cells: verdict.cells.map(clean),
        errors: verdict.ok ? [] : verdict.errors,
      };
      stored.push(row);
      if (!verdict.ok) continue;
      const first = state.seen.get(verdict.email) ?? added.get(verdict.email);
      if (first !== undefined) {
        row.outcome = 'skipped';
        row.errors = [
          {
            column: null,
            header: null,
            cell: null,
            code: 'DUPLICATE_IN_SHEET',
            message: `Row ${first} has the same e-mail; only the first is imported.`,
          },
        ];
        continue;
      }
      added.set(verdict.email, verdict.line);
      candidates.push({ verdict, row });
    }

    // The chunk's addresses that are contacts already, locked against a concurrent edit.
    const emails = candidates.map((candidate) => candidate.verdict.email);
    const existing = emails.length
      ? await tx.select().from(contacts).where(inArray(contacts.email, emails)).for('update')
      : [];
    const byEmail = new Map(existing.map((contact) => [contact.email, contact]));
    const updates: Update[] = [];
    for (const candidate of candidates) {
      const contact = byEmail.get(candidate.verdict.email);
      if (!contact) {
        fresh.push(candidate);
        continue;
      }
      candidate.row.contact_id = contact.id;
      if (state.duplicates === 'skip') {
        candidate.row.outcome = 'skipped';
        candidate.row.errors = [
          {
            column: null,
            header: null,
            cell: null,
            code: 'ALREADY_A_CONTACT',
            message: 'Already a contact: left as it is (the import skips existing contacts).',
          },
        ];
        continue;
      }
      const { next, changes } = merged(contact, candidate.verdict.fields);
      candidate.row.outcome = 'updated';
      if (changes.length) updates.push({ id: contact.id, email: contact.email, next, changes });
    }

    if (fresh.length) await insertContacts(tx, fresh, state);
    if (updates.length) await updateContacts(tx, updates, state.actorName);

    for (const row of stored) counts[row.outcome] += 1;
    await tx.execute(sql`
      INSERT INTO ${leadImportRows} (import_id, line, outcome, email, contact_id, cells, errors)
      SELECT ${state.importId}::uuid, x.line, x.outcome, x.email, x.contact_id, x.cells, x.errors
      FROM json_to_recordset(${JSON.stringify(stored)}::json)
        AS x(line integer, outcome text, email text, contact_id uuid, cells json, errors jsonb)`);
    // Only from the checkpoint this worker started at: a second worker on the same import fails here.
    const moved = await tx
      .update(leadImports)
      .set({
        checkpointLine: last,
        rowsRead: progress.rowsRead,
        counts,
        progress: progress.percent,
        rowsPerSecond: progress.rowsPerSecond,
      })
      .where(and(eq(leadImports.id, state.importId), eq(leadImports.checkpointLine, state.checkpoint)))
      .returning({ id: leadImports.id });
    if (!moved.length) throw new Error('another worker moved this lead import on');
  });
  state.checkpoint = last;
  state.counts = counts;
  for (const [email, line] of added) state.seen.set(email, line);
}

/** New contacts in one statement; a suppressed address starts unsubscribed; each gets 'imported'. */
async function insertContacts(
  tx: Tx,
  fresh: { verdict: LeadVerdict & { ok: true }; row: StoredRow }[],
  state: ChunkState,
) {
  const values = fresh.map(({ verdict }) => {
    const f = verdict.fields;
    const firstName = f.firstName ?? '';
    const lastName = f.lastName ?? '';
    const company = f.company ?? '';
    return {
      email: verdict.email,
      first_name: clean(firstName),
      last_name: clean(lastName),
      phone: clean(f.phone ?? ''),
      company: clean(company),
      company_type_id: f.companyTypeId ?? null,
      country: f.country ?? null,
      language: f.language ?? 'EN',
      tags: f.tags.map(clean),
      consent: f.consent ?? false,
      search_key: contactSearchKey({ firstName, lastName, email: verdict.email, company }),
    };
  });
  const made = rowsOf<{ id: string; email: string }>(
    await tx.execute(sql`
      INSERT INTO ${contacts} (email, first_name, last_name, phone, company, company_type_id, country,
                               language, tags, consent, consent_at, source, search_key, subscription,
                               unsubscribed_at, unsubscribe_method)
      SELECT x.email, x.first_name, x.last_name, x.phone, x.company, x.company_type_id, x.country,
             x.language, ARRAY(SELECT json_array_elements_text(x.tags)), x.consent,
             CASE WHEN x.consent THEN now() END, 'lead_import', x.search_key,
             CASE WHEN u.email IS NULL THEN 'subscribed' ELSE 'unsubscribed' END,
             CASE WHEN u.email IS NOT NULL THEN now() END,
             CASE WHEN u.email IS NOT NULL THEN 'suppression_list' END
      FROM json_to_recordset(${JSON.stringify(values)}::json) AS x(
        email text, first_name text, last_name text, phone text, company text, company_type_id uuid,
        country text, language text, tags json, consent boolean, search_key text)
      LEFT JOIN ${emailUnsubscribes} u ON u.email = x.email
      ON CONFLICT (email) DO NOTHING
      RETURNING id, email`),
  );
  const ids = new Map(made.map((row) => [row.email, row.id]));
  for (const { verdict, row } of fresh) {
    const id = ids.get(verdict.email);
    if (id) {
      row.outcome = 'created';
      row.contact_id = id;
    } else {
      // Made by someone else between our read and this insert: left as it is.
      row.outcome = 'skipped';
      row.errors = [
        { column: null, header: null, cell: null, code: 'ALREADY_A_CONTACT', message: 'Already a contact.' },
      ];
    }
  }
  await recordAuditEntries(
    tx,
    made.map(({ id }) => ({
      subject: { type: 'contact', id },
      actor: { id: null, name: state.actorName },
      action: 'imported',
      note: 'Imported from a lead sheet',
    })),
  );
}

/** Updated contacts in one statement, each with its field changes on its timeline. */
async function updateContacts(tx: Tx, updates: Update[], actorName: string) {
  const values = updates.map(({ id, email, next }) => ({
    id,
    email,
    first_name: clean(next.firstName),
    last_name: clean(next.lastName),
    phone: clean(next.phone),
    company: clean(next.company),
    company_type_id: next.companyTypeId,
    country: next.country,
    language: next.language,
    tags: next.tags,
    consent: next.consent,
  }));
  await tx.execute(sql`
    UPDATE ${contacts} c SET first_name = x.first_name, last_name = x.last_name, phone = x.phone,
      company = x.company, company_type_id = x.company_type_id, country = x.country, language = x.language,
      tags = ARRAY(SELECT json_array_elements_text(x.tags)), consent = x.consent,
      consent_at = CASE WHEN x.consent AND NOT c.consent THEN now() WHEN x.consent THEN c.consent_at END,
      search_key = x.search_key, version = c.version + 1, updated_at = now()
    FROM json_to_recordset(${JSON.stringify(
      values.map(({ email, ...value }) => ({
        ...value,
        search_key: contactSearchKey({
          firstName: value.first_name,
          lastName: value.last_name,
          email,
          company: value.company,
        }),
      })),
    )}::json) AS x(id uuid, first_name text, last_name text, phone text, company text,
      company_type_id uuid, country text, language text, tags json, consent boolean, search_key text)
    WHERE c.id = x.id`);
  await recordAuditEntries(
    tx,
    updates.map(({ id, changes }) => ({
      subject: { type: 'contact', id },
      actor: { id: null, name: actorName },
      action: 'updated',
      note: 'Updated by a lead import',
      changes,
    })),
  );
}

function countsNote(counts: LeadImportCounts) {
  const n = formatNumber;
  return `${n(counts.created)} new, ${n(counts.updated)} updated, ${n(counts.skipped)} skipped, ${n(counts.invalid)} with errors.`;
}

async function setStatus(db: Db, id: string, values: Partial<typeof leadImports.$inferInsert>) {
  await db.update(leadImports).set(values).where(eq(leadImports.id, id));
}

async function run(db: Db, storage: FileStorage, context: JobContext, upload: ImportRow) {
  const { signal, setProgress } = context;
  if (upload.status === 'done') {
    return { title: `${upload.fileName} is imported`, body: countsNote(upload.counts) };
  }
  await setStatus(db, upload.id, { status: 'running', error: null });
  const defaults = upload.defaults as { tags?: string[]; consent?: boolean };
  const leadContext: LeadContext = {
    mapping: upload.mapping as unknown as LeadContext['mapping'],
    companyTypes: await companyTypeByName(db),
    defaults: { tags: defaults.tags ?? [], consent: defaults.consent ?? false },
  };
  const state: ChunkState = {
    importId: upload.id,
    checkpoint: upload.checkpointLine,
    duplicates: upload.duplicates,
    actorName: upload.createdByName,
    seen: upload.checkpointLine > 0 ? await restoreSeen(db, upload.id) : new Map(),
    counts: { ...upload.counts },
  };
  let rowsRead = upload.rowsRead;
  // The parser workers read a path: the file itself on disk, a temporary copy from S3.
  const local = await storage.localCopy(leadFileKey(upload.storagePath));
  if (!local) throw new JobFailure('The sheet of this import is missing. Upload it again.', true);
  const started = Date.now();
  let readThisRun = 0;
  try {
    const sheet = await openSheet(local.path, {
      format: upload.format,
      fromLine: upload.checkpointLine,
      signal,
    });
    await forEachSheetChunk(sheet, { size: LEAD_CHUNK, signal }, async (chunk: SheetRow[]) => {
      const verdicts = chunk.map((row) => leadVerdict(row, leadContext));
      rowsRead += chunk.length;
      readThisRun += chunk.length;
      const percent = Math.min(99, Math.floor((100 * sheet.bytesRead()) / Math.max(sheet.totalBytes, 1)));
      const seconds = Math.max((Date.now() - started) / 1000, 0.001);
      await writeChunk(db, state, verdicts, { rowsRead, percent, rowsPerSecond: readThisRun / seconds });
      await setProgress(percent);
      return false;
    });
  } finally {
    await local.release();
  }
  // Many new or changed contacts: the planner's statistics (and on PGlite, which never vacuums by
  // itself, the visibility map that lets audience counts read only the index) are brought up to date.
  const written = state.counts.created + state.counts.updated - upload.counts.created - upload.counts.updated;
  if (written >= VACUUM_AFTER_ROWS) await db.execute(sql`VACUUM (ANALYZE) contacts`);
  else if (written >= ANALYZE_AFTER_ROWS) await db.execute(sql`ANALYZE contacts`);
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  await setStatus(db, upload.id, {
    status: 'done',
    progress: 100,
    finishedAt: new Date(),
    ...(readThisRun ? { rowsPerSecond: readThisRun / seconds } : {}),
  });
  return {
    importId: upload.id,
    counts: state.counts,
    title: `${upload.fileName} is imported`,
    body: countsNote(state.counts),
    link: leadImportLink(upload.id),
  };
}

export function leadImportHandler(options: { db: Db; storage: FileStorage }): JobHandler {
  return async (context) => {
    const parsed = payloadSchema.safeParse(context.payload);
    if (!parsed.success) throw new JobFailure('The task does not name a lead import.', true);
    const [upload] = await options.db
      .select()
      .from(leadImports)
      .where(eq(leadImports.id, parsed.data.importId));
    if (!upload) throw new JobFailure('The lead import no longer exists.', true);
    try {
      return await run(options.db, options.storage, context, upload);
    } catch (error) {
      // An abort (the server stopping, the lease lost) leaves the import for the next worker to resume.
      if (context.signal.aborted) throw error;
      const failure =
        error instanceof SheetError
          ? new JobFailure(error.message, true)
          : error instanceof JobFailure
            ? error
            : null;
      if (failure?.permanent || context.job.attempts >= context.job.maxAttempts) {
        await setStatus(options.db, upload.id, {
          status: 'failed',
          error:
            failure?.message ??
            (error instanceof StorageUnavailableError ? error.message : GENERIC_JOB_ERROR),
          finishedAt: new Date(),
        }).catch(() => undefined);
      }
      throw failure ?? error;
    }
  };
}
