import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Category, CategoryBody, CategoryList, SubcategoryList } from '../../../contracts/categories';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';

export interface CategoryListQuery {
  query: string;
  skip: number;
  limit: number;
}

const API = '/api/v1/categories';

export const categoryKeys = {
  ...queryKeys<CategoryListQuery>('categories'),
  subLists: () => [...categoryKeys.all, 'subcategories'] as const,
  subList: (parentId: string, q: CategoryListQuery) => [...categoryKeys.subLists(), parentId, q] as const,
};

const params = (q: CategoryListQuery) => ({ ...q, query: q.query || undefined });

export const useCategories = (q: CategoryListQuery) =>
  useQuery({
    queryKey: categoryKeys.list(q),
    queryFn: async ({ signal }): Promise<CategoryList> =>
      (await http.get(`${API}/listCategories`, { params: params(q), signal, silent: true })).data,
    placeholderData: keepPreviousData,
  });

export const useSubcategories = (parentId: string | null, q: CategoryListQuery) =>
  useQuery({
    queryKey: categoryKeys.subList(parentId ?? '', q),
    queryFn: async ({ signal }): Promise<SubcategoryList> =>
      (await http.get(`${API}/listSubcategories/${parentId}`, { params: params(q), signal, silent: true }))
        .data,
    enabled: !!parentId,
    placeholderData: keepPreviousData,
  });

/** Which level a mutation works on: a top-level category, or a subcategory of `parentId`. */
export type Level = { kind: 'category' } | { kind: 'subcategory'; parentId: string };

/** Counts shown on both pages change with any write, so every category list is refetched. */
function useInvalidateCategories() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: categoryKeys.all });
}

/** Dialogs show the server's refusal themselves, so failures are not toasted as well. */
export const useSaveCategory = (level: Level) => {
  const invalidate = useInvalidateCategories();
  return useMutation({
    mutationFn: async (input: { id?: string; body: CategoryBody }): Promise<Category> => {
      const sub = level.kind === 'subcategory';
      if (input.id) {
        const url = `${API}/${sub ? 'updateSubcategory' : 'updateCategory'}/${input.id}`;
        return (await http.put(url, input.body, { silent: true })).data;
      }
      const url = sub ? `${API}/createSubcategory/${level.parentId}` : `${API}/createCategory`;
      return (await http.post(url, input.body, { silent: true })).data;
    },
    onSuccess: invalidate,
  });
};

export const useDeleteCategory = (level: Level) => {
  const invalidate = useInvalidateCategories();
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      const url = `${API}/${level.kind === 'subcategory' ? 'deleteSubcategory' : 'deleteCategory'}/${id}`;
      await http.delete(url, { silent: true });
    },
    onSuccess: invalidate,
  });
};
