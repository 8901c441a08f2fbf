// Plain TypeScript, no zod: the entry chunk uses the manifest. The action schema is in
// contracts/permissions.ts.
import type { ServerRole } from './roles';

/**
 * The one route manifest. The server seeds role permissions and builds each user's sidebar from it,
 * the SPA derives its route guards and breadcrumbs from it, and API routes name the (route, action)
 * they need from it. A route enters the menu only when `available` is true, i.e. its page really works;
 * later issues flip the flag when they ship the page.
 */
export const routeActions = [
  'view',
  'create',
  'edit',
  'delete',
  'export',
  'import',
  'publish',
  'approve',
] as const;
export type RouteAction = (typeof routeActions)[number];

export interface RouteDef {
  /** The SPA path, exactly as SPEC §2 names it. */
  path: string;
  /** Shown in the sidebar and in breadcrumbs. */
  name: string;
  /** Sidebar section this route sits in; top-level when absent. */
  section?: string;
  /** Detail routes: the sidebar routes they hang under (SPEC §2 table). Detail routes are not menu items. */
  parents?: string[];
  /** The actions that make sense on this route. */
  actions: readonly RouteAction[];
  /** What each role gets by default. A role not named gets nothing. */
  defaults: Partial<Record<ServerRole, readonly RouteAction[]>>;
  /** True once the page exists and works. */
  available: boolean;
}

const all = routeActions;
const viewOnly = ['view'] as const;

