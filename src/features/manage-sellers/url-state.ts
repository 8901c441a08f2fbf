// The page's view (tab, page, page size, sort, search, open seller) lives in the URL, so a view can be
// shared and survives a reload. Reading is forgiving: anything unknown falls back to the default.
import {
  SELLER_PAGE_SIZES,
  type SellerTabKey,
  sellerSortFields,
  sellerTabs,
} from '../../../contracts/sellers';

export type SellerPageSize = (typeof SELLER_PAGE_SIZES)[number];
export type SellerSortField = (typeof sellerSortFields)[number];
export type SortOrder = 'asc' | 'desc';

export interface SellerView {
  tab: SellerTabKey;
  /** 1-based. */
  page: number;
  size: SellerPageSize;
  sort: SellerSortField;
  order: SortOrder;
  /** The search text; empty means list the tab. */
  q: string;
  /** The seller whose detail drawer is open. */
  seller: string | null;
}

export const defaultView: SellerView = {
  tab: 'active',
  page: 1,
  size: 20,
  sort: 'createdAt',
  order: 'desc',
  q: '',
  seller: null,
};

const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

export function parseView(search: string): SellerView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const seller = params.get('seller');
  return {
    tab: oneOf(
      sellerTabs.map((tab) => tab.key),
      params.get('tab'),
      defaultView.tab,
    ),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : defaultView.page,
    size: oneOf(SELLER_PAGE_SIZES, Number(params.get('size')), defaultView.size),
    sort: oneOf(sellerSortFields, params.get('sort'), defaultView.sort),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), defaultView.order),
    q: (params.get('q') ?? '').trim().slice(0, 100),
    seller: seller && /^[0-9a-f-]{36}$/i.test(seller) ? seller : null,
  };
}

/** `?tab=…&…` with only what differs from the default (empty string when nothing does). */
export function viewToSearch(view: SellerView): string {
  const params = new URLSearchParams();
  for (const key of ['tab', 'page', 'size', 'sort', 'order', 'q', 'seller'] as const) {
    const value = view[key];
    if (value !== null && value !== '' && value !== defaultView[key]) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Sorting by a column: a new column starts in its natural order, the same column flips. */
export function toggleSort(view: SellerView, field: SellerSortField): Pick<SellerView, 'sort' | 'order'> {
  if (view.sort === field) return { sort: field, order: view.order === 'asc' ? 'desc' : 'asc' };
  return { sort: field, order: field === 'createdAt' ? 'desc' : 'asc' };
}
