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
import { http } from '../../services/http';
import { notificationKeys } from '../../services/notification-keys';

const BASE = '/api/v1/localEventMessage';
/** While the broker is not connected the list is polled instead, this often. */
export const OFFLINE_POLL_MS = 60_000;

export { notificationKeys };

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

/** Downloads an authenticated file (`/api/v1/exports/{taskId}/download`) and saves it. */
export { downloadTaskFile as downloadFile } from '../../services/downloads';
