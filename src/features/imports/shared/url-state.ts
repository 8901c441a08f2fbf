// The Imports page's whole view lives in the URL: the tab, the list's search, status filter and page,
// the open import (`?import=<id>`) with its section and the report's and preview's filters, and the
// requests' filter, page and open request. A reload, the back button and a shared link show the same
// thing. Reading is forgiving: anything unknown or malformed falls back to the default.

import { isUuid } from '../../../../contracts/domain/ids';
import {
  type BatchStatus,
  batchStatuses,
  IMPORT_PAGE_SIZES,
  IMPORTS_ROUTE,
  type RequestStatus,
  type RowOutcome,
  type RowResult,
  requestStatuses,
  rowOutcomes,
  rowResults,
} from '../../../../contracts/imports';

export type ImportPageSize = (typeof IMPORT_PAGE_SIZES)[number];
export const importTabs = ['imports', 'requests'] as const;
export type ImportTab = (typeof importTabs)[number];
export const importSections = ['report', 'mapping', 'preview', 'titles', 'inactive', 'history'] as const;
export type ImportSection = (typeof importSections)[number];
/** What the dry-run preview can show: the rows a move would write or leave as they are. */
export const previewOutcomes = ['create', 'update', 'unchanged'] as const;
export type PreviewOutcome = (typeof previewOutcomes)[number];

export interface ImportsView {
  tab: ImportTab;
  /** The imports list: free text (file or seller), status, page (1-based) and page size. */
  q: string;
  status: BatchStatus | null;
  page: number;
  size: ImportPageSize;
  /** The open import, shown instead of the lists. */
  importId: string | null;
  section: ImportSection;
  /** The report's row filters and page. */
  outcome: RowOutcome | null;
  result: RowResult | null;
  rowSearch: string;
  rowPage: number;
  /** The preview's outcome (null: the page picks one with rows) and page. */
  change: PreviewOutcome | null;
  previewPage: number;
  /** The requests list and the open request. */
  requestStatus: RequestStatus | null;
  requestPage: number;
  requestId: string | null;
}

/** Moves the page to the view with `patch` applied (`replace`: without a new history entry). */
export type SetImportsView = (patch: Partial<ImportsView>, options?: { replace?: boolean }) => void;

export const defaultImportsView: ImportsView = {
  tab: 'imports',
  q: '',
  status: null,
  page: 1,
  size: 25,
  importId: null,
  section: 'report',
  outcome: null,
  result: null,
  rowSearch: '',
  rowPage: 1,
  change: null,
  previewPage: 1,
  requestStatus: null,
  requestPage: 1,
  requestId: null,
};

// The view's keys and the parameter each is written as.
const params = {
  tab: 'tab',
  q: 'q',
  status: 'status',
  page: 'page',
  size: 'size',
  importId: 'import',
  section: 'section',
  outcome: 'outcome',
  result: 'result',
  rowSearch: 'rows',
  rowPage: 'rowPage',
  change: 'change',
  previewPage: 'previewPage',
  requestStatus: 'requestStatus',
  requestPage: 'requestPage',
  requestId: 'request',
} as const satisfies Record<keyof ImportsView, string>;

/** What belongs to the open import: it starts afresh whenever another import opens. */
const importOwnKeys: readonly (keyof ImportsView)[] = [
  'section',
  'outcome',
  'result',
  'rowSearch',
  'rowPage',
  'change',
  'previewPage',
];

const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown): T | null =>
  allowed.includes(value as T) ? (value as T) : null;
const pageOf = (text: string | null) => {
  const page = Number(text);
  return Number.isInteger(page) && page >= 1 && page <= 400_000 ? page : 1;
};
const idOf = (text: string | null) => (isUuid(text) ? text.toLowerCase() : null);
const textOf = (text: string | null) => (text ?? '').trim().slice(0, 100);

export function parseImportsView(search: string): ImportsView {
  const read = new URLSearchParams(search);
  const get = (key: keyof ImportsView) => read.get(params[key]);
  return {
    tab: oneOf(importTabs, get('tab')) ?? defaultImportsView.tab,
    q: textOf(get('q')),
    status: oneOf(batchStatuses, get('status')),
    page: pageOf(get('page')),
    size: oneOf(IMPORT_PAGE_SIZES, Number(get('size'))) ?? defaultImportsView.size,
    importId: idOf(get('importId')),
    section: oneOf(importSections, get('section')) ?? defaultImportsView.section,
    outcome: oneOf(rowOutcomes, get('outcome')),
    result: oneOf(rowResults, get('result')),
    rowSearch: textOf(get('rowSearch')),
    rowPage: pageOf(get('rowPage')),
    change: oneOf(previewOutcomes, get('change')),
    previewPage: pageOf(get('previewPage')),
    requestStatus: oneOf(requestStatuses, get('requestStatus')),
    requestPage: pageOf(get('requestPage')),
    requestId: idOf(get('requestId')),
  };
}

/** `?tab=…&…` with only what differs from the default (empty when nothing does). */
export function importsViewToSearch(view: ImportsView): string {
  const write = new URLSearchParams();
  for (const key of Object.keys(params) as (keyof ImportsView)[]) {
    const value = view[key];
    if (value === null || value === '' || value === defaultImportsView[key]) continue;
    // An import's own state means nothing without the import.
    if (!view.importId && importOwnKeys.includes(key)) continue;
    write.set(params[key], String(value));
  }
  const text = write.toString();
  return text ? `?${text}` : '';
}

export const importsHref = (view: ImportsView): string => `${IMPORTS_ROUTE}${importsViewToSearch(view)}`;

/** The view with an import open on its report (or closed, with `null`), the lists kept as they were. */
export function withImport(view: ImportsView, importId: string | null, section?: ImportSection): ImportsView {
  const fresh = Object.fromEntries(importOwnKeys.map((key) => [key, defaultImportsView[key]]));
  return { ...view, ...fresh, importId, section: section ?? defaultImportsView.section };
}
