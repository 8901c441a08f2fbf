// Every call of the Imports page: one fetcher + hook per API operation, every answer parsed with its
// contract, and one query-key factory. What a batch action changes is everything keyed under the batch
// (report, preview, titles, mark-inactive preview), the import and the lists, so that is what it
// refreshes. A running batch is followed by polling the import once a second.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ExportFormat } from '../../../../contracts/exports';
import {
  type ApplySuggestedTitlesBody,
  applySuggestedTitlesResultSchema,
  type Batch,
  type BatchReport,
  type BatchReportQuery,
  type BatchStatus,
  type BatchTaskAnswer,
  batchListSchema,
  batchReportSchema,
  batchSchema,
  batchTaskAnswerSchema,
  type FeedRequestBody,
  type Import,
  type ImportList,
  type ImportRequest,
  type ImportRequestList,
  importListSchema,
  importRequestListSchema,
  importRequestSchema,
  importSchema,
  type ListImportRequestsQuery,
  type MappingTargetOption,
  type MarkInactivePreview,
  type MoveKind,
  mappingTargetListSchema,
  markInactivePreviewSchema,
  markInactiveResultSchema,
  type ReprocessBatchBody,
  runningBatchStatuses,
  type SuggestedTitleList,
  type SuggestedTitlesBody,
  suggestedTitleListSchema,
  titleTemplateSchema,
  type UpdateRequestBody,
  type UploadAnswer,
  uploadAnswerSchema,
} from '../../../../contracts/imports';
import { queryKeys } from '../../../lib/query-keys';
import { useHistory } from '../../../services/history-query';
import { http } from '../../../services/http';
import { type UploadOptions, uploadWithProgress } from '../../../services/upload-with-progress';

export const IMPORTS_API = '/api/v1/imports';
const BASE = IMPORTS_API;
/** How often a running batch is asked for its progress. */
export const RUNNING_POLL_MS = 1000;
/** How often the list is refreshed while one of its imports is running. */
export const LIST_POLL_MS = 3000;

export interface ImportListQuery {
  query: string;
  status: BatchStatus | null;
  skip: number;
  limit: number;
}

export interface RequestListQuery {
  status: ListImportRequestsQuery['status'] | null;
  skip: number;
  limit: number;
}

// Requests are a part of imports: invalidating `importKeys.all` reaches them too.
const requestKeys = queryKeys<RequestListQuery>('imports', 'requests');

export const importKeys = {
  ...queryKeys<ImportListQuery>('imports'),
  batches: (importId: string) => [...importKeys.all, 'batches', importId] as const,
  /** Everything read from one batch: its report, preview, titles, mark-inactive preview. */
  batch: (batchId: string) => [...importKeys.all, 'batch', batchId] as const,
  report: (query: BatchReportQuery) => [...importKeys.batch(query.batch), 'report', query] as const,
  titles: (body: SuggestedTitlesBody) => [...importKeys.batch(body.batch), 'titles', body] as const,
  inactive: (batchId: string) => [...importKeys.batch(batchId), 'inactive'] as const,
  targets: (sellerId: string) => [...importKeys.all, 'targets', sellerId] as const,
  template: () => [...importKeys.all, 'title-template'] as const,
  history: (importId: string) => [...importKeys.all, 'history', importId] as const,
  requests: () => requestKeys.all,
  requestList: requestKeys.list,
  requestDetail: requestKeys.detail,
  requestHistory: (id: string) => [...requestKeys.all, 'history', id] as const,
};

export const isRunning = (status: BatchStatus) => runningBatchStatuses.includes(status);

// ── Imports ──────────────────────────────────────────────────────────────────────────────────────────

/** listImports, or searchImports when there is text to look for; only the filters that are set. */
export function importListRequest(query: ImportListQuery): { url: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = { skip: query.skip, limit: query.limit };
  if (query.status) params.status = query.status;
  if (query.query) return { url: `${BASE}/searchImports`, params: { ...params, query: query.query } };
  return { url: `${BASE}/listImports`, params };
}

