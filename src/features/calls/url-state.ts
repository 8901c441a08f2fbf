// The call history view (filters, page, open call) lives in the URL, so a reload, the back button and a
// shared link show the same calls. Reading is forgiving: anything malformed falls back to the default.
import {
  CALL_HISTORY_ROUTE,
  type CallStatus,
  callStatuses,
  type ReferenceType,
  referenceTypes,
} from '../../../contracts/calls';

export interface CallView {
  /** Digits (and + ( ) - . spaces) to find anywhere in the other party's number. */
  number: string;
  status: CallStatus | null;
  direction: ReferenceType | null;
  /** Local calendar days, `YYYY-MM-DD`, both inclusive. */
  from: string | null;
  to: string | null;
  /** 1-based. */
  page: number;
  /** The call whose details drawer is open. */
  callId: string | null;
}

export const defaultCallView: CallView = {
  number: '',
  status: null,
  direction: null,
  from: null,
  to: null,
  page: 1,
  callId: null,
};

/** What the number box accepts (searchCallHistoryQuerySchema): digits and phone punctuation, 20 at most. */
export const MAX_NUMBER_SEARCH = 20;
export const sanitiseNumberSearch = (text: string): string =>
  text.replace(/[^0-9 +().-]/g, '').slice(0, MAX_NUMBER_SEARCH);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string | null): value is string =>
  !!value && DAY.test(value) && !Number.isNaN(new Date(`${value}T00:00:00`).getTime());

const oneOf = <T extends string>(allowed: readonly T[], value: string | null): T | null =>
  allowed.includes(value as T) ? (value as T) : null;

export function parseCallView(search: string): CallView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const callId = params.get('callId');
  const from = params.get('from');
  const to = params.get('to');
  return {
    number: sanitiseNumberSearch(params.get('number') ?? '').trim(),
    status: oneOf(callStatuses, params.get('status')),
    direction: oneOf(referenceTypes, params.get('direction')),
    from: isDay(from) ? from : null,
    to: isDay(to) ? to : null,
    page: Number.isInteger(page) && page >= 1 && page <= 500_000 ? page : 1,
    callId: callId && callId.length <= 100 ? callId : null,
  };
}

/** `?number=…&…` with only what differs from the default (empty when nothing does). */
export function callViewToSearch(view: CallView): string {
  const params = new URLSearchParams();
  for (const key of ['number', 'status', 'direction', 'from', 'to', 'page', 'callId'] as const) {
    const value = view[key];
    if (value !== null && value !== '' && value !== defaultCallView[key]) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const callViewHref = (view: CallView): string => `${CALL_HISTORY_ROUTE}${callViewToSearch(view)}`;

/** Any filter set: the page asks searchCallHistory instead of listCallHistory. */
export const hasFilters = (view: Omit<CallView, 'callId' | 'page'>): boolean =>
  !!view.number || !!view.status || !!view.direction || !!view.from || !!view.to;

/** The first instant of a local calendar day, ISO 8601 (what the server compares). */
export const startOfDayIso = (day: string): string => new Date(`${day}T00:00:00.000`).toISOString();
/** The last instant of a local calendar day: the range includes the whole "to" day. */
export const endOfDayIso = (day: string): string => new Date(`${day}T23:59:59.999`).toISOString();

/** A range whose start is after its end finds nothing: the page says so instead of asking. */
export const isRangeReversed = (view: Pick<CallView, 'from' | 'to'>): boolean =>
  !!view.from && !!view.to && view.from > view.to;
