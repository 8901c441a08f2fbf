import { QueryClientProvider } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { Redirect, Router, useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { isPublicPath } from '../../contracts/routes';
import { safeReturnTo } from '../machines/auth.machine';
import { selectIsRestoring, selectIsSignedIn, selectUserId, startAuth } from '../services/auth-adapter';
import { AuthActorProvider } from '../services/auth-context';
import { configureHttp } from '../services/http';
import { createQueryClient } from '../services/query-client';
import { UiProvider } from '../ui/Provider';
import { notify } from '../ui/toaster';
import { publicPages } from './pages';
import { PageSpinner, Shell } from './shell/Shell';

// The long-lived pieces, created once for the life of the page (ARCHITECTURE.md).
const queryClient = createQueryClient();
const auth = startAuth({ navigate: (to, options) => navigate(to, options), notify });
configureHttp({ notifyError: (message) => notify({ type: 'error', title: message }) });

// A different user (or none) must never see the previous user's cached data. Cleared synchronously on
// the transition, before React renders the next user's pages (clearing later would orphan their queries).
let cachedFor = selectUserId(auth.actor.getSnapshot());
auth.actor.subscribe((snapshot) => {
  const userId = selectUserId(snapshot);
  if (userId === cachedFor) return;
  cachedFor = userId;
  queryClient.clear();
});

function Routes() {
  const [location] = useLocation();
  const search = useSearch();
  const restoring = useSelector(auth.actor, selectIsRestoring);
  const signedIn = useSelector(auth.actor, selectIsSignedIn);

  const PublicPage = publicPages[location];
  if (PublicPage || isPublicPath(location)) {
    if (location === '/signin' && signedIn) {
      return <Redirect to={safeReturnTo(new URLSearchParams(search).get('returnTo')) ?? '/'} replace />;
    }
    return (
      <Suspense fallback={<PageSpinner />}>
        {PublicPage ? <PublicPage /> : <Redirect to="/signin" replace />}
      </Suspense>
    );
  }
  if (restoring) return <PageSpinner />;
  if (!signedIn) {
    const here = `${location}${search ? `?${search}` : ''}`;
    return (
      <Redirect to={location === '/' ? '/signin' : `/signin?returnTo=${encodeURIComponent(here)}`} replace />
    );
  }
  return <Shell />;
}

export function App() {
  return (
    <UiProvider>
      <QueryClientProvider client={queryClient}>
        <AuthActorProvider actor={auth.actor}>
          <Router>
            <Routes />
          </Router>
        </AuthActorProvider>
      </QueryClientProvider>
    </UiProvider>
  );
}
