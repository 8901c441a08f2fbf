// The contacts list's view lives in the URL: the filters (one query tree), the search, the order, the
// page and its size, and the contact or lead import open beside it. Reading is forgiving: anything
// unknown or invalid falls back to the default, so a shared or old link always opens.
import {
  CONTACT_PAGE_SIZES,
  type ContactListQuery,
  type ContactSortField,
  contactSortFields,
} from '../../../contracts/contacts';
import { decodeQuery, emptyQuery, encodeQuery, type QueryTree } from '../../../contracts/query-tree';

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
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;
const idOf = (value: string | null) => (value && UUID.test(value) ? value : null);

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
