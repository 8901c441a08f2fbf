// Every call of the staging pages: one fetcher + hook per API operation, and one query-key factory so
// a change refreshes exactly what it touches (a bulk action: the lists, the report, the details).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Attribute,
  attributeListSchema,
  type BulkResult,
  type BulkTagMode,
  type ChangeStatusBody,
  type CreateProductBody,
  type Product,
  type ProductList,
  type ProductSelection,
  type ProductStatus,
  productListSchema,
  productSchema,
  type SearchProductsBody,
  type UpdateProductBody,
} from '../../../contracts/catalog';
import type { CatalogReport, ExportProductsBody, SelectionCount } from '../../../contracts/catalog-actions';
import type { TaskAccepted } from '../../../contracts/notifications';
import type { QueryField } from '../../../contracts/query-tree';
import { queryKeys } from '../../lib/query-keys';
import { useHistory } from '../../services/history-query';
import { ApiError, http } from '../../services/http';

const BASE = '/api/v1/stagingProducts';

export const stagingKeys = {
  ...queryKeys<SearchProductsBody>('staging-products'),
  report: (body: { query: unknown; search: string }) => [...stagingKeys.all, 'report', body] as const,
  fields: () => [...stagingKeys.all, 'fields'] as const,
  options: (source: string, q: string) => [...stagingKeys.all, 'options', source, q] as const,
  history: (id: string) => [...stagingKeys.all, 'history', id] as const,
  categoryAttributes: (categoryId: string) =>
    [...stagingKeys.all, 'category-attributes', categoryId] as const,
};

/** The attributes a product of this category has (the parent's set, then its own), for the form. */
export const useCategoryAttributes = (categoryId: string | null) =>
  useQuery({
    queryKey: stagingKeys.categoryAttributes(categoryId ?? ''),
    queryFn: async ({ signal }): Promise<Attribute[]> =>
      attributeListSchema.parse(
        (await http.get(`/api/v1/attributes/forCategory/${categoryId}`, { signal, silent: true })).data,
      ).result,
    enabled: Boolean(categoryId),
    staleTime: 60_000,
  });

/** The field messages of a refused write (`fields` of the error body), keyed by field path. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const data = error instanceof ApiError ? error.data : null;
  const fields =
    data && typeof data === 'object' && 'fields' in data ? (data as { fields: unknown }).fields : null;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}

export const useProductList = (body: SearchProductsBody) =>
  useQuery({
    queryKey: stagingKeys.list(body),
    queryFn: async ({ signal }): Promise<ProductList> =>
      // The page shows a failure in place (with a retry), so it is not toasted as well.
      productListSchema.parse(
        (await http.post(`${BASE}/method/search`, body, { signal, silent: true })).data,
      ),
    placeholderData: keepPreviousData,
  });

/** The query builder's and the column chooser's fields: fetched when one of them first needs them. */
export const useQueryFields = (enabled: boolean) =>
  useQuery({
    queryKey: stagingKeys.fields(),
    queryFn: async ({ signal }): Promise<QueryField[]> =>
      (await http.get<{ result: QueryField[] }>(`${BASE}/method/queryFields`, { signal })).data.result,
    enabled,
    staleTime: 5 * 60_000,
  });

/** Searched options (sellers, categories) for the builder; `ids` asks for the labels of chosen values. */
export async function loadQueryOptions(
  source: string,
  q: string,
  ids: string[] = [],
  limit = 50,
): Promise<{ value: string; label: string }[]> {
  const response = await http.get<{ result: { value: string; label: string }[] }>(
    `${BASE}/method/options/${encodeURIComponent(source)}`,
    { params: { q, limit, ...(ids.length ? { ids: ids.join(',') } : {}) }, silent: true },
  );
  return response.data.result;
}

export const useReport = (body: { query: unknown; search: string }, enabled: boolean) =>
  useQuery({
    queryKey: stagingKeys.report(body),
    queryFn: async ({ signal }): Promise<CatalogReport> =>
      (await http.post<CatalogReport>(`${BASE}/method/report`, body, { signal, silent: true })).data,
    enabled,
  });

export const useProduct = (id: string | null) =>
  useQuery({
    queryKey: stagingKeys.detail(id ?? ''),
    queryFn: async ({ signal }): Promise<Product> =>
      productSchema.parse((await http.get(`${BASE}/${id}`, { signal, silent: true })).data),
    enabled: Boolean(id),
  });

export const useProductHistory = (id: string) => useHistory(stagingKeys.history(id), `${BASE}/${id}/history`);

const useInvalidateProducts = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: stagingKeys.all });
};

export const useCreateProduct = () =>
  useMutation({
    // Field errors are shown on the fields, so the client does not toast them.
    mutationFn: async (body: CreateProductBody): Promise<Product> =>
      productSchema.parse((await http.post(`${BASE}/`, body, { silent: true })).data),
    onSuccess: useInvalidateProducts(),
  });

export const useUpdateProduct = (id: string) =>
  useMutation({
    mutationFn: async (body: UpdateProductBody): Promise<Product> =>
      productSchema.parse((await http.patch(`${BASE}/${id}`, body, { silent: true })).data),
    onSuccess: useInvalidateProducts(),
  });

export const useChangeStatus = (id: string) =>
  useMutation({
    mutationFn: async (body: ChangeStatusBody): Promise<Product> =>
      productSchema.parse((await http.post(`${BASE}/${id}/status`, body)).data),
    onSuccess: useInvalidateProducts(),
  });

export async function countSelection(selection: ProductSelection): Promise<SelectionCount> {
  return (await http.post<SelectionCount>(`${BASE}/method/countSelection`, { selection })).data;
}

export type BulkAction =
  | { kind: 'status'; status: ProductStatus; reason?: string }
  | { kind: 'category'; categoryId: string }
  | { kind: 'tags'; mode: BulkTagMode; tagIds: string[] }
  | { kind: 'delete' };

/**
 * What a bulk action answers: its result (up to BULK_LIMIT products, done in the request), or the task
 * that runs it in the background (the http client records the task; its toast tells the outcome).
 */
export type BulkAnswer = BulkResult | TaskAccepted;
export const isBulkTask = (answer: BulkAnswer): answer is TaskAccepted => 'taskStatus' in answer;

export const useBulkAction = () =>
  useMutation({
    mutationFn: async ({
      selection,
      action,
    }: {
      selection: ProductSelection;
      action: BulkAction;
    }): Promise<BulkAnswer> => {
      const path = { status: 'bulkStatus', tags: 'bulkTags', category: 'bulkCategory', delete: 'bulkDelete' }[
        action.kind
      ];
      const { kind: _kind, ...body } = action;
      return (await http.post<BulkAnswer>(`${BASE}/method/${path}`, { selection, ...body })).data;
    },
    onSuccess: useInvalidateProducts(),
  });

/** Starts an export; the answer is a task (the http client raises the task toast). */
export const useExportProducts = () =>
  useMutation({
    mutationFn: async (body: ExportProductsBody) => (await http.post(`${BASE}/method/export`, body)).data,
  });

/** Starts reprocessing the images of a selection; the answer is a task. */
export const useReprocessImages = () =>
  useMutation({
    mutationFn: async (selection: ProductSelection) =>
      (await http.post(`${BASE}/method/reprocessImages`, { selection })).data,
  });
