// Browser calling in the signed-in app (issue 6; SPEC §5 "call service"): the voice service runs only
// when the runtime flag `callServiceEnabled` is "true" and the user has an access token. Otherwise no
// call UI is drawn and the voice code (the device adapters, Twilio's SDK) is never loaded: it is
// imported on demand, like the broker client, so neither the entry chunk nor the shell chunk carries it.
//
// The provider owns the service's lifetime (started once per signed-in user, stopped on sign-out or
// unmount) and the call dialog's open state; the call UI itself (src/ui/call) only reads the actors.
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useAuthSelector } from '../../services/auth-context';
import { useRuntimeConfig } from '../../services/runtime-config';
import { CallButton } from '../../ui/call/CallButton';
import { CallDialog } from '../../ui/call/CallDialog';
import { FeedbackModal } from '../../ui/call/FeedbackModal';
import { IncomingCallToast } from '../../ui/call/IncomingCallToast';
import type { VoiceHandle, VoiceModule } from './voice-handle';

/** The voice service, on demand (a separate chunk). Typed against the contract the shell relies on. */
function loadVoice(): Promise<VoiceModule> {
  return import('../../services/voice');
}

export interface VoiceState {
  /** The running voice service; null while off, loading, or when it failed to load. */
  handle: VoiceHandle | null;
  dialogOpen: boolean;
  setDialogOpen: (open: boolean) => void;
}

const VoiceContext = createContext<VoiceState>({ handle: null, dialogOpen: false, setDialogOpen: () => {} });

export const useVoice = (): VoiceState => useContext(VoiceContext);

export function VoiceProvider({ children }: { children: ReactNode }) {
  const userId = useAuthSelector((snapshot) => snapshot.context.auth?.id ?? null);
  const hasToken = useAuthSelector((snapshot) => Boolean(snapshot.context.auth?.accessToken));
  const config = useRuntimeConfig();
  // A silent token refresh changes the token, not whether there is one: the service keeps running
  // (it fetches voice tokens of its own).
  const enabled = config.data?.callServiceEnabled === 'true' && hasToken && userId !== null;
  const [handle, setHandle] = useState<VoiceHandle | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one service per signed-in user (userId)
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let started: VoiceHandle | null = null;
    loadVoice().then(
      (voice) => {
        if (cancelled) return;
        try {
          started = voice.startVoice();
          setHandle(started);
        } catch (error) {
          console.error('Could not start the voice service', error);
        }
      },
      (error: unknown) => console.error('Could not load the voice service', error),
    );
    return () => {
      cancelled = true;
      started?.stop();
      setHandle(null);
      setDialogOpen(false);
    };
  }, [enabled, userId]);

  const value = useMemo(() => ({ handle, dialogOpen, setDialogOpen }), [handle, dialogOpen]);
  return (
    <VoiceContext.Provider value={value}>
      {children}
      {handle ? <CallUi handle={handle} dialogOpen={dialogOpen} setDialogOpen={setDialogOpen} /> : null}
    </VoiceContext.Provider>
  );
}

/** The toast, the dialog and the feedback modal, over whatever page is open. */
function CallUi({ handle, dialogOpen, setDialogOpen }: VoiceState & { handle: VoiceHandle }) {
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
  const { handle, setDialogOpen } = useVoice();
  if (!handle) return null;
  return <CallButton device={handle.device} onClick={() => setDialogOpen(true)} />;
}
