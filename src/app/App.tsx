import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { Redirect, Router, useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { safeReturnTo } from '../machines/auth.machine';
import { selectIsRestoring, selectIsSignedIn, selectIsSigningOut, startAuth } from '../services/auth-adapter';
import { AuthActorProvider } from '../services/auth-context';
import { configureHttp } from '../services/http-handlers';
import { notify } from '../ui/notify';
import { UiProvider } from '../ui/Provider';
import { PageSpinner } from '../ui/page-spinner';
import { loadFullSystem } from '../ui/ui-system';
import { findPublicPage } from './public-pages';

// The long-lived pieces, created once for the life of the page (ARCHITECTURE.md).
const auth = startAuth({ navigate: (to, options) => navigate(to, options), notify });
configureHttp({ notifyError: (message) => notify({ type: 'error', title: message }) });

// The signed-in shell and its full styling system load together, after sign-in: the public pages
// never download them (bench/results.json measures both).
const Shell = lazy(async () => {
  const [{ Shell }] = await Promise.all([import('./shell/Shell'), loadFullSystem()]);
  return { default: Shell };
});

function Routes() {
  const [location] = useLocation();
  const search = useSearch();
  const restoring = useSelector(auth.actor, selectIsRestoring);
  const signedIn = useSelector(auth.actor, selectIsSignedIn);
  const signingOut = useSelector(auth.actor, selectIsSigningOut);

  // Every public route has a page (pages.test.ts).
  const PublicPage = findPublicPage(location);
  if (PublicPage) {
    if (location === '/signin' && signedIn) {
      return <Redirect to={safeReturnTo(new URLSearchParams(search).get('returnTo')) ?? '/'} replace />;
    }
    return (
      <Suspense fallback={<PageSpinner />}>
        <PublicPage />
      </Suspense>
    );
  }
  // A deliberate sign-out goes to /signin with no returnTo (the machine navigates once it is done): the
  // page being left is not a place for whoever signs in next.
  if (restoring || signingOut) return <PageSpinner />;
  if (!signedIn) {
    const here = `${location}${search ? `?${search}` : ''}`;
    return (
      <Redirect to={location === '/' ? '/signin' : `/signin?returnTo=${encodeURIComponent(here)}`} replace />
    );
  }
  return (
    <Suspense fallback={<PageSpinner />}>
      <Shell />
    </Suspense>
  );
}

export function App() {
  return (
    <UiProvider>
      <AuthActorProvider actor={auth.actor}>
        <Router>
          <Routes />
        </Router>
      </AuthActorProvider>
    </UiProvider>
  );
}
