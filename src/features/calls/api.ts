// The call history page's calls (SPEC §7 "Call history"): one fetcher per operation, queryOptions and
// hooks over them, and one query-key factory, so a change to a call (feedback given in the call UI)
// refreshes exactly the lists and the detail it touches. Every answer is parsed with its contract.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  CALL_PAGE_SIZE,
  type CallList,
  type CallLogDetail,
  callListSchema,
  callLogDetailSchema,
  type SearchCallHistoryQuery,
} from '../../../contracts/calls';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import { type CallView, endOfDayIso, hasFilters, startOfDayIso } from './url-state';

const BASE = '/api/v1/callHistory/method';

/** The part of the view a list request depends on (not the open call). */
export type CallListQuery = Omit<CallView, 'callId'>;

export const callKeys = queryKeys<CallListQuery>('call-history');

/**
 * The request a view makes: listCallHistory when nothing is filtered, otherwise searchCallHistory with
 * only the filters that are set (the dates as the whole local days, ISO 8601).
 */
export function callListRequest(query: CallListQuery): { url: string; params: Record<string, unknown> } {
  const paging = { skip: (query.page - 1) * CALL_PAGE_SIZE, limit: CALL_PAGE_SIZE };
  if (!hasFilters(query)) return { url: `${BASE}/listCallHistory`, params: paging };
  const params: SearchCallHistoryQuery = { ...paging };
  if (query.number) params.number = query.number;
  if (query.status) params.status = query.status;
  if (query.direction) params.direction = query.direction;
  if (query.from) params.from = startOfDayIso(query.from);
  if (query.to) params.to = endOfDayIso(query.to);
  return { url: `${BASE}/searchCallHistory`, params: { ...params } };
}

export async function fetchCallList(query: CallListQuery, signal?: AbortSignal): Promise<CallList> {
  const request = callListRequest(query);
  // The page shows the failure in place (with a retry), so it is not toasted as well.
  const response = await http.get(request.url, { params: request.params, signal, silent: true });
  return callListSchema.parse(response.data);
}

export async function fetchCallDetails(callId: string, signal?: AbortSignal): Promise<CallLogDetail> {
  const response = await http.get(`${BASE}/getCallDetails/${encodeURIComponent(callId)}`, {
    signal,
    silent: true,
  });
  return callLogDetailSchema.parse(response.data);
}

export const callListQuery = (query: CallListQuery) =>
  queryOptions({
    queryKey: callKeys.list(query),
    queryFn: ({ signal }) => fetchCallList(query, signal),
    // The previous page stays (dimmed) while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });

export const callDetailQuery = (callId: string) =>
  queryOptions({
    queryKey: callKeys.detail(callId),
    queryFn: ({ signal }) => fetchCallDetails(callId, signal),
  });

export const useCallList = (query: CallListQuery, enabled = true) =>
  useQuery({ ...callListQuery(query), enabled });

export const useCallDetails = (callId: string | null) =>
  useQuery({ ...callDetailQuery(callId ?? ''), enabled: !!callId });
