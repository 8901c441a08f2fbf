// The contacts list's view lives in the URL: the filters (one query tree), the search, the order, the
// page and its size, and the contact or lead import open beside it. Reading is forgiving: anything
// unknown or invalid falls back to the default, so a shared or old link always opens.
import {
  CONTACT_PAGE_SIZES,
  CONTACT_VIEW_COLUMNS,
  type ContactListQuery,
  type ContactSortField,
  contactSortFields,
} from '../../../contracts/contacts';
import { isUuid } from '../../../contracts/domain/ids';
import { decodeQuery, emptyQuery, encodeQuery, type QueryTree } from '../../../contracts/query-tree';
import type { ViewState } from '../../../contracts/saved-views';

export type ContactPageSize = (typeof CONTACT_PAGE_SIZES)[number];

export interface ContactsView {
  query: QueryTree;
  search: string;
  sort: ContactSortField;
  order: 'asc' | 'desc';
  /** 1-based. */
  page: number;
  size: ContactPageSize;
  /** The contact open in the drawer. */
  contact: string | null;
  /** The lead import open in its dialog. */
  leadImport: string | null;
  /** The saved view (audience) loaded, whether or not the list still matches it. */
  viewId: string | null;
}

export const defaultContactsView: ContactsView = {
  query: emptyQuery(),
  search: '',
  sort: 'createdAt',
  order: 'desc',
  page: 1,
  size: 25,
  contact: null,
  leadImport: null,
  viewId: null,
};

const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;
const idOf = (value: string | null) => (value && isUuid(value) ? value : null);

export function parseContactsView(search: string): ContactsView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    query: decodeQuery(params.get('q')) ?? emptyQuery(),
    search: (params.get('s') ?? '').trim().slice(0, 100),
    sort: oneOf(contactSortFields, params.get('sort'), defaultContactsView.sort),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), defaultContactsView.order),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    size: oneOf(CONTACT_PAGE_SIZES, Number(params.get('size')), defaultContactsView.size),
    contact: idOf(params.get('contact')),
    leadImport: idOf(params.get('leadImport')),
    viewId: idOf(params.get('view')),
  };
}

/** `?q=…&…` with only what differs from the default (empty string when nothing does). */
export function contactsViewToSearch(view: ContactsView): string {
  const params = new URLSearchParams();
  const query = encodeQuery(view.query);
  if (query) params.set('q', query);
  if (view.search) params.set('s', view.search);
  if (view.sort !== defaultContactsView.sort) params.set('sort', view.sort);
  if (view.order !== defaultContactsView.order) params.set('order', view.order);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== defaultContactsView.size) params.set('size', String(view.size));
  if (view.contact) params.set('contact', view.contact);
  if (view.leadImport) params.set('leadImport', view.leadImport);
  if (view.viewId) params.set('view', view.viewId);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The list request of a view. */
export const listQueryOf = (view: ContactsView): ContactListQuery => ({
  query: encodeQuery(view.query) ?? '',
  search: view.search,
  sort: view.sort,
  order: view.order,
  skip: (view.page - 1) * view.size,
  limit: view.size,
});

/** A header click: the same column flips its order; another starts in its natural order. */
export function toggleSort(
  view: ContactsView,
  field: ContactSortField,
): Pick<ContactsView, 'sort' | 'order'> {
  if (view.sort === field) return { sort: field, order: view.order === 'asc' ? 'desc' : 'asc' };
  return { sort: field, order: field === 'name' || field === 'email' ? 'asc' : 'desc' };
}

/** What a saved view records of the list: its filters, search, order and page size. */
export const viewStateOf = (view: ContactsView): ViewState => ({
  query: view.query,
  search: view.search,
  columns: CONTACT_VIEW_COLUMNS,
  sort: view.sort,
  order: view.order,
  pageSize: view.size,
});

/** The list when a saved view is loaded: its filters from the first page, in its order. */
export const contactsViewOf = (state: ViewState, viewId: string | null): ContactsView => ({
  ...defaultContactsView,
  query: state.query,
  search: state.search,
  sort: oneOf(contactSortFields, state.sort, defaultContactsView.sort),
  order: state.order,
  size: oneOf(CONTACT_PAGE_SIZES, state.pageSize, defaultContactsView.size),
  viewId,
});
