import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/**
 * The SPA's pages, each loaded lazily. Every route the manifest marks `available` must have a page here
 * (pages.test.ts checks it), so the menu never links to a page that does not exist.
 */
export const protectedPages: Record<string, Page> = {
  '/': lazy(() => import('../features/dashboard/DashboardPage')),
  '/sellers/general-dashboard': lazy(() => import('../features/sellers/GeneralDashboardPage')),
  '/sellers/payment-seller-subscriptions': lazy(() => import('../features/sellers/PaymentSubscriptionPage')),
  '/permission/UserPermission': lazy(() => import('../features/permissions/UserPermissionPage')),
  '/sellers/manage-sellers': lazy(() => import('../features/manage-sellers/ManageSellersPage')),
  '/staff/manage-staff': lazy(() => import('../features/staff/ManageStaffPage')),
  '/sellers/list-of-customers': lazy(() => import('../features/customers/CustomersPage')),
  '/sellers/seller-customers/customer-edit': lazy(() => import('../features/customers/CustomerEditPage')),
  '/sellers/help-chats': lazy(() => import('../features/help-chats/HelpChatsPage')),
  '/customers/help-chats': lazy(() => import('../features/help-chats/HelpChatsPage')),
  '/calls/call-history': lazy(() => import('../features/calls/CallHistoryPage')),
  '/products/staging-products': lazy(() => import('../features/staging-products/StagingProductsPage')),
  '/product/staging-products': lazy(() => import('../features/staging-products/ProductDetailsPage')),
  '/sellers/manage-category': lazy(() => import('../features/categories/ManageCategoryPage')),
  '/sellers/manage-subcategory': lazy(() => import('../features/categories/ManageSubcategoryPage')),
  '/products/attributes': lazy(() => import('../features/attributes/AttributesPage')),
  '/subscriptions/subscriptions-request': lazy(
    () => import('../features/subscriptions/SubscriptionRequestsPage'),
  ),
};

/** Pages anyone may open, signed in or not (SPEC §2). */
export const publicPages: Record<string, Page> = {
  '/signin': lazy(() => import('../features/auth/SignInPage')),
  '/forgot-password': lazy(() => import('../features/auth/ForgotPasswordPage')),
  '/reset-password': lazy(() => import('../features/auth/ResetPasswordPage')),
  '/unsubscribe': lazy(() => import('../features/mail-links/UnsubscribePage')),
  '/responseCollection': lazy(() => import('../features/mail-links/ResponseCollectionPage')),
};

/**
 * Public pages whose path carries a parameter, by path prefix: the storefront help-chat widget
 * (`/chat/{sellerCode}`, its own lazy chunk). Not in the route manifest: it is no back-office page.
 */
export const publicPagesByPrefix: Record<string, Page> = {
  '/chat/': lazy(() => import('../features/chat-widget/ChatWidgetPage')),
};

/** The public page for `location`, if it is one. */
export function findPublicPage(location: string): Page | undefined {
  const exact = publicPages[location];
  if (exact) return exact;
  const prefix = Object.keys(publicPagesByPrefix).find(
    (candidate) => location.startsWith(candidate) && location.length > candidate.length,
  );
  return prefix ? publicPagesByPrefix[prefix] : undefined;
}
