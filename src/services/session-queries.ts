import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SidebarData, sidebarDataSchema } from '../../contracts/permissions';
import { getCurrentUser } from './auth-api';
import { http } from './http';

export interface PermissionsConfig {
  routes: Record<string, { names: string[]; parents: string[] }>;
}

/** Query keys of what belongs to the signed-in session; cleared as a whole on sign-out. */
export const sessionKeys = {
  all: ['session'] as const,
  currentUser: () => [...sessionKeys.all, 'current-user'] as const,
  sidebar: () => [...sessionKeys.all, 'sidebar'] as const,
  permissionsConfig: () => [...sessionKeys.all, 'permissions-config'] as const,
};

export const currentUserQuery = () =>
  queryOptions({ queryKey: sessionKeys.currentUser(), queryFn: getCurrentUser });

export const sidebarQuery = () =>
  queryOptions({
    queryKey: sessionKeys.sidebar(),
    queryFn: async (): Promise<SidebarData> =>
      sidebarDataSchema.parse((await http.get('/api/v1/users/getSidebarData')).data),
  });

export const permissionsConfigQuery = () =>
  queryOptions({
    queryKey: sessionKeys.permissionsConfig(),
    queryFn: async (): Promise<PermissionsConfig> =>
      (await http.get('/api/v1/globalConfigs/getPermissionsConfig')).data,
    // The route map only changes with a release.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCurrentUser = (enabled = true) => useQuery({ ...currentUserQuery(), enabled });
export const useSidebar = (enabled = true) => useQuery({ ...sidebarQuery(), enabled });
export const usePermissionsConfig = (enabled = true) => useQuery({ ...permissionsConfigQuery(), enabled });
