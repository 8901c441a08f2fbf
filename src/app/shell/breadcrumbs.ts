import type { PermissionsConfig } from '../../services/session-queries';

export interface Crumb {
  name: string;
  href?: string;
}

/**
 * The trail for a route from the server's permissions map (route → breadcrumb names, SPEC §6). A detail
 * route's trail starts with its parent's, and the parent's last crumb links back to the parent page.
 */
export function breadcrumbTrail(path: string, config: PermissionsConfig | undefined): Crumb[] {
  const entry = config?.routes[path];
  if (!entry) return [];
  const crumbs: Crumb[] = entry.names.map((name) => ({ name }));
  for (const parent of entry.parents) {
    const parentNames = config?.routes[parent]?.names ?? [];
    const isPrefix =
      parentNames.length > 0 && parentNames.every((name, index) => entry.names[index] === name);
    if (isPrefix) {
      crumbs[parentNames.length - 1] = { name: parentNames.at(-1) as string, href: parent };
      break;
    }
  }
  return crumbs;
}
