// A page rendered for a test: a router at a URL (recording where it goes), a fresh data cache holding
// the signed-in user (a seller or an admin) and their permissions per route. Only tests import this.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { RouteAction } from '../../../contracts/routes';
import { system } from '../../ui/theme';
import { sessionKeys } from '../session-queries';
import { makeCurrentUser } from './current-user';

export function renderPageAt(
  path: string,
  page: ReactNode,
  options: { permissions: Record<string, readonly RouteAction[]>; seller?: boolean },
) {
  const memory = memoryLocation({ path, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of [sessionKeys.currentUser(), sessionKeys.sidebar()])
    client.setQueryDefaults(key, { staleTime: Number.POSITIVE_INFINITY });
  client.setQueryData(
    sessionKeys.currentUser(),
    makeCurrentUser(options.seller ? { roles: ['Seller'], isAdmin: false, isSeller: true } : {}),
  );
  client.setQueryData(sessionKeys.sidebar(), {
    menu: [],
    permissions: options.permissions,
    usingDefaultPermissions: false,
  });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          {page}
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { memory, client };
}
