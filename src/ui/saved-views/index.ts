// The saved-views building block of the SPA: the menu any list puts above itself, the default-view hook
// a list uses on first open, and the "modified" rule.
export { useDefaultView } from '../../services/saved-views';
export { SavedViewsMenu, type SavedViewsMenuProps } from './SavedViewsMenu';
export { isViewModified, normalizeViewState } from './view-state';
