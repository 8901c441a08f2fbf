// Every call of the Attributes page: one fetcher + query/mutation hook per API operation, with one
// query-key factory. Any write refreshes the whole page's cache: option and category counts, the sets
// and the lists all move together.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AttributeDetail,
  AttributeSummaryList,
  CategoryAttributeSet,
  ListAttributesQuery,
  ListSetCategoriesQuery,
  SavedAttribute,
  SavedCategorySet,
  SetCategoryList,
  UpdateAttributeAdminBody,
} from '../../../contracts/attribute-admin';
import type { CreateAttributeBody } from '../../../contracts/catalog';
import { queryKeys } from '../../lib/query-keys';
import { ApiError, http } from '../../services/http';

const API = '/api/v1/attributes';

export interface AttributeListParams {
  query: string;
  dataType: string;
  skip: number;
  limit: number;
}

export const attributeKeys = {
  ...queryKeys<AttributeListParams, number>('attributes'),
  groups: () => [...attributeKeys.all, 'groups'] as const,
  categories: (params: ListSetCategoriesQuery) => [...attributeKeys.all, 'categories', params] as const,
  set: (categoryId: string) => [...attributeKeys.all, 'set', categoryId] as const,
};

/** Empty filters are left out of the request rather than sent as empty strings. */
function listQuery(params: AttributeListParams): ListAttributesQuery {
  return {
    skip: params.skip,
    limit: params.limit,
    ...(params.query ? { query: params.query } : {}),
    ...(params.dataType ? { dataType: params.dataType as ListAttributesQuery['dataType'] } : {}),
  };
}

// The page shows load failures in place (with a retry) and dialogs show refusals beside their fields,
// so no call here is toasted by the HTTP client.

export const useAttributes = (params: AttributeListParams, enabled = true) =>
  useQuery({
    queryKey: attributeKeys.list(params),
    queryFn: async ({ signal }): Promise<AttributeSummaryList> =>
      (await http.get(`${API}/`, { params: listQuery(params), signal, silent: true })).data,
    placeholderData: keepPreviousData,
    enabled,
  });

export const useAttributeGroups = () =>
  useQuery({
    queryKey: attributeKeys.groups(),
    queryFn: async ({ signal }): Promise<string[]> =>
      (await http.get(`${API}/groups`, { signal, silent: true })).data.result,
  });

export const useAttribute = (id: number | null) =>
  useQuery({
    queryKey: attributeKeys.detail(id ?? 0),
    queryFn: async ({ signal }): Promise<AttributeDetail> =>
      (await http.get(`${API}/${id}`, { signal, silent: true })).data,
    enabled: id !== null,
  });

export const useSetCategories = (params: ListSetCategoriesQuery, enabled = true) =>
  useQuery({
    queryKey: attributeKeys.categories(params),
    queryFn: async ({ signal }): Promise<SetCategoryList> =>
      (await http.get(`${API}/categories`, { params, signal, silent: true })).data,
    placeholderData: keepPreviousData,
    enabled,
  });

export const useCategorySet = (categoryId: string | null) =>
  useQuery({
    queryKey: attributeKeys.set(categoryId ?? ''),
    queryFn: async ({ signal }): Promise<CategoryAttributeSet> =>
      (await http.get(`${API}/categories/${categoryId}`, { signal, silent: true })).data,
    enabled: !!categoryId,
  });

function useInvalidateAttributes() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: attributeKeys.all });
}

export type SaveAttributeInput =
  | { id?: undefined; body: CreateAttributeBody }
  | { id: number; body: UpdateAttributeAdminBody };

/**
 * Said under a save's toast when the answer carries the recompute's task: the figures follow in the
 * background, and the task's own toast tells when they are done.
 */
export const recomputeNote = (answer: { taskStatus?: unknown }) =>
  answer.taskStatus
    ? 'The completeness of the products concerned is being recomputed: you will be notified when it is done.'
    : undefined;

export const useSaveAttribute = () => {
  const invalidate = useInvalidateAttributes();
  return useMutation({
    mutationFn: async (input: SaveAttributeInput): Promise<SavedAttribute> =>
      input.id === undefined
        ? (await http.post(`${API}/`, input.body, { silent: true })).data
        : (await http.patch(`${API}/${input.id}`, input.body, { silent: true })).data,
    onSuccess: invalidate,
  });
};

export const useDeleteAttribute = () => {
  const invalidate = useInvalidateAttributes();
  return useMutation({
    mutationFn: async (id: number): Promise<void> => {
      await http.delete(`${API}/${id}`, { silent: true });
    },
    onSuccess: invalidate,
  });
};

export const useSaveCategorySet = () => {
  const invalidate = useInvalidateAttributes();
  return useMutation({
    mutationFn: async (input: { categoryId: string; attributeIds: number[] }): Promise<SavedCategorySet> =>
      (
        await http.put(
          `${API}/categories/${input.categoryId}`,
          { attributeIds: input.attributeIds },
          { silent: true },
        )
      ).data,
    onSuccess: invalidate,
  });
};

/** The per-field messages of a refusal (`fields` of the API's error body), if it has any. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return {};
  const fields = (error.data as { fields?: unknown }).fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
