// The inbox is live without a topic of its own (server/modules/queries/announce.ts): a new query and a
// due follow-up reach the people concerned as notifications, which the shell stores and refetches. When
// the refetched notifications hold one about a query that was not there before, the inbox (rows and tab
// counts) and any open query are read again.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { NotificationList } from '../../../contracts/notifications';
import { QUERIES_ROUTE, QUERY_PAGE } from '../../../contracts/queries';
import { notificationKeys } from '../../services/notification-keys';
import { queryInboxKeys } from './api';

interface Pages {
  pages: NotificationList[];
}

/** A notification about a query links to the inbox (`/queries/queries-request/{id}`) or to the query. */
const aboutQueries = (link: string | null) =>
  Boolean(link && (link.startsWith(QUERIES_ROUTE) || link.startsWith(`${QUERY_PAGE}?`)));

/** Ids of the notifications about queries in the bell's cached pages. */
export function queryNotificationIds(data: unknown): string[] {
  const pages = (data as Pages | undefined)?.pages ?? [];
  return pages.flatMap((page) =>
    page.data.result.filter((item) => aboutQueries(item.link)).map((item) => item.id),
  );
}

/** Watches the notification cache; calls `onNew` when a query notification appears. */
export function watchQueryNotifications(client: QueryClient, onNew: () => void): () => void {
  const key = notificationKeys.lists();
  const seen = new Set(queryNotificationIds(client.getQueryData(key)));
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const queryKey = event.query.queryKey;
    if (!key.every((part, index) => queryKey[index] === part)) return;
    let fresh = false;
    for (const id of queryNotificationIds(event.query.state.data)) {
      if (!seen.has(id)) {
        seen.add(id);
        fresh = true;
      }
    }
    if (fresh) onNew();
  });
}

/** While mounted: a new notification about a query refreshes everything the queries pages show. */
export function useLiveQueries(): void {
  const client = useQueryClient();
  useEffect(
    () =>
      watchQueryNotifications(client, () => void client.invalidateQueries({ queryKey: queryInboxKeys.all })),
    [client],
  );
}
