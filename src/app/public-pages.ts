// The pages anyone may open; the entry imports this module, so it stays small (see pages.ts).
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/** Pages anyone may open, signed in or not (SPEC §2). */
export const publicPages: Record<string, Page> = {
  '/signin': lazy(() => import('../features/auth/SignInPage')),
  '/forgot-password': lazy(() => import('../features/auth/ForgotPasswordPage')),
  '/reset-password': lazy(() => import('../features/auth/ResetPasswordPage')),
  '/unsubscribe': lazy(() => import('../features/mail-links/UnsubscribePage')),
  '/responseCollection': lazy(() => import('../features/mail-links/ResponseCollectionPage')),
  '/query-reply': lazy(() => import('../features/queries/QueryReplyPage')),
};

/**
 * Public pages whose path carries a parameter, by path prefix: the storefront help-chat widget
 * (`/chat/{sellerCode}`, its own lazy chunk), enquiry form (`/enquiry/{sellerCode}`) and an offer's signed
 * link (`/offer/{token}`) and an auction's public page (`/auction/{token}`). Not in the route manifest: it is no back-office page.
 */
export const publicPagesByPrefix: Record<string, Page> = {
  '/chat/': lazy(() => import('../features/chat-widget/ChatWidgetPage')),
  '/enquiry/': lazy(() => import('../features/enquiry/EnquiryPage')),
  '/offer/': lazy(() => import('../features/offers/PublicOfferPage')),
  '/auction/': lazy(() => import('../features/auctions/PublicAuctionPage')),
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
