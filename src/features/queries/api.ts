// Every call of the customer queries pages (issue 30, server/modules/queries): the inbox and its tabs,
// one query with its thread, the actions (each answers the query as it is now, so the page shows the
// server's state without a second read), the reply templates, and the public answer page's two calls.
// Writes show their refusal where the user acted (a dialog or the control), so none is toasted.
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { templateListSchema } from '../../../contracts/mail-templates';
import {
  type ConnectDataBody,
  type CreateQueryBody,
  QUERIES_API,
  type QueryDetail,
  type QueryListQuery,
  queryDetailSchema,
  queryEventPageSchema,
  queryEventSchema,
  queryListSchema,
} from '../../../contracts/queries';
import { queryKeys } from '../../lib/query-keys';
import { useHistory } from '../../services/history-query';
import { http } from '../../services/http';

export type QueryListRequest = QueryListQuery & { query?: string };

export const queryInboxKeys = {
  ...queryKeys<QueryListRequest>('customer-queries'),
  events: (id: string) => [...queryInboxKeys.all, 'events', id] as const,
  event: (id: string, eventId: string) => [...queryInboxKeys.all, 'event', id, eventId] as const,
  contactHistory: (id: string) => [...queryInboxKeys.all, 'contact-history', id] as const,
  templates: (text: string) => [...queryInboxKeys.all, 'templates', text] as const,
};

const idPath = (id: string) => `${QUERIES_API}/${encodeURIComponent(id)}`;

/** The inbox page: the plain list, or the search route when there is text to search. */
export const useQueryList = (request: QueryListRequest) =>
  useQuery({
    queryKey: queryInboxKeys.list(request),
    queryFn: async ({ signal }) => {
      const { query, ...filters } = request;
      const url = query ? `${QUERIES_API}/method/searchQueries` : QUERIES_API;
      const params = query ? { ...filters, query } : filters;
      return queryListSchema.parse((await http.get(url, { params, signal, silent: true })).data);
    },
    placeholderData: keepPreviousData,
  });

export const useQueryDetail = (id: string | null) =>
  useQuery({
    queryKey: queryInboxKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      queryDetailSchema.parse((await http.get(idPath(id ?? ''), { signal, silent: true })).data),
    enabled: Boolean(id),
  });

/** Older thread events than the detail's first page, on demand. */
export const useOlderEvents = (id: string, firstBefore: number | null) =>
  useInfiniteQuery({
    queryKey: queryInboxKeys.events(id),
    queryFn: async ({ pageParam, signal }) =>
      queryEventPageSchema.parse(
        (
          await http.get(`${idPath(id)}/events`, {
            params: { before: pageParam, limit: 30 },
            signal,
            silent: true,
          })
        ).data,
      ),
    initialPageParam: firstBefore ?? 1,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    enabled: false,
  });

/** One event with its whole body (the thread shows the first EVENT_PREVIEW characters). */
export const useWholeEvent = (id: string, eventId: string, enabled: boolean) =>
  useQuery({
    queryKey: queryInboxKeys.event(id, eventId),
    queryFn: async ({ signal }) =>
      queryEventSchema.parse(
        (await http.get(`${idPath(id)}/events/${encodeURIComponent(eventId)}`, { signal, silent: true }))
          .data,
      ),
    enabled,
  });

/** The contact's timeline across channels (SPEC §7 getContactHistory). */
/** The customer's timeline as this query's viewer may see it (a seller: their own shop's entries). */
export const useContactHistory = (queryId: string, contactId: string) =>
  useHistory(queryInboxKeys.contactHistory(contactId), `${idPath(queryId)}/contactHistory`);

/** After any write: the answer is the query now; the inbox rows and tab counts go stale. */
function useQueryChanged() {
  const client = useQueryClient();
  return (query: QueryDetail) => {
    client.setQueryData(queryInboxKeys.detail(query.id), query);
    void client.invalidateQueries({ queryKey: queryInboxKeys.lists() });
    void client.invalidateQueries({ queryKey: queryInboxKeys.events(query.id) });
    if (query.contactId)
      void client.invalidateQueries({ queryKey: queryInboxKeys.contactHistory(query.contactId) });
  };
}

const post = async (path: string, body: unknown) =>
  queryDetailSchema.parse((await http.post(path, body, { silent: true })).data);

export function useCreateQuery() {
  const changed = useQueryChanged();
  return useMutation({
    mutationFn: (body: CreateQueryBody) => post(QUERIES_API, body),
    onSuccess: changed,
  });
}

export type QueryAction =
  | { kind: 'status'; body: { status: string } }
  | { kind: 'assign'; body: { assigneeId: string | null } }
  | { kind: 'priority'; body: { priority: string } }
  | { kind: 'follow-up'; body: { at: string | null; note: string } }
  | { kind: 'snooze'; body: { until: string | null; reopenOnReply: boolean } };

/** Status, assignee, priority, follow-up and snooze: one route each under the query. */
export function useQueryAction(id: string) {
  const changed = useQueryChanged();
  return useMutation({
    mutationFn: (action: QueryAction) => post(`${idPath(id)}/${action.kind}`, action.body),
    onSuccess: changed,
  });
}

export function useAddConnectData(id: string) {
  const changed = useQueryChanged();
  return useMutation({
    mutationFn: (body: Partial<ConnectDataBody> & Pick<ConnectDataBody, 'kind'>) =>
      post(`${QUERIES_API}/method/addConnectData/${encodeURIComponent(id)}`, body),
    onSuccess: changed,
  });
}

export function useReplyToQuery(id: string) {
  const changed = useQueryChanged();
  return useMutation({
    mutationFn: (body: { templateId: string; language?: string; note: string }) =>
      post(`${idPath(id)}/reply`, body),
    onSuccess: changed,
  });
}

/** The marketing templates a reply may use (the Bulk Mails page's; searched by name). */
export const useReplyTemplates = (text: string, enabled: boolean) =>
  useQuery({
    queryKey: queryInboxKeys.templates(text),
    queryFn: async ({ signal }) =>
      templateListSchema.parse(
        (
          await http.get(`${QUERIES_API}/method/replyTemplates`, {
            params: { query: text, limit: 50 },
            signal,
            silent: true,
          })
        ).data,
      ).result,
    enabled,
    placeholderData: keepPreviousData,
  });
