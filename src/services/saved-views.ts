// Saved views of any list (ARCHITECTURE "saved views"): one fetcher and hook per API operation, keyed
// by list, so staging products, contacts and orders share the cache shape and the menu.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type {
  CreateViewBody,
  DefaultView,
  SavedView,
  UpdateViewBody,
  ViewList,
} from '../../contracts/saved-views';
import { http } from './http';

const API = '/api/v1/savedViews';

export const savedViewKeys = {
  all: ['saved-views'] as const,
  lists: () => [...savedViewKeys.all, 'list'] as const,
  list: (list: ViewList) => [...savedViewKeys.lists(), list] as const,
};

/** The views of a list the user may see, own first; each says whether it is theirs and their default. */
export const savedViewsQuery = (list: ViewList) =>
  queryOptions({
    queryKey: savedViewKeys.list(list),
    // The menu shows a failure in place, so it is not toasted as well.
    queryFn: async ({ signal }): Promise<SavedView[]> =>
      (await http.get<{ result: SavedView[] }>(`${API}/`, { params: { list }, signal, silent: true })).data
        .result,
    // Views change rarely and mostly through this client, which refreshes them itself.
    staleTime: 60_000,
  });

export const useSavedViews = (list: ViewList) => useQuery(savedViewsQuery(list));

/**
 * The user's default view of the list: undefined while the views load, then the view or null (none,
 * or the views could not be read: the list then opens as it would without one).
 */
export function useDefaultView(list: ViewList): SavedView | null | undefined {
  const views = useSavedViews(list);
  if (views.isPending) return undefined;
  return views.data?.find((view) => view.isDefault) ?? null;
}

/**
 * A list opened from a bare URL (the menu): once, the list's own remembered URL when it keeps one,
 * else the user's default saved view when they chose one; a URL with a query is left as it is.
 * `open` receives the search (`?…`) to replace the bare URL with. A list that remembers its URL
 * (`remember`) has each later search written back.
 */
export function useBareUrlView(
  list: ViewList,
  search: string,
  options: {
    open(search: string): void;
    searchOf(view: SavedView): string;
    /** The list's last search in this tab, '' when none (the staging grid keeps it). */
    remember?: { read(): string; write(search: string): void };
  },
): void {
  const defaultView = useDefaultView(list);
  const decided = useRef(false);
  const { open, searchOf, remember } = options;
  useEffect(() => {
    if (decided.current) return;
    if (search) {
      decided.current = true;
      return;
    }
    const last = remember?.read() ?? '';
    if (last) {
      decided.current = true;
      open(last);
    } else if (defaultView !== undefined) {
      decided.current = true;
      if (defaultView) open(searchOf(defaultView));
    }
  }, [search, defaultView, open, searchOf, remember]);
  useEffect(() => {
    if (decided.current) remember?.write(search ? `?${search.replace(/^\?/, '')}` : '');
  }, [search, remember]);
}

function useRefreshViews(list: ViewList) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: savedViewKeys.list(list) });
}

/** Dialogs show the server's refusal (a taken name, sharing not allowed) beside the form: silent. */
export function useCreateView(list: ViewList) {
  const refresh = useRefreshViews(list);
  return useMutation({
    mutationFn: async (body: Omit<CreateViewBody, 'list'>): Promise<SavedView> =>
      (await http.post<SavedView>(`${API}/`, { ...body, list }, { silent: true })).data,
    onSuccess: refresh,
  });
}

export function useUpdateView(list: ViewList) {
  const refresh = useRefreshViews(list);
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: UpdateViewBody }): Promise<SavedView> =>
      (await http.patch<SavedView>(`${API}/${id}`, body, { silent: true })).data,
    onSuccess: refresh,
  });
}

export function useDeleteView(list: ViewList) {
  const refresh = useRefreshViews(list);
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      await http.delete(`${API}/${id}`, { silent: true });
    },
    onSuccess: refresh,
  });
}

/** Sets (a view id) or clears (null) the user's default view of the list; a failure is toasted. */
export function useSetDefaultView(list: ViewList) {
  const refresh = useRefreshViews(list);
  return useMutation({
    mutationFn: async (viewId: string | null): Promise<DefaultView> =>
      (await http.put<DefaultView>(`${API}/default`, { list, viewId })).data,
    onSuccess: refresh,
  });
}
