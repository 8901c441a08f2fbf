// Saved views (ARCHITECTURE "saved views"): a list's query tree with its columns, sort and page size,
// stored on the server so it follows its owner to any browser, and shared by scope. Staging products
// are the first list; contacts and orders reuse it with their own `list` name.
import { z } from 'zod';
import { queryTreeSchema } from './query-tree';

export const viewScopes = ['private', 'team', 'everyone'] as const;
export type ViewScope = (typeof viewScopes)[number];
export const viewScopeLabels: Record<ViewScope, string> = {
  private: 'Only me',
  team: 'My team',
  everyone: 'Everyone',
};

/** Lists that have saved views, and the route whose `publish` action shares a view with everyone. */
export const viewLists = {
  'staging-products': '/products/staging-products',
  // Contacts views are also campaign audiences (issue 17): saved and shared the same way.
  contacts: '/marketing/contacts',
  // The customer queries inbox's tab and filters (issue 30).
  queries: '/queries/queries-request',
  // The offer requests list's tab and filters (issue 30).
  offers: '/customers/offer-requests',
  // The orders list's tab and filters (issue 31); its route has no publish: views are private or team.
  orders: '/orders/manage-orders',
  // The invoices list's tab and filters (issue 31); no publish either.
  invoices: '/invoices/manage-invoices',
  // The same list read from the Marketing section: its views need only that page's permission.
  'marketing-invoices': '/marketing/manage-invoices',
  // The auctions list's tab and filters (issue 32); its route has no publish: views are private or team.
  auctions: '/auctions/manage-auctions',
} as const;
export type ViewList = keyof typeof viewLists;

export const viewStateSchema = z.object({
  query: queryTreeSchema,
  search: z.string().trim().max(100).default(''),
  /** Column keys in display order (built-in fields and `attr.<code>`). */
  columns: z.array(z.string().max(60)).max(60),
  sort: z.string().max(40),
  order: z.enum(['asc', 'desc']),
  pageSize: z.number().int().min(1).max(200),
});
export type ViewState = z.infer<typeof viewStateSchema>;

export const savedViewSchema = z.object({
  id: z.string(),
  list: z.string(),
  name: z.string(),
  scope: z.enum(viewScopes),
  state: viewStateSchema,
  owner: z.object({ id: z.string(), name: z.string() }),
  /** False for a view someone else shared: it can be loaded and copied, not changed. */
  editable: z.boolean(),
  isDefault: z.boolean(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;
export const savedViewListSchema = z.object({ result: z.array(savedViewSchema) });

const viewName = z
  .string()
  .trim()
  .min(1, 'Give the view a name.')
  .max(60, 'A view name has at most 60 characters.');

export const createViewBodySchema = z.object({
  list: z.enum(Object.keys(viewLists) as [ViewList, ...ViewList[]]),
  name: viewName,
  scope: z.enum(viewScopes).default('private'),
  state: viewStateSchema,
  makeDefault: z.boolean().default(false),
});
export type CreateViewBody = z.input<typeof createViewBodySchema>;

export const updateViewBodySchema = z.object({
  name: viewName.optional(),
  scope: z.enum(viewScopes).optional(),
  state: viewStateSchema.optional(),
});
export type UpdateViewBody = z.input<typeof updateViewBodySchema>;

/** Views one user may own per list: a menu, not a store (more answers 409). */
export const MAX_VIEWS_PER_LIST = 100;

const viewListSchema = z.enum(Object.keys(viewLists) as [ViewList, ...ViewList[]]);

export const listViewsQuerySchema = z.object({ list: viewListSchema });

/** Sets the user's default view of a list, or clears it with `viewId: null`. */
export const setDefaultViewBodySchema = z.object({
  list: viewListSchema,
  viewId: z.string().uuid('There is no such view.').nullable(),
});
export type SetDefaultViewBody = z.infer<typeof setDefaultViewBodySchema>;
export const defaultViewSchema = z.object({ list: z.string(), viewId: z.string().nullable() });
export type DefaultView = z.infer<typeof defaultViewSchema>;
