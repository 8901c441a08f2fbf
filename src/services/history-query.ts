// The audit history's paged query (ARCHITECTURE "audit history"): newest first, a page at a time, the
// next page asked for only when the timeline's "Show older changes" is pressed. Every history (one API
// shape, contracts/audit.ts) is read with it; src/ui/history-timeline.tsx shows them.
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '../../contracts/audit';
import { http } from './http';

export const HISTORY_PAGE_SIZE = 20;

export const useHistory = (queryKey: QueryKey, url: string) =>
  useInfiniteQuery({
    queryKey,
    queryFn: async ({ pageParam, signal }): Promise<AuditPage> =>
      (
        await http.get<AuditPage>(url, {
          params: { skip: pageParam, limit: HISTORY_PAGE_SIZE },
          signal,
          // The timeline shows a failure in place, with a retry.
          silent: true,
        })
      ).data,
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.result.length, 0);
      return loaded < last.count ? loaded : undefined;
    },
  });
