import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { SavedView, ViewList, ViewState } from '../../contracts/saved-views';
import { useBareUrlView } from '../services/saved-views';

type NavigateOptions = { replace?: boolean };

/**
 * A page whose whole view (filters, sort, page, open drawer) lives in the URL: `view` is parsed from
 * the search string, `setView(patch)` navigates to the view with the patch applied, so Back, reload
 * and a shared link show the same thing. `parse` and `href` must be stable (module-level) functions.
 */
export function useUrlView<View>(parse: (search: string) => View, href: (view: View) => string) {
  const [, navigate] = useLocation();
  const search = useSearch();
  const view = useMemo(() => parse(search), [parse, search]);
  const setView = useCallback(
    (patch: Partial<View>, options: NavigateOptions = {}) => navigate(href({ ...view, ...patch }), options),
    [navigate, href, view],
  );
  return { view, setView, search, navigate };
}

/** How a list page's view and its saved views map to the URL; declare it once, at module level. */
export interface SavedUrlView<View> {
  route: string;
  list: ViewList;
  parse(search: string): View;
  /** '' or `?…`: the search string of a view. */
  toSearch(view: View): string;
  /** The view a saved view opens. */
  ofSaved(state: ViewState, viewId: string | null): View;
  /** The list's last search in this tab, '' when none. */
  remember?: { read(): string; write(search: string): void };
}

/**
 * `useUrlView` for a list with saved views: a bare URL (from the menu) opens the tab's last view
 * (when the list remembers one), else the user's default saved view, when they chose one.
 */
export function useSavedUrlView<View>(config: SavedUrlView<View>) {
  const { route, list, parse, toSearch, ofSaved, remember } = config;
  const href = useCallback((view: View) => `${route}${toSearch(view)}`, [route, toSearch]);
  const url = useUrlView(parse, href);
  const { navigate, search } = url;
  useBareUrlView(list, search, {
    open: useCallback((found: string) => navigate(`${route}${found}`, { replace: true }), [navigate, route]),
    searchOf: useCallback(
      (saved: SavedView) => toSearch(ofSaved(saved.state, saved.id)),
      [toSearch, ofSaved],
    ),
    remember,
  });
  return url;
}
