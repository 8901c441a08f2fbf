import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/**
 * The signed-in pages, each loaded lazily. Only the shell imports this module (the public pages are in
 * public-pages.ts), so the preload lists of every back-office page live in the shell's chunk and not in
 * the entry that /signin loads. Every route the manifest marks `available` must have a page here
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
  '/imports/manage-imports': lazy(() => import('../features/imports/ImportsPage')),
  '/tags/manage-tags': lazy(() => import('../features/tags/TagsPage')),
  '/marketing/contacts': lazy(() => import('../features/contacts/ContactsPage')),
  '/marketing/bulk-mails': lazy(() => import('../features/bulk-mails/BulkMailsPage')),
  '/queries/queries-request': lazy(() => import('../features/queries/QueriesPage')),
  '/queries/query': lazy(() => import('../features/queries/QueryPage')),
  '/customers/offer-requests': lazy(() => import('../features/offers/OffersPage')),
  '/customers/offer': lazy(() => import('../features/offers/OfferPage')),
  '/orders/manage-orders': lazy(() => import('../features/orders/OrdersPage')),
  '/orders/create-new-order': lazy(() => import('../features/orders/CreateOrderPage')),
  '/orders/order': lazy(() => import('../features/orders/OrderPage')),
  '/orders/manage-purchase-orders': lazy(() => import('../features/purchase-orders/PurchaseOrdersPage')),
  '/orders/create-new-purchase-order': lazy(
    () => import('../features/purchase-orders/CreatePurchaseOrderPage'),
  ),
  '/orders/purchase-order': lazy(() => import('../features/purchase-orders/PurchaseOrderPage')),
  '/invoices/manage-invoices': lazy(() => import('../features/invoices/InvoicesPage')),
  '/invoices/create-invoice': lazy(() => import('../features/invoices/CreateInvoicePage')),
  '/invoices/invoice': lazy(() => import('../features/invoices/InvoicePage')),
  '/marketing/manage-invoices': lazy(() => import('../features/invoices/MarketingInvoicesPage')),
  '/auctions/manage-auctions': lazy(() => import('../features/auctions/ManageAuctionsPage')),
  '/auctions/auction-details': lazy(() => import('../features/auctions/AuctionDetailsPage')),
  '/settings/manage-settings': lazy(() => import('../features/settings/SettingsPage')),
  '/subscriptions/subscriptions-request': lazy(
    () => import('../features/subscriptions/SubscriptionRequestsPage'),
  ),
};