export const useImportList = (query: ImportListQuery) =>
  useQuery({
    queryKey: importKeys.list(query),
    queryFn: async ({ signal }): Promise<ImportList> => {
      const request = importListRequest(query);
      // The page shows a failure in place (with a retry), so it is not toasted as well.
      const response = await http.get(request.url, { params: request.params, signal, silent: true });
      return importListSchema.parse(response.data);
    },
    placeholderData: keepPreviousData,
    // Running imports move on by themselves: follow them while any is on the page.
    refetchInterval: (state) =>
      state.state.data?.result.some((item) => isRunning(item.batch.status)) ? LIST_POLL_MS : false,
  });

export const useImport = (id: string | null) =>
  useQuery({
    queryKey: importKeys.detail(id ?? ''),
    queryFn: async ({ signal }): Promise<Import> =>
      importSchema.parse(
        (await http.get(`${BASE}/getImport/${encodeURIComponent(id ?? '')}`, { signal, silent: true })).data,
      ),
    enabled: Boolean(id),
    // The live progress: every second while a job works on the batch, not at all otherwise.
    refetchInterval: (state) =>
      state.state.data && isRunning(state.state.data.batch.status) ? RUNNING_POLL_MS : false,
  });

/** An import's validation runs, newest first. */
export const useBatches = (importId: string, skip: number, limit: number) =>
  useQuery({
    queryKey: [...importKeys.batches(importId), skip, limit],
    queryFn: async ({ signal }) =>
      batchListSchema.parse(
        (
          await http.get(`${BASE}/searchBatches`, {
            params: { importId, skip, limit },
            signal,
            silent: true,
          })
        ).data,
      ),
    placeholderData: keepPreviousData,
  });

/** The report's parameters: only the filters that are set. */
export function reportParams(query: BatchReportQuery): Record<string, unknown> {
  const params: Record<string, unknown> = {
    batch: query.batch,
    skip: query.skip ?? 0,
    limit: query.limit ?? 25,
  };
  if (query.outcome) params.outcome = query.outcome;
  if (query.result) params.result = query.result;
  if (query.search) params.search = query.search;
  return params;
}

/** The report with its rows as a page's `result` too, so a paged table reads it as it reads a list. */
const asPage = (report: BatchReport) => ({ ...report, result: report.rows });

export const useBatchReport = (query: BatchReportQuery, enabled = true) =>
  useQuery({
    queryKey: importKeys.report(query),
    queryFn: async ({ signal }): Promise<BatchReport> =>
      batchReportSchema.parse(
        (await http.get(`${BASE}/getBatchReport`, { params: reportParams(query), signal, silent: true }))
          .data,
      ),
    select: asPage,
    enabled,
    placeholderData: keepPreviousData,
  });

export const useMappingTargets = (sellerId: string) =>
  useQuery({
    queryKey: importKeys.targets(sellerId),
    queryFn: async ({ signal }): Promise<MappingTargetOption[]> =>
      mappingTargetListSchema.parse(
        (await http.get(`${BASE}/mappingTargets`, { params: { sellerId }, signal, silent: true })).data,
      ).result,
    staleTime: 60_000,
  });

export const useImportHistory = (importId: string) =>
  useHistory(importKeys.history(importId), `${BASE}/getImportUpdateHistory/${encodeURIComponent(importId)}`);

/** Sends a sheet with a real progress bar; the answer's task raises the task toast (upload-with-progress). */
export async function uploadCatalogSheet(
  file: File,
  fields: { sellerId?: string; requestId?: string },
  options: Pick<UploadOptions, 'onProgress' | 'signal'>,
): Promise<UploadAnswer> {
  const form: Record<string, string> = {};
  if (fields.sellerId) form.sellerId = fields.sellerId;
  if (fields.requestId) form.requestId = fields.requestId;
  // The drawer shows a refusal (413, 415, 400) beside the file, so it is not toasted as well.
  const answer = await uploadWithProgress(`${BASE}/uploadCatalogSheet`, file, form, {
    ...options,
    silent: true,
  });
  return uploadAnswerSchema.parse(answer);
}

