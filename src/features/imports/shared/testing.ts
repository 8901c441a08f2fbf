// Test support: imports, batches and report rows as the server answers them; override what matters.
// Never imported by the app.
import type { Batch, BatchReport, Import, OutcomeCounts, ReportRow } from '../../../../contracts/imports';

export const BATCH_ID = '11111111-1111-4111-8111-111111111111';
export const IMPORT_ID = '22222222-2222-4222-8222-222222222222';
export const SELLER_ID = '33333333-3333-4333-8333-333333333333';

/** Counts whose outcomes add up to the total, as the server's always do. */
export function makeCounts(patch: Partial<Omit<OutcomeCounts, 'total'>> = {}): OutcomeCounts {
  const base = { create: 0, update: 0, unchanged: 0, duplicate: 0, error: 0, ...patch };
  return { ...base, total: base.create + base.update + base.unchanged + base.duplicate + base.error };
}

export function makeBatch(patch: Partial<Batch> = {}): Batch {
  return {
    id: BATCH_ID,
    importId: IMPORT_ID,
    number: 1,
    status: 'ready',
    step: 'validate',
    moveKind: null,
    mapping: [],
    blankPolicy: 'keep',
    rowsRead: 0,
    progress: 0,
    rowsMoved: 0,
    rowsToMove: 0,
    counts: makeCounts(),
    results: { created: 0, updated: 0, unchanged: 0, merged: 0, conflict: 0, no_match: 0, skipped: 0 },
    leftToMove: null,
    error: null,
    rowsPerSecond: null,
    taskId: null,
    createdBy: { id: 'u-1', name: 'Asha Rao' },
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: null,
    ...patch,
  };
}

export function makeImport(patch: Partial<Import> = {}, batch: Partial<Batch> = {}): Import {
  return {
    id: IMPORT_ID,
    sellerId: SELLER_ID,
    sellerName: 'Demo Store',
    fileName: 'spring-catalogue.csv',
    format: 'csv',
    fileSize: 20_480,
    fileHash: 'a'.repeat(64),
    headers: ['SKU', 'Title', 'Category', 'Price', 'Colour code'],
    requestId: null,
    batch: makeBatch(batch),
    createdBy: { id: 'u-1', name: 'Asha Rao' },
    createdAt: '2026-01-01T10:00:00.000Z',
    ...patch,
  };
}

export function makeRow(patch: Partial<ReportRow> = {}): ReportRow {
  return {
    line: 2,
    outcome: 'create',
    sku: 'TS-1',
    title: 'Cotton tee',
    errors: [],
    duplicateOf: null,
    productId: null,
    changes: [],
    result: null,
    resultMessage: null,
    ...patch,
  };
}

export function makeReport(rows: ReportRow[], patch: Partial<BatchReport> = {}): BatchReport {
  return {
    batch: makeBatch(),
    unmappedColumns: [],
    topErrors: [],
    rows,
    count: rows.length,
    ...patch,
  };
}
