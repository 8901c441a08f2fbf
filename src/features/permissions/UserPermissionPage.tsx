import { Box, Button, Card, Flex, Input, SegmentGroup, Stack, Switch, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { PermissionMap } from '../../../contracts/permissions';
import type { ServerRole } from '../../../contracts/roles';
import { getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import {
  type PermissionRoute,
  useDefaultPermissions,
  usePermissionConfig,
  useRoles,
  useSaveRolePermissions,
  useSaveUserPermissions,
  useSetDefaultPermissions,
  useUserPermissions,
  useUsers,
} from './api';
import { overridesFrom, PermissionMatrix } from './PermissionMatrix';

const PAGE_SIZE = 10;

function UserList({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const [query, setQuery] = useState('');
  const [skip, setSkip] = useState(0);
  const users = useUsers({ query, skip, limit: PAGE_SIZE });
  return (
    <Stack gap="3">
      <Input
        placeholder="Search users by name or e-mail"
        aria-label="Search users"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setSkip(0);
        }}
      />
      {users.isError ? (
        <ErrorState message={getErrorMessage(users.error)} onRetry={() => users.refetch()} />
      ) : null}
      {users.isPending ? <LoadingState rows={3} /> : null}
      <Stack gap="1" role="listbox" aria-label="Users">
        {users.data?.rows.map((user) => (
          <Button
            key={user.id}
            role="option"
            aria-selected={user.id === selected}
            variant={user.id === selected ? 'subtle' : 'ghost'}
            colorPalette="brand"
            justifyContent="flex-start"
            h="auto"
            py="2"
            onClick={() => onSelect(user.id)}
          >
            <Box textAlign="start" minW="0">
              <Text fontWeight="medium" truncate>
                {user.username} · {user.role}
              </Text>
              <Text fontSize="xs" color="fg.muted" truncate>
                {user.email}
              </Text>
            </Box>
          </Button>
        ))}
        {users.data && users.data.rows.length === 0 ? (
          <Text color="fg.muted">No users match “{query}”.</Text>
        ) : null}
      </Stack>
      {users.data ? (
        <Pager
          compact
          label="User pages"
          skip={skip}
          limit={PAGE_SIZE}
          count={users.data.count}
          onSkipChange={setSkip}
        />
      ) : null}
    </Stack>
  );
}

function SaveBar({
  dirty,
  saving,
  onSave,
  onReset,
}: {
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onReset: () => void;
}) {
  return (
    <Flex gap="2" justify="flex-end" mt="4">
      <Button variant="outline" disabled={!dirty || saving} onClick={onReset}>
        Discard changes
      </Button>
      <Button colorPalette="brand" disabled={!dirty} loading={saving} onClick={onSave}>
        Save permissions
      </Button>
    </Flex>
  );
}

function UserEditor({
  userId,
  routes,
  allRoutes,
}: {
  userId: string;
  routes: PermissionRoute[];
  allRoutes: PermissionRoute[];
}) {
  const permissions = useUserPermissions(userId);
  const save = useSaveUserPermissions();
  const [draft, setDraft] = useState<PermissionMap | null>(null);
  useEffect(() => setDraft(permissions.data?.effective ?? null), [permissions.data]);

  if (permissions.isPending || !draft) return <LoadingState />;
  if (permissions.isError)
    return <ErrorState message={getErrorMessage(permissions.error)} onRetry={() => permissions.refetch()} />;
  const dirty = JSON.stringify(draft) !== JSON.stringify(permissions.data.effective);
  return (
    <>
      <Text color="fg.muted" mb="3">
        Role: {permissions.data.role}. Rows marked Custom differ from the role and apply to this user only.
      </Text>
      <PermissionMatrix
        routes={routes}
        value={draft}
        baseline={permissions.data.rolePermissions}
        onChange={setDraft}
      />
      <SaveBar
        dirty={dirty}
        saving={save.isPending}
        onReset={() => setDraft(permissions.data.effective)}
        onSave={() =>
          save.mutate(
            { userId, overrides: overridesFrom(draft, permissions.data.rolePermissions, allRoutes) },
            { onSuccess: () => notify({ type: 'success', title: 'Permissions saved' }) },
          )
        }
      />
    </>
  );
}

function RoleEditor({ routes }: { routes: PermissionRoute[] }) {
  const roles = useRoles();
  const save = useSaveRolePermissions();
  const [role, setRole] = useState<ServerRole>('Staff');
  const stored = roles.data?.rows.find((row) => row.role === role)?.permissions;
  const [draft, setDraft] = useState<PermissionMap | null>(null);
  useEffect(() => setDraft(stored ?? null), [stored]);

  if (roles.isError)
    return <ErrorState message={getErrorMessage(roles.error)} onRetry={() => roles.refetch()} />;
  return (
    <Stack gap="4">
      <SegmentGroup.Root value={role} onValueChange={(e) => e.value && setRole(e.value as ServerRole)}>
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={['Admin', 'Staff', 'Seller']} />
      </SegmentGroup.Root>
      {!draft || !stored ? (
        <LoadingState />
      ) : (
        <Box>
          <PermissionMatrix routes={routes} value={draft} onChange={setDraft} />
          <SaveBar
            dirty={JSON.stringify(draft) !== JSON.stringify(stored)}
            saving={save.isPending}
            onReset={() => setDraft(stored)}
            onSave={() =>
              save.mutate(
                { role, permissions: { ...stored, ...draft } },
                { onSuccess: () => notify({ type: 'success', title: `${role} permissions saved` }) },
              )
            }
          />
        </Box>
      )}
    </Stack>
  );
}

function DefaultPermissionsSwitch() {
  const setting = useDefaultPermissions();
  const change = useSetDefaultPermissions();
  return (
    <Switch.Root
      data-tour="default-permissions"
      checked={setting.data?.enabled ?? false}
      disabled={setting.isPending || change.isPending}
      onCheckedChange={(e) => change.mutate(e.checked)}
      colorPalette="brand"
    >
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>Use default permissions for everyone</Switch.Label>
    </Switch.Root>
  );
}

/** Edit what a user or a whole role may see and do. The server enforces exactly these permissions. */
export default function UserPermissionPage() {
  const config = usePermissionConfig();
  const [, navigate] = useLocation();
  const userId = new URLSearchParams(useSearch()).get('userId');
  const visibleRoutes = useMemo(
    () => config.data?.routes.filter((route) => route.available) ?? [],
    [config.data],
  );

  return (
    <>
      <PageHeader
        title="User Permissions"
        description="Choose which pages each user and role may open and what they may do there."
        actions={<DefaultPermissionsSwitch />}
      />
      {config.isError ? (
        <ErrorState message={getErrorMessage(config.error)} onRetry={() => config.refetch()} />
      ) : null}
      {config.isPending ? (
        <LoadingState />
      ) : config.data ? (
        <Tabs.Root defaultValue="users" colorPalette="brand">
          <Tabs.List data-tour="permission-tabs">
            <Tabs.Trigger value="users">Users</Tabs.Trigger>
            <Tabs.Trigger value="roles">Roles</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="users">
            <Flex gap="4" direction={{ base: 'column', lg: 'row' }} align="flex-start">
              <Card.Root w={{ base: 'full', lg: '80' }} flexShrink={0} data-tour="permission-users">
                <Card.Body>
                  <UserList
                    selected={userId}
                    onSelect={(id) => navigate(`/permission/UserPermission?userId=${id}`)}
                  />
                </Card.Body>
              </Card.Root>
              <Box flex="1" minW="0" w="full">
                {userId ? (
                  <UserEditor
                    key={userId}
                    userId={userId}
                    routes={visibleRoutes}
                    allRoutes={config.data.routes}
                  />
                ) : (
                  <Text color="fg.muted">Pick a user to see and edit their permissions.</Text>
                )}
              </Box>
            </Flex>
          </Tabs.Content>
          <Tabs.Content value="roles">
            <RoleEditor routes={visibleRoutes} />
          </Tabs.Content>
        </Tabs.Root>
      ) : null}
    </>
  );
}