/** After a batch action: the import shows the batch the server answered with, and what hangs on it reloads. */
function useBatchChanged() {
  const client = useQueryClient();
  return (batch: Batch) => {
    client.setQueryData<Import>(importKeys.detail(batch.importId), (current) =>
      current ? { ...current, batch } : current,
    );
    void client.invalidateQueries({ queryKey: importKeys.all });
  };
}

const postBatch = async (path: string, body: unknown) => (await http.post(`${BASE}/${path}`, body)).data;

export const useStopBatch = () => {
  const changed = useBatchChanged();
  return useMutation({
    mutationFn: async (batch: string): Promise<Batch> =>
      batchSchema.parse(await postBatch('stopBatch', { batch })),
    onSuccess: changed,
  });
};

export const useResumeBatch = () => {
  const changed = useBatchChanged();
  return useMutation({
    mutationFn: async (batch: string): Promise<BatchTaskAnswer> =>
      batchTaskAnswerSchema.parse(await postBatch('resumeBatch', { batch })),
    onSuccess: (answer) => changed(answer.batch),
  });
};

export const useReprocessBatch = () => {
  const changed = useBatchChanged();
  return useMutation({
    // The mapping editor shows a refusal next to its button.
    mutationFn: async (body: ReprocessBatchBody): Promise<BatchTaskAnswer> =>
      batchTaskAnswerSchema.parse((await http.post(`${BASE}/reprocessBatch`, body, { silent: true })).data),
    onSuccess: (answer) => changed(answer.batch),
  });
};

const movePaths: Record<MoveKind, string> = {
  full: 'moveToStaging',
  pricing: 'moveToStagingOnlyPricingAndInventory',
  duplicates: 'mergeDuplicatesToStaging',
};

export const useMoveBatch = () => {
  const changed = useBatchChanged();
  return useMutation({
    // POST: a move changes data (SPEC lists these as GET). The confirm dialog shows a refusal.
    mutationFn: async ({ kind, batch }: { kind: MoveKind; batch: string }): Promise<BatchTaskAnswer> =>
      batchTaskAnswerSchema.parse(
        (await http.post(`${BASE}/${movePaths[kind]}`, undefined, { params: { batch }, silent: true })).data,
      ),
    onSuccess: (answer) => changed(answer.batch),
  });
};

/** What "Mark inactive" would change; asked when the user presses the button, never cached. */
export async function fetchMarkInactivePreview(batch: string): Promise<MarkInactivePreview> {
  return markInactivePreviewSchema.parse(
    (await http.get(`${BASE}/markInactive`, { params: { batch } })).data,
  );
}

export const useMarkInactive = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { batch: string; expected: number }) =>
      markInactiveResultSchema.parse((await http.post(`${BASE}/markInactive`, body, { silent: true })).data),
    onSuccess: () => client.invalidateQueries({ queryKey: importKeys.all }),
  });
};

export const useSuggestedTitles = (body: SuggestedTitlesBody, enabled = true) =>
  useQuery({
    queryKey: importKeys.titles(body),
    queryFn: async ({ signal }): Promise<SuggestedTitleList> =>
      suggestedTitleListSchema.parse(
        (await http.post(`${BASE}/getSuggestedTitles`, body, { signal, silent: true })).data,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });

export const useApplySuggestedTitles = () => {
  const changed = useBatchChanged();
  return useMutation({
    mutationFn: async (body: ApplySuggestedTitlesBody) =>
      applySuggestedTitlesResultSchema.parse((await http.post(`${BASE}/applySuggestedTitles`, body)).data),
    onSuccess: (answer) => changed(answer.batch),
  });
};

const templateAnswerSchema = z.object({ template: z.string() });

export const useTitleTemplate = (enabled: boolean) =>
  useQuery({
    queryKey: importKeys.template(),
    queryFn: async ({ signal }) =>
      templateAnswerSchema.parse((await http.get(`${BASE}/titleTemplate`, { signal, silent: true })).data)
        .template,
    enabled,
  });

export const useSaveTitleTemplate = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (template: string) => {
      const body = titleTemplateSchema.parse({ template });
      return templateAnswerSchema.parse(
        (await http.put(`${BASE}/titleTemplate`, body, { silent: true })).data,
      ).template;
    },
    onSuccess: (template) => {
      client.setQueryData(importKeys.template(), template);
      // Every suggestion follows the template.
      void client.invalidateQueries({ queryKey: importKeys.all });
    },
  });
};

