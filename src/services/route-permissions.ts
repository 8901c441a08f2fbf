import type { RouteAction } from '../../contracts/routes';
import { useSidebar } from './session-queries';

/**
 * What the signed-in user may do on a route, from the same effective permissions the server enforces.
 * Pages use it to show only the actions that will succeed; the server still checks every call.
 */
export function useRouteActions(route: string): { can: (action: RouteAction) => boolean } {
  const sidebar = useSidebar();
  const actions = sidebar.data?.permissions[route] ?? [];
  return { can: (action) => actions.includes(action) };
}
