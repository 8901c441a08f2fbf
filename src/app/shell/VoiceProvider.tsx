// Browser calling in the signed-in app (issue 6; SPEC §5 "call service"): the voice service runs only
// when the runtime flag `callServiceEnabled` is "true", the user has an access token and their
// permissions let them call (`canUseCalls`: not a blocked seller, not someone without the calls page, who
// would only get a 403 on the voice token and a "Disconnected" phone). Otherwise no
// call UI is drawn and the voice code (the device adapters, Twilio's SDK) is never loaded: it is
// imported on demand, like the broker client, so neither the entry chunk nor the shell chunk carries it.
//
// The provider owns the service's lifetime (started once per signed-in user, stopped on sign-out or
// unmount) and the call dialog's open state; the call UI itself (src/ui/call) only reads the actors.
//
// One tab owns the call (tab-ownership.ts): of several tabs of the same user only the one holding the
// Web Lock starts the service (rings, holds the device); the others draw MirrorPhone, a read-only view
// of the owner's state with "Use this tab for calls". Without Web Locks every tab starts it, as before.
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { canUseCalls } from '../../../contracts/calls';
import { useAuthSelector } from '../../services/auth-context';
import { useRuntimeConfig } from '../../services/runtime-config';
import { useSidebar } from '../../services/session-queries';
import {
  createTabOwnership,
  ownedSessionOf,
  type TabOwnershipOptions,
  type TabView,
} from '../../services/voice/tab-ownership';
import { CallButton, PhoneButton } from '../../ui/call/CallButton';
import { CallDialog } from '../../ui/call/CallDialog';
import { FeedbackModal } from '../../ui/call/FeedbackModal';
import { IncomingCallToast } from '../../ui/call/IncomingCallToast';
import { MIRROR_NOTE, MirrorIncomingCard, MirrorPhoneDialog } from '../../ui/call/MirrorPhone';
import type { VoiceHandle, VoiceModule } from './voice-handle';

/** The voice service, on demand (a separate chunk). Typed against the contract the shell relies on. */
function loadVoice(): Promise<VoiceModule> {
  return import('../../services/voice');
}

export interface VoiceState {
  /** The running voice service; null while off, loading, failed to load, or owned by another tab. */
  handle: VoiceHandle | null;
  /** What this tab is in the election (null while the call service is off). */
  tab: TabView | null;
  /** Asks the owner tab to hand the device to this one. */
  takeOver: () => void;
  dialogOpen: boolean;
  setDialogOpen: (open: boolean) => void;
}

const VoiceContext = createContext<VoiceState>({
  handle: null,
  tab: null,
  takeOver: () => {},
  dialogOpen: false,
  setDialogOpen: () => {},
});

export const useVoice = (): VoiceState => useContext(VoiceContext);

/** Test seam: the Web Locks manager and the channel of this "tab" (the browser's by default). */
export type VoiceTabSeams = Pick<TabOwnershipOptions<never>, 'locks' | 'openChannel'>;

export function VoiceProvider({ children, tabSeams }: { children: ReactNode; tabSeams?: VoiceTabSeams }) {
  const userId = useAuthSelector((snapshot) => snapshot.context.auth?.id ?? null);
  const hasToken = useAuthSelector((snapshot) => Boolean(snapshot.context.auth?.accessToken));
  const config = useRuntimeConfig();
  // The same query as the sidebar's: an approved renewal or a permission change that refetches it
  // starts (or stops) the phone without a reload.
  const sidebar = useSidebar();
  const allowed = sidebar.data ? canUseCalls(sidebar.data.permissions) : false;
  // A silent token refresh changes the token, not whether there is one: the service keeps running
  // (it fetches voice tokens of its own).
  const enabled = config.data?.callServiceEnabled === 'true' && allowed && hasToken && userId !== null;
  const [handle, setHandle] = useState<VoiceHandle | null>(null);
  const [tab, setTab] = useState<TabView | null>(null);
  const [takeOver, setTakeOver] = useState<() => void>(() => () => {});
  const [dialogOpen, setDialogOpen] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one election per signed-in user (userId)
  useEffect(() => {
    if (!enabled || userId === null) return;
    // The service starts only in the tab that wins the device's lock (at once without Web Locks).
    const ownership = createTabOwnership({
      ...tabSeams,
      userId,
      start: () =>
        loadVoice().then(
          (voice) => ownedSessionOf(voice.startVoice()),
          (error: unknown) => {
            console.error('Could not load the voice service', error);
            throw error;
          },
        ),
      onChange: (view, session) => {
        setTab(view);
        setHandle(session?.handle ?? null);
      },
    });
    setTakeOver(() => () => ownership.takeOver());
    return () => {
      ownership.dispose();
      setHandle(null);
      setTab(null);
      setTakeOver(() => () => {});
      setDialogOpen(false);
    };
  }, [enabled, userId]);

  const value = useMemo(
    () => ({ handle, tab, takeOver, dialogOpen, setDialogOpen }),
    [handle, tab, takeOver, dialogOpen],
  );
  return (
    <VoiceContext.Provider value={value}>
      {children}
      {handle ? <CallUi handle={handle} dialogOpen={dialogOpen} setDialogOpen={setDialogOpen} /> : null}
      {!handle && tab?.role === 'mirror' ? (
        <>
          <MirrorIncomingCard incoming={tab.mirror?.incoming ?? null} />
          <MirrorPhoneDialog
            mirror={tab.mirror}
            takeover={tab.takeover}
            onTakeOver={takeOver}
            open={dialogOpen}
            onOpenChange={setDialogOpen}
          />
        </>
      ) : null}
    </VoiceContext.Provider>
  );
}

/** The toast, the dialog and the feedback modal, over whatever page is open. */
function CallUi({
  handle,
  dialogOpen,
  setDialogOpen,
}: Pick<VoiceState, 'dialogOpen' | 'setDialogOpen'> & { handle: VoiceHandle }) {
  return (
    <>
      <IncomingCallToast call={handle.call} />
      <CallDialog
        call={handle.call}
        device={handle.device}
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        ownNumber={handle.info()?.phoneNumber ?? null}
      />
      <FeedbackModal call={handle.call} />
    </>
  );
}

/** The header's phone button: only while the voice service runs. */
export function HeaderCallButton() {
  const { handle, tab, setDialogOpen } = useVoice();
  if (handle) return <CallButton device={handle.device} onClick={() => setDialogOpen(true)} />;
  // Another tab holds the device: its state, from the mirror.
  if (tab?.role === 'mirror') {
    return (
      <PhoneButton
        state={tab.mirror?.deviceState ?? 'notReady'}
        text={tab.mirror ? `${tab.mirror.deviceStatusText}. ${MIRROR_NOTE}` : MIRROR_NOTE}
        onClick={() => setDialogOpen(true)}
      />
    );
  }
  return null;
}