/** Starts the error sheet's export job; the task toast and the notification carry the download. */
export const useExportBatchErrors = () =>
  useMutation({
    mutationFn: async (body: { batch: string; format: ExportFormat }) =>
      (await http.post(`${BASE}/exportBatchErrors`, body)).data,
  });

// ── Sellers (the picker) ─────────────────────────────────────────────────────────────────────────────

// ── Import requests ──────────────────────────────────────────────────────────────────────────────────

export const useImportRequests = (query: RequestListQuery) =>
  useQuery({
    queryKey: importKeys.requestList(query),
    queryFn: async ({ signal }): Promise<ImportRequestList> => {
      const params: Record<string, unknown> = { skip: query.skip, limit: query.limit };
      if (query.status) params.status = query.status;
      return importRequestListSchema.parse(
        (await http.get(`${BASE}/listImportRequests`, { params, signal, silent: true })).data,
      );
    },
    placeholderData: keepPreviousData,
  });

/** One request (a reload or a shared link may name one that is not on the list's page). */
export const useImportRequest = (id: string | null, fromList: ImportRequest | null) =>
  useQuery({
    queryKey: importKeys.requestDetail(id ?? ''),
    queryFn: async ({ signal }): Promise<ImportRequest> =>
      importRequestSchema.parse(
        (await http.get(`${BASE}/getImportRequest/${encodeURIComponent(id ?? '')}`, { signal, silent: true }))
          .data,
      ),
    enabled: Boolean(id),
    // The list's row shows at once; the request's own answer follows.
    placeholderData: fromList ?? undefined,
  });

export const useRequestHistory = (id: string) =>
  useHistory(importKeys.requestHistory(id), `${BASE}/getRequestUpdateHistory/${encodeURIComponent(id)}`);

function useRequestChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: importKeys.requests() });
}

/** A request with a feed URL (JSON); the dialog shows a refusal. */
export const useCreateFeedRequest = () =>
  useMutation({
    mutationFn: async (body: FeedRequestBody): Promise<ImportRequest> =>
      importRequestSchema.parse(
        (await http.post(`${BASE}/addImportProductsApi`, body, { silent: true })).data,
      ),
    onSuccess: useRequestChanged(),
  });

/** A request with a file the seller could not map (multipart: the note, the seller, then the file). */
export async function sendRequestFile(
  file: File,
  fields: { note: string; sellerId?: string },
  options: Pick<UploadOptions, 'onProgress' | 'signal'>,
): Promise<ImportRequest> {
  const form: Record<string, string> = { note: fields.note };
  if (fields.sellerId) form.sellerId = fields.sellerId;
  return importRequestSchema.parse(
    await uploadWithProgress(`${BASE}/addImportProductsApi`, file, form, { ...options, silent: true }),
  );
}

export const useTakeRequest = () =>
  useMutation({
    mutationFn: async (id: string): Promise<ImportRequest> =>
      importRequestSchema.parse(
        (await http.post(`${BASE}/takeImportRequest/${encodeURIComponent(id)}`)).data,
      ),
    onSuccess: useRequestChanged(),
  });

export const useUpdateRequest = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: string; body: UpdateRequestBody }): Promise<ImportRequest> =>
      importRequestSchema.parse(
        (await http.post(`${BASE}/updateImportRequest/${encodeURIComponent(id)}`, body, { silent: true }))
          .data,
      ),
    onSuccess: useRequestChanged(),
  });

/** Imports the request's file (or fetches its feed) for its seller; the normal flow follows. */
export const useImportFromRequest = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<UploadAnswer> =>
      uploadAnswerSchema.parse((await http.post(`${BASE}/importFromRequest/${encodeURIComponent(id)}`)).data),
    onSuccess: (answer) => {
      client.setQueryData(importKeys.detail(answer.import.id), answer.import);
      void client.invalidateQueries({ queryKey: importKeys.all });
    },
  });
};

export const requestFilePath = (id: string) => `${BASE}/downloadRequestFile/${encodeURIComponent(id)}`;
