import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionMap } from '../../../contracts/permissions';
import type { ServerRole } from '../../../contracts/roles';
import type { RouteAction } from '../../../contracts/routes';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';

export interface PermissionRoute {
  path: string;
  name: string;
  section: string | null;
  parents: string[];
  actions: RouteAction[];
  available: boolean;
}
export interface UserRow {
  id: string;
  username: string;
  email: string;
  role: ServerRole;
}
export interface UserPermissions {
  userId: string;
  role: ServerRole;
  rolePermissions: PermissionMap;
  overrides: PermissionMap;
  effective: PermissionMap;
}

const userKeys = queryKeys<{ query: string; skip: number; limit: number }>('permissions', 'users');
export const permissionKeys = {
  all: ['permissions'] as const,
  config: () => [...permissionKeys.all, 'config'] as const,
  roles: () => [...permissionKeys.all, 'roles'] as const,
  users: userKeys.list,
  user: userKeys.detail,
  defaults: () => [...permissionKeys.all, 'defaults'] as const,
};

export const usePermissionConfig = () =>
  useQuery(
    queryOptions({
      queryKey: permissionKeys.config(),
      queryFn: async (): Promise<{ routes: PermissionRoute[] }> =>
        (await http.get('/api/v1/users/getUserPermissionConfig')).data,
      staleTime: Number.POSITIVE_INFINITY,
    }),
  );

export const useRoles = () =>
  useQuery({
    queryKey: permissionKeys.roles(),
    queryFn: async (): Promise<{ rows: { role: ServerRole; permissions: PermissionMap }[] }> =>
      (await http.get('/api/v1/users/getUserRoles')).data,
  });

export const useUsers = (q: { query: string; skip: number; limit: number }) =>
  useQuery({
    queryKey: permissionKeys.users(q),
    queryFn: async (): Promise<{ rows: UserRow[]; count: number }> =>
      (await http.get('/api/v1/users/listUsersByRole', { params: { ...q, query: q.query || undefined } }))
        .data,
    placeholderData: keepPreviousData,
  });

export const useUserPermissions = (userId: string | null) =>
  useQuery({
    queryKey: permissionKeys.user(userId ?? ''),
    queryFn: async (): Promise<UserPermissions> =>
      (await http.get('/api/v1/users/getUserPermissions', { params: { userId } })).data,
    enabled: !!userId,
  });

export const useDefaultPermissions = () =>
  useQuery({
    queryKey: permissionKeys.defaults(),
    queryFn: async (): Promise<{ enabled: boolean }> =>
      (await http.get('/api/v1/users/defaultPermissions')).data,
  });

/** After any permission change, the editor and the signed-in user's own sidebar are refetched. */
function useInvalidatePermissions() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: permissionKeys.all }),
      client.invalidateQueries({ queryKey: sessionKeys.sidebar() }),
    ]);
}

export const useSaveUserPermissions = () => {
  const invalidate = useInvalidatePermissions();
  return useMutation({
    mutationFn: async (input: { userId: string; overrides: PermissionMap }) =>
      (await http.post(`/api/v1/users/updateUserPermissions/${input.userId}`, { overrides: input.overrides }))
        .data,
    onSuccess: invalidate,
  });
};

export const useSaveRolePermissions = () => {
  const invalidate = useInvalidatePermissions();
  return useMutation({
    mutationFn: async (input: { role: ServerRole; permissions: PermissionMap }) =>
      (await http.post('/api/v1/users/updateRolePermissions', input)).data,
    onSuccess: invalidate,
  });
};

export const useSetDefaultPermissions = () => {
  const invalidate = useInvalidatePermissions();
  return useMutation({
    mutationFn: async (enabled: boolean) =>
      (await http.put('/api/v1/users/defaultPermissions', { enabled })).data,
    onSuccess: invalidate,
  });
};
