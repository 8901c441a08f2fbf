import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { notificationKeys } from '../../services/notification-keys';
import { queryNotificationIds, watchQueryNotifications } from './live-refresh';

const pages = (links: [string, string | null][]) => ({
  pages: [
    {
      data: {
        result: links.map(([id, link]) => ({
          id,
          link,
          title: 't',
          body: '',
          taskId: null,
          taskName: null,
          status: null,
          read: false,
          createdAt: '2026-01-01T10:00:00.000Z',
        })),
        count: links.length,
        unreadCount: 0,
      },
    },
  ],
  pageParams: [0],
});

describe('live queries', () => {
  it('knows a query notification by its link, to the inbox or to the query page', () => {
    expect(
      queryNotificationIds(
        pages([
          ['a', '/queries/queries-request/1'],
          ['b', '/queries/query?id=1'],
          ['c', '/marketing/contacts'],
          ['d', null],
        ]),
      ),
    ).toEqual(['a', 'b']);
    expect(queryNotificationIds(undefined)).toEqual([]);
  });

  it('calls back once per new query notification the bell fetches, not for those already there', async () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.lists(), pages([['a', '/queries/queries-request/1']]));
    const onNew = vi.fn();
    const stop = watchQueryNotifications(client, onNew);
    let next = pages([['a', '/queries/queries-request/1']]);
    const fetchAgain = () =>
      client.fetchInfiniteQuery({
        queryKey: notificationKeys.lists(),
        queryFn: async () => next.pages[0],
        initialPageParam: 0,
        staleTime: 0,
      });
    await fetchAgain();
    expect(onNew).not.toHaveBeenCalled();
    next = pages([
      ['b', '/queries/query?id=2'],
      ['a', '/queries/queries-request/1'],
    ]);
    await fetchAgain();
    expect(onNew).toHaveBeenCalledTimes(1);
    await fetchAgain();
    expect(onNew).toHaveBeenCalledTimes(1);
    stop();
  });
});
