// Every page each demo account can reach, as the server's permissions say (getSidebarData): what the
// tour and phone-width specs walk. Detail pages get a real id (the first customer, the first category);
// a detail page with nothing to open (no offer yet) is left out.
import type { APIRequestContext } from '@playwright/test';
import { OFFERS_API } from '../../contracts/offers';
import { canOpenRoute, routes } from '../../contracts/routes';
import { apiSession } from './support';

export const DEMO_ACCOUNTS = [
  'admin@demo.local',
  'staff@demo.local',
  'seller@demo.local',
  'blocked@demo.local',
  'kyc@demo.local',
] as const;

export interface RolePages {
  permissions: Record<
    string,
    ('view' | 'create' | 'edit' | 'delete' | 'export' | 'import' | 'publish' | 'approve')[]
  >;
  isSeller: boolean;
  /** Each page the account may open, with the query a detail page needs. */
  pages: { route: string; url: string }[];
}

export async function pagesOf(request: APIRequestContext, email: string): Promise<RolePages> {
  const { token } = await apiSession(request, email);
  const headers = { authorization: `Bearer ${token}` };
  const get = async (url: string) => (await request.get(url, { headers })).json();
  const sidebar = await get('/api/v1/users/getSidebarData');
  const user = await get('/api/v1/users/byToken/current');
  const permissions = sidebar.permissions as RolePages['permissions'];
  const firstId = async (url: string): Promise<string | null> => {
    const response = await request.get(url, { headers });
    if (!response.ok()) return null;
    const body = await response.json();
    return (body.rows ?? body.result ?? [])[0]?.id ?? null;
  };
  const detailQuery: Record<string, () => Promise<string | null>> = {
    '/sellers/seller-customers/customer-edit': async () => {
      const id = await firstId('/api/v1/users/listCustomers?skip=0&limit=1');
      return id ? `?customerId=${id}` : null;
    },
    '/product/staging-products': async () => {
      const response = await request.post('/api/v1/stagingProducts/method/search', {
        headers,
        data: { limit: 1 },
      });
      const id = response.ok() ? (await response.json()).result[0]?.id : null;
      return id ? `?id=${id}` : null;
    },
    '/queries/query': async () => {
      const id = await firstId('/api/v1/helperQuery?skip=0&limit=1');
      return id ? `?id=${id}` : null;
    },
    // An offer still open to a new version, so the guide's Send step has its button.
    '/customers/offer': async () => {
      for (const status of ['offered', 'requested']) {
        const id = await firstId(`${OFFERS_API}?status=${status}&skip=0&limit=1`);
        if (id) return `?id=${id}`;
      }
      return null;
    },
    '/orders/order': async () => {
      const id = await firstId('/api/v1/orders?skip=0&limit=1');
      return id ? `?id=${id}` : null;
    },
    '/invoices/invoice': async () => {
      const id = await firstId('/api/v1/invoices?skip=0&limit=1');
      return id ? `?id=${id}` : null;
    },
    '/orders/purchase-order': async () => {
      const id = await firstId('/api/v1/purchaseOrders?skip=0&limit=1');
      return id ? `?id=${id}` : null;
    },
    // The latest auction (the auctions e2e leaves one ended, with its ledger and order); who cannot list
    // auctions opens the page bare ("No auction chosen").
    '/auctions/auction-details': async () => {
      const id = await firstId('/api/v1/auctions?skip=0&limit=1');
      return id ? `?id=${id}` : '';
    },
    '/sellers/manage-subcategory': async () => {
      const id = await firstId('/api/v1/categories/listCategories?skip=0&limit=1');
      return id ? `?categoryId=${id}` : null;
    },
  };
  const pages: RolePages['pages'] = [];
  for (const route of routes) {
    if (!route.available || !canOpenRoute(route.path, permissions)) continue;
    // A seller opening `/` is sent to their dashboard: that page is listed on its own.
    if (route.path === '/' && user.isSeller) continue;
    const query = detailQuery[route.path];
    const suffix = query ? await query() : '';
    if (suffix === null) continue;
    pages.push({ route: route.path, url: `${route.path}${suffix}` });
  }
  return { permissions, isSeller: Boolean(user.isSeller), pages };
}
