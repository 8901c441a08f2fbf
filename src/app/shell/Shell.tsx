import { Box, Button, CloseButton, Drawer, Flex, Portal, Text } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Store } from 'lucide-react';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { Redirect, Link as RouterLink, useLocation } from 'wouter';
import type { PermissionMap } from '../../../contracts/permissions';
import { canOpenRoute } from '../../../contracts/routes';
import { useAuthActor, useAuthSelector } from '../../services/auth-context';
import { useClientSettingsSync } from '../../services/client-settings';
import { getErrorMessage } from '../../services/http';
import { createQueryClient } from '../../services/query-client';
import { useCurrentUser, usePermissionsConfig, useSidebar } from '../../services/session-queries';
import { useColorTheme } from '../../ui/color-theme';
import { PageSpinner } from '../../ui/page-spinner';
import { ErrorState, FullPageMessage } from '../../ui/page-states';
import { tourFor } from '../../ui/tour/tour-texts';
import { isBlockedSeller, landingRedirect, SUBSCRIPTION_PAGE } from '../landing';
import { protectedPages } from '../pages';
import { breadcrumbTrail } from './breadcrumbs';
import { ChatStoreProvider } from './ChatStoreProvider';
import { Header } from './Header';
import { RealtimeProvider } from './realtime';
import { Sidebar } from './Sidebar';
import { VideoCallProvider } from './VideoCallProvider';
import { VoiceProvider } from './VoiceProvider';

function Brand() {
  return (
    <Flex align="center" gap="2" px="6" h="14" borderBottomWidth="1px" color="brand.fg" fontWeight="bold">
      <Store aria-hidden size={20} />
      <Text>Marketplace</Text>
    </Flex>
  );
}

/** The page for the current path, after the same permission check the server makes. */
function RoutedPage({ path, permissions }: { path: string; permissions: PermissionMap }) {
  const user = useCurrentUser();
  const Page = protectedPages[path];
  if (!Page) {
    return (
      <FullPageMessage
        title="Page not found"
        description="There is no page at this address."
        action={
          <Button asChild colorPalette="brand">
            <RouterLink href="/">Go to the dashboard</RouterLink>
          </Button>
        }
      />
    );
  }
  if (path === '/') {
    if (user.isPending) return <PageSpinner />;
    const target = user.data ? landingRedirect(user.data) : null;
    if (target) return <Redirect to={target} replace />;
  }
  if (!canOpenRoute(path, permissions)) {
    // A blocked seller's other pages are closed until they renew: show them where to do it.
    if (user.data && isBlockedSeller(user.data)) return <Redirect to={SUBSCRIPTION_PAGE} replace />;
    return (
      <FullPageMessage
        title="No access"
        description="You do not have permission to open this page. Ask an admin if you need it."
      />
    );
  }
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  );
}

/**
 * The signed-in app, with a data cache of its own per user: another user signing in (here or in another
 * tab) gets a fresh cache and fresh page state, so nobody ever sees the previous user's data.
 */
export function Shell() {
  const userId = useAuthSelector((s) => s.context.auth?.id ?? null);
  return (
    <UserQueryClient key={userId}>
      <RealtimeProvider>
        <ChatStoreProvider>
          <VoiceProvider>
            <VideoCallProvider>
              <ShellLayout />
            </VideoCallProvider>
          </VoiceProvider>
        </ChatStoreProvider>
      </RealtimeProvider>
    </UserQueryClient>
  );
}

function UserQueryClient({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  useEffect(() => () => client.clear(), [client]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** The signed-in layout: sidebar from permissions, header with breadcrumbs, theme toggle and account menu. */
function ShellLayout() {
  const actor = useAuthActor();
  const isSeller = useAuthSelector((s) => s.context.auth?.isSeller ?? false);
  const { isDark, toggle } = useColorTheme(isSeller);
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const sidebar = useSidebar();
  const user = useCurrentUser();
  const config = usePermissionsConfig();
  // The user's request defaults and formats; a change re-renders the layout and the page with them.
  useClientSettingsSync();
  const crumbs = breadcrumbTrail(location, config.data);
  // The page guide belongs to a page that exists and that this user may open (never "Page not found"
  // or "No access"), in the sellers' version for sellers.
  const permissions = sidebar.data?.permissions;
  const tour = permissions && protectedPages[location] ? tourFor(location, { permissions, isSeller }) : [];

  return (
    <Flex minH="100vh">
      <Box
        as="aside"
        w="64"
        flexShrink={0}
        borderRightWidth="1px"
        bg="bg.panel"
        display={{ base: 'none', md: 'block' }}
      >
        <Brand />
        {sidebar.data ? <Sidebar menu={sidebar.data.menu} /> : null}
      </Box>
      <Drawer.Root open={menuOpen} onOpenChange={(e) => setMenuOpen(e.open)} placement="start">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content maxW="72">
              {/* The close button sits beside the brand, not over the menu: a long menu scrolls under an
                  absolutely placed button (the Marketing section made the admin's menu that long). */}
              <Flex align="center" justify="space-between" pe="3">
                <Box flex="1">
                  <Brand />
                </Box>
                <Drawer.CloseTrigger asChild position="static">
                  <CloseButton size="sm" />
                </Drawer.CloseTrigger>
              </Flex>
              {sidebar.data ? (
                <Sidebar menu={sidebar.data.menu} onNavigate={() => setMenuOpen(false)} />
              ) : null}
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
      <Flex direction="column" flex="1" minW="0">
        <Header
          user={user.data}
          crumbs={crumbs}
          tour={tour}
          isDark={isDark}
          onToggleTheme={toggle}
          onSignOut={() => actor.send({ type: 'auth.signOut' })}
          onOpenMenu={() => setMenuOpen(true)}
        />
        <Box as="main" flex="1" p={{ base: '4', md: '8' }} bg="bg.subtle">
          {sidebar.isPending ? (
            <PageSpinner />
          ) : sidebar.isError ? (
            <ErrorState message={getErrorMessage(sidebar.error)} onRetry={() => sidebar.refetch()} />
          ) : (
            <RoutedPage path={location} permissions={sidebar.data.permissions} />
          )}
        </Box>
      </Flex>
    </Flex>
  );
}