export const routes: readonly RouteDef[] = [
  {
    path: '/',
    name: 'Dashboard',
    actions: viewOnly,
    defaults: { Admin: viewOnly, Staff: viewOnly },
    available: true,
  },
  {
    path: '/sellers/general-dashboard',
    name: 'General Dashboard',
    actions: viewOnly,
    defaults: { Seller: viewOnly },
    available: true,
  },
  {
    path: '/sellers/payment-seller-subscriptions',
    name: 'My Subscription',
    actions: ['view', 'create'],
    defaults: { Seller: ['view', 'create'] },
    available: true,
  },
  // Catalogue
  {
    path: '/products/staging-products',
    name: 'Staging Products',
    section: 'Products',
    // `publish` shares a saved view with everyone.
    actions: ['view', 'create', 'edit', 'delete', 'export', 'import', 'publish'],
    defaults: {
      Admin: all,
      Staff: ['view', 'create', 'edit', 'export', 'publish'],
      Seller: ['view', 'create', 'edit', 'export'],
    },
    available: true,
  },
  {
    path: '/product/staging-products',
    name: 'Product Details',
    parents: ['/products/staging-products'],
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view', 'edit'], Seller: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/products/attributes',
    name: 'Attributes',
    section: 'Products',
    actions: ['view', 'create', 'edit', 'delete'],
    defaults: { Admin: ['view', 'create', 'edit', 'delete'], Staff: viewOnly, Seller: viewOnly },
    available: true,
  },
  {
    path: '/imports/manage-imports',
    name: 'Imports',
    section: 'Products',
    // `edit` sets the suggested-title template.
    actions: ['view', 'import', 'export', 'edit'],
    defaults: {
      Admin: ['view', 'import', 'export', 'edit'],
      Staff: ['view', 'import'],
      Seller: ['view', 'import'],
    },
    available: true,
  },
  {
    path: '/tags/manage-tags',
    name: 'Manage Tags',
    section: 'Tags',
    actions: ['view', 'create', 'edit', 'delete', 'export', 'publish'],
    // Admins publish and roll back; staff edit the draft; sellers read the published tree.
    defaults: { Admin: all, Staff: ['view', 'create', 'edit', 'delete', 'export'], Seller: viewOnly },
    available: true,
  },
  // Marketing
  {
    path: '/marketing/bulk-mails',
    name: 'Bulk Mails',
    section: 'Marketing',
    // create: compose and send campaigns; edit: templates, pause and resume; delete: drafts, templates.
    actions: ['view', 'create', 'edit', 'delete'],
    defaults: { Admin: ['view', 'create', 'edit', 'delete'], Staff: ['view', 'create', 'edit'] },
    available: true,
  },
  {
    path: '/marketing/contacts',
    name: 'Contacts',
    section: 'Marketing',
    // publish: share a saved view (an audience) with everyone.
    actions: ['view', 'create', 'edit', 'delete', 'import', 'export', 'publish'],
    defaults: { Admin: all, Staff: ['view', 'create', 'edit', 'import', 'export'] },
    available: true,
  },
  {
    path: '/marketing/manage-invoices',
    name: 'Invoices',
    section: 'Marketing',
    actions: ['view'],
    defaults: { Admin: viewOnly, Staff: viewOnly },
    available: true,
  },
  {
    path: '/invoices/manage-invoices',
    name: 'Manage Invoices',
    section: 'Invoices',
    actions: ['view', 'create', 'edit', 'delete', 'export'],
    defaults: { Admin: all, Staff: ['view'], Seller: ['view'] },
    available: true,
  },
  {
    path: '/invoices/create-invoice',
    name: 'Create Invoice',
    parents: ['/invoices/manage-invoices'],
    actions: ['view', 'create'],
    defaults: { Admin: ['view', 'create'] },
    available: true,
  },
  {
    // One invoice's page (not in SPEC §2): its parties, lines, taxes, credit notes and history; its
    // actions are Manage Invoices' (edit, delete).
    path: '/invoices/invoice',
    name: 'Invoice',
    parents: ['/invoices/manage-invoices'],
    actions: ['view'],
    defaults: { Admin: ['view'], Staff: ['view'], Seller: ['view'] },
    available: true,
  },
  // Customers and queries
  {
    path: '/queries/queries-request',
    name: 'Queries',
    section: 'Customers',
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view', 'edit'], Seller: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/queries/query',
    name: 'Query',
    parents: ['/queries/queries-request'],
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view', 'edit'], Seller: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/customers/offer-requests',
    name: 'Offer Requests',
    section: 'Customers',
    actions: ['view', 'edit', 'approve'],
    defaults: {
      Admin: ['view', 'edit', 'approve'],
      Staff: ['view', 'edit'],
      Seller: ['view', 'edit', 'approve'],
    },
    available: true,
  },
  {
    // One offer request (issue 30): opened as /customers/offer?id=…
    path: '/customers/offer',
    name: 'Offer',
    parents: ['/customers/offer-requests'],
    actions: ['view', 'edit', 'approve'],
    defaults: {
      Admin: ['view', 'edit', 'approve'],
      Staff: ['view', 'edit'],
      Seller: ['view', 'edit', 'approve'],
    },
    available: true,
  },
  {
    path: '/customers/help-chats',
    name: 'Help Chats',
    section: 'Customers',
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/sellers/help-chats',
    name: 'Help Chats',
    // With the seller's queries and offers, as the back office's help chats are.
    section: 'Customers',
    actions: ['view', 'edit'],
    defaults: { Seller: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/calls/call-history',
    name: 'Call History',
    section: 'Customers',
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view', 'edit'], Seller: ['view', 'edit'] },
    available: true,
  },
  // Subscriptions
  {
    path: '/subscriptions/subscriptions-request',
    name: 'Subscription Requests',
    section: 'Subscriptions',
    actions: ['view', 'approve'],
    defaults: { Admin: ['view', 'approve'], Staff: ['view'] },
    available: true,
  },
  // Orders and auctions
  {
    path: '/orders/manage-orders',
    name: 'Manage Orders',
    section: 'Orders',
    actions: ['view', 'create', 'edit', 'export'],
    defaults: { Admin: ['view', 'create', 'edit', 'export'], Staff: ['view'], Seller: ['view'] },
    available: true,
  },
  {
    path: '/orders/create-new-order',
    name: 'Create Order',
    parents: ['/orders/manage-orders'],
    actions: ['view', 'create'],
    defaults: { Admin: ['view', 'create'] },
    available: true,
  },
  {
    // One order's page (not in SPEC §2, which shows only the list and New): its lines, money, shipments
    // and history. Sellers fulfil their own orders, so they may record payments and ship.
    path: '/orders/order',
    name: 'Order',
    parents: ['/orders/manage-orders'],
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view'], Seller: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/orders/manage-purchase-orders',
    name: 'Purchase Orders',
    section: 'Orders',
    actions: ['view', 'create', 'edit', 'export'],
    defaults: { Admin: ['view', 'create', 'edit', 'export'], Staff: ['view'] },
    available: true,
  },
  {
    path: '/orders/create-new-purchase-order',
    name: 'Create Purchase Order',
    parents: ['/orders/manage-purchase-orders'],
    actions: ['view', 'create'],
    defaults: { Admin: ['view', 'create'] },
    available: true,
  },
  {
    // One purchase order's page (not in SPEC §2): its lines with what arrived, the receipts, the PDF and
    // history; sending, receiving and cancelling are Purchase Orders' edit.
    path: '/orders/purchase-order',
    name: 'Purchase Order',
    parents: ['/orders/manage-purchase-orders'],
    actions: ['view'],
    defaults: { Admin: ['view'], Staff: ['view'] },
    available: true,
  },
  {
    path: '/auctions/manage-auctions',
    name: 'Manage Auctions',
    section: 'Auctions',
    actions: ['view', 'create', 'edit'],
    defaults: { Admin: ['view', 'create', 'edit'] },
    available: true,
  },
  {
    path: '/auctions/auction-details',
    name: 'Auction Details',
    parents: ['/auctions/manage-auctions'],
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'] },
    available: true,
  },
  // Sellers, customers, staff
  {
    path: '/sellers/manage-sellers',
    name: 'Manage Sellers',
    section: 'Sellers',
    actions: ['view', 'create', 'edit', 'approve', 'export'],
    defaults: { Admin: ['view', 'create', 'edit', 'approve', 'export'], Staff: ['view'] },
    available: true,
  },
  {
    path: '/sellers/manage-category',
    name: 'Manage Category',
    section: 'Sellers',
    actions: ['view', 'create', 'edit', 'delete'],
    defaults: { Admin: ['view', 'create', 'edit', 'delete'], Staff: ['view'] },
    available: true,
  },
  {
    path: '/sellers/manage-subcategory',
    name: 'Manage Subcategory',
    parents: ['/sellers/manage-category'],
    actions: ['view', 'create', 'edit', 'delete'],
    defaults: { Admin: ['view', 'create', 'edit', 'delete'], Staff: ['view'] },
    available: true,
  },
  {
    path: '/sellers/list-of-customers',
    name: 'Customers',
    section: 'Sellers',
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view'], Seller: ['view'] },
    available: true,
  },
  {
    path: '/sellers/seller-customers/customer-edit',
    name: 'Edit Customer',
    parents: ['/sellers/list-of-customers'],
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/staff/manage-staff',
    name: 'Manage Staff',
    section: 'Administration',
    actions: ['view', 'create', 'edit'],
    defaults: { Admin: ['view', 'create', 'edit'] },
    available: true,
  },
  {
    // A detail route of staff and sellers (SPEC §2); until those pages exist it is reachable from the
    // Administration section, so it is listed there too (see `menuParentFallback`).
    path: '/permission/UserPermission',
    name: 'User Permissions',
    section: 'Administration',
    parents: ['/staff/manage-staff', '/sellers/manage-sellers'],
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'] },
    available: true,
  },
  {
    path: '/settings/manage-settings',
    name: 'Settings',
    section: 'Administration',
    actions: ['view', 'edit'],
    defaults: { Admin: ['view', 'edit'], Staff: ['view'], Seller: ['view', 'edit'] },
    available: true,
  },
];

/** Routes anyone may open, signed in or not (SPEC §2 access rules; reset-password joins them). */
export const publicRoutes = [
  '/signin',
  '/forgot-password',
  '/reset-password',
  '/responseCollection',
  '/unsubscribe',
  // A customer's answer to a query reply (issue 30): the mail's signed link.
  '/query-reply',
];

const byPath = new Map(routes.map((route) => [route.path, route]));

export function findRoute(path: string): RouteDef | undefined {
  return byPath.get(path);
}

/**
 * A detail route is a menu item of its own only while none of its parents is available, so a user
 * can still reach it (e.g. User Permissions before Manage Staff ships).
 */
export function isMenuItem(route: RouteDef): boolean {
  if (!route.available) return false;
  if (!route.parents) return true;
  return !route.parents.some((parent) => findRoute(parent)?.available);
}

/**
 * Public pages with a parameter, by prefix: the storefront help-chat widget `/chat/{sellerCode}`, the
 * enquiry form `/enquiry/{sellerCode}`, an offer's signed link `/offer/{token}` (issue 30) and an
 * auction's public page `/auction/{token}` (issue 32)
 * (customers have no account). Only one level below the prefix.
 */
export const publicRoutePrefixes = ['/chat/', '/enquiry/', '/offer/', '/auction/'];

export function isPublicPath(path: string): boolean {
  if (publicRoutes.includes(path)) return true;
  return publicRoutePrefixes.some((prefix) => {
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    return rest !== '' && !rest.includes('/');
  });
}

/**
 * The one rule that the SPA's route guard, the sidebar and the API share: a signed-in user may open a
 * route when it is public or their effective permissions grant `view` on it.
 */
export function canOpenRoute(
  path: string,
  permissions: Readonly<Record<string, readonly RouteAction[]>>,
): boolean {
  return isPublicPath(path) || (permissions[path]?.includes('view') ?? false);
}
