import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { authMachine } from '../machines/auth.machine';

type AuthActorRef = ActorRefFrom<typeof authMachine>;
type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/**
 * The one long-lived auth actor, created in src/app and handed down here so features can read it with
 * narrow selectors and send it events, without holding any auth state of their own.
 */
const AuthActorContext = createContext<AuthActorRef | null>(null);

export function AuthActorProvider({ actor, children }: { actor: AuthActorRef; children: ReactNode }) {
  return <AuthActorContext.Provider value={actor}>{children}</AuthActorContext.Provider>;
}

export function useAuthActor(): AuthActorRef {
  const actor = useContext(AuthActorContext);
  if (!actor) throw new Error('useAuthActor must be used inside <AuthActorProvider>');
  return actor;
}

export function useAuthSelector<T>(selector: (snapshot: AuthSnapshot) => T): T {
  return useSelector(useAuthActor(), selector);
}
