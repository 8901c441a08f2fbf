// The bell's calls: the stored notifications (the database is the mailbox, the broker only rings the
// bell), marking them read, and opening what a notification links to — an in-app page, or a download
// (an export's file) that needs the access token and so cannot be a plain link.
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import {
  NOTIFICATION_PAGE_SIZE,
  type Notification,
  type NotificationList,
  notificationListSchema,
} from '../../../contracts/notifications';
import { ApiError, http } from '../../services/http';

const BASE = '/api/v1/localEventMessage';
/** While the broker is not connected the list is polled instead, this often. */
export const OFFLINE_POLL_MS = 60_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  lists: () => [...notificationKeys.all, 'list'] as const,
};

export async function fetchNotifications(
  page: { skip: number; limit?: number },
  signal?: AbortSignal,
): Promise<NotificationList> {
  const response = await http.get(`${BASE}/listEventMessages`, {
    params: { skip: page.skip, limit: page.limit ?? NOTIFICATION_PAGE_SIZE },
    signal,
    // The bell and the drawer show a failure in place; a background refetch must not toast.
    silent: true,
  });
  return notificationListSchema.parse(response.data);
}

type NotificationPages = InfiniteData<NotificationList>;

export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.lists(),
    queryFn: ({ pageParam, signal }) => fetchNotifications({ skip: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last: NotificationList, pages: NotificationList[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.result.length, 0);
      return loaded < last.data.count ? loaded : undefined;
    },
  });

/** The stored notifications, newest first, 20 a page; polled while live updates are off. */
export const useNotifications = (options: { poll?: boolean } = {}) =>
  useInfiniteQuery({ ...notificationsQuery(), refetchInterval: options.poll ? OFFLINE_POLL_MS : false });

/** The loaded notifications in order, and the counts of the newest first page. */
export function notificationsOf(data: NotificationPages | undefined): {
  items: Notification[];
  count: number;
  unreadCount: number;
} {
  const first = data?.pages[0]?.data;
  // A notification that moved to the next page while paging shows once.
  const seen = new Set<string>();
  const items: Notification[] = [];
  for (const page of data?.pages ?? []) {
    for (const item of page.data.result) {
      if (!seen.has(item.id)) {
        seen.add(item.id);
        items.push(item);
      }
    }
  }
  return { items, count: first?.count ?? 0, unreadCount: first?.unreadCount ?? 0 };
}

/** Refetches the list (a broker message arrived, or the connection came back). */
export function refreshNotifications(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: notificationKeys.all });
}

/** Marks the listed ids (or all) read in the cached pages, so the bell reacts before the server answers. */
function markReadInCache(data: NotificationPages | undefined, ids: Set<string> | 'all') {
  if (!data) return data;
  let newlyRead = 0;
  const pages = data.pages.map((page) => ({
    data: {
      ...page.data,
      result: page.data.result.map((item) => {
        if (item.read || (ids !== 'all' && !ids.has(item.id))) return item;
        newlyRead++;
        return { ...item, read: true };
      }),
    },
  }));
  return {
    ...data,
    pages: pages.map((page) => ({
      data: {
        ...page.data,
        unreadCount: ids === 'all' ? 0 : Math.max(0, page.data.unreadCount - newlyRead),
      },
    })),
  };
}

function useOptimisticRead<TInput>(
  send: (input: TInput) => Promise<unknown>,
  idsOf: (input: TInput) => Set<string> | 'all',
) {
  const client = useQueryClient();
  const key = notificationKeys.lists();
  return useMutation({
    mutationFn: send,
    onMutate: async (input: TInput) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<NotificationPages>(key);
      client.setQueryData<NotificationPages>(key, (data) => markReadInCache(data, idsOf(input)));
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => refreshNotifications(client),
  });
}

export const useMarkRead = () =>
  useOptimisticRead(
    (ids: string[]) => http.post(`${BASE}/markRead`, { ids }),
    (ids) => new Set(ids),
  );

export const useMarkAllRead = () =>
  useOptimisticRead(
    (_: undefined) => http.post(`${BASE}/markAllRead`, {}),
    () => 'all',
  );

/** Links under /api/ are files behind the access token; anything else is a page of this app. */
export function isDownloadLink(link: string): boolean {
  return link.startsWith('/api/');
}

/** Only this app's own paths are opened (never `//host`, `javascript:` or another site). */
export function isInAppPath(link: string): boolean {
  return link.startsWith('/') && !link.startsWith('//') && !isDownloadLink(link);
}

/** The file name of a `Content-Disposition` header (RFC 6266, `filename*` first). */
export function fileNameFromDisposition(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;\s]+)/.exec(header);
  return plain?.[1] ?? plain?.[2] ?? null;
}

/** A failed blob request carries its JSON error body as a Blob: read the server's message out of it. */
async function messageOf(error: unknown): Promise<string> {
  if (error instanceof ApiError) {
    if (error.data instanceof Blob) {
      try {
        const body = JSON.parse(await error.data.text()) as { message?: unknown };
        if (typeof body.message === 'string' && body.message) return body.message;
      } catch {
        // not JSON: use the generic wording below
      }
    }
    return error.message;
  }
  return error instanceof Error ? error.message : 'An error occurred';
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser time to start reading the blob before it is freed.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads an authenticated file (`/api/v1/exports/{taskId}/download`) with the http client, so the
 * bearer token and its silent refresh apply, and saves it. Rejects with the server's message.
 */
export async function downloadFile(path: string): Promise<string> {
  try {
    const response = await http.get(path, { responseType: 'blob', silent: true });
    const name =
      fileNameFromDisposition(response.headers['content-disposition']) ??
      path.split('/').at(-2) ??
      'download';
    saveBlob(response.data as Blob, name);
    return name;
  } catch (error) {
    throw new Error(await messageOf(error));
  }
}
