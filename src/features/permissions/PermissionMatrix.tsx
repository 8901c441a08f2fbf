import { Badge, Checkbox, Table, Text } from '@chakra-ui/react';
import type { PermissionMap } from '../../../contracts/permissions';
import { type RouteAction, routeActions } from '../../../contracts/routes';
import { TableScroll } from '../../ui/table-scroll';
import type { PermissionRoute } from './api';

const sameActions = (a: readonly string[] = [], b: readonly string[] = []) =>
  a.length === b.length && a.every((action) => b.includes(action));

/** Routes × actions as checkboxes. Rows that differ from `baseline` (the role's) are marked Custom. */
export function PermissionMatrix({
  routes,
  value,
  baseline,
  onChange,
}: {
  routes: PermissionRoute[];
  value: PermissionMap;
  baseline?: PermissionMap;
  onChange: (next: PermissionMap) => void;
}) {
  const toggle = (route: PermissionRoute, action: RouteAction, on: boolean) => {
    const current = value[route.path] ?? [];
    let actions = on ? [...current, action] : current.filter((a) => a !== action);
    // Without view nothing else is reachable, so removing view clears the row and any action implies view.
    if (action === 'view' && !on) actions = [];
    if (on && action !== 'view' && !actions.includes('view')) actions = ['view', ...actions];
    onChange({ ...value, [route.path]: route.actions.filter((a) => actions.includes(a)) });
  };

  return (
    <TableScroll label="Permissions" borderWidth="1px" rounded="md">
      <Table.Root size="sm" stickyHeader>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Page</Table.ColumnHeader>
            {routeActions.map((action) => (
              <Table.ColumnHeader key={action} textAlign="center" textTransform="capitalize">
                {action}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {routes.map((route) => {
            const custom = baseline && !sameActions(value[route.path], baseline[route.path]);
            return (
              <Table.Row key={route.path} data-route={route.path}>
                <Table.Cell>
                  <Text fontWeight="medium">
                    {route.section ? `${route.section} › ` : ''}
                    {route.name}{' '}
                    {custom ? (
                      <Badge colorPalette="purple" size="sm">
                        Custom
                      </Badge>
                    ) : null}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {route.path}
                  </Text>
                </Table.Cell>
                {routeActions.map((action) => (
                  <Table.Cell key={action} textAlign="center">
                    {route.actions.includes(action) ? (
                      <Checkbox.Root
                        colorPalette="brand"
                        checked={value[route.path]?.includes(action) ?? false}
                        onCheckedChange={(e) => toggle(route, action, e.checked === true)}
                      >
                        <Checkbox.HiddenInput aria-label={`${action} ${route.name}`} />
                        <Checkbox.Control />
                      </Checkbox.Root>
                    ) : (
                      <Text color="fg.subtle" aria-hidden>
                        –
                      </Text>
                    )}
                  </Table.Cell>
                ))}
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}

/** The overrides to store for a user: only routes whose actions differ from the role's. */
export function overridesFrom(
  draft: PermissionMap,
  role: PermissionMap,
  routes: PermissionRoute[],
): PermissionMap {
  const overrides: PermissionMap = {};
  for (const route of routes) {
    if (!sameActions(draft[route.path], role[route.path])) overrides[route.path] = draft[route.path] ?? [];
  }
  return overrides;
}
