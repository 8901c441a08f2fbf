// Video calls in the signed-in app (issue 13): every tab of a user who may call (`canUseCalls`, the same
// permission as the calls page) runs a video-call session, so every tab rings; the server lets the first
// tab that accepts take the call and stops the others. The session's code (socket.io-client, the
// statechart) is a chunk loaded here on demand; the peer library only when a call starts.
//
// Unlike the phone, video calls do not depend on the call-service flag (CALL_SERVICE_ENABLED, SPEC §5):
// that flag is the voice provider's (Twilio or local phone numbers); video calls need only signalling.
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { canUseCalls } from '../../../contracts/calls';
import { useAuthSelector } from '../../services/auth-context';
import { useSidebar } from '../../services/session-queries';
import { leftCallText, takeLeftCall } from '../../services/video-call/left-call';
import type { VideoCallHandle } from '../../services/video-call/video-call-session';
import { notify } from '../../ui/notify';
import { VideoCallContext } from '../../ui/video-call/context';
import { VideoCallLayer } from '../../ui/video-call/VideoCallLayer';
import { useVoice } from './VoiceProvider';

function loadVideoCalls() {
  return import('../../services/video-call');
}

/** The voice call states in which this tab is on the phone (a video ring is then answered busy). */
const VOICE_BUSY = new Set(['connecting', 'active', 'reconnecting']);

export function VideoCallProvider({ children }: { children: ReactNode }) {
  const userId = useAuthSelector((snapshot) => snapshot.context.auth?.id ?? null);
  const hasToken = useAuthSelector((snapshot) => Boolean(snapshot.context.auth?.accessToken));
  const sidebar = useSidebar();
  const allowed = sidebar.data ? canUseCalls(sidebar.data.permissions) : false;
  const enabled = allowed && hasToken && userId !== null;
  const [handle, setHandle] = useState<VideoCallHandle | null>(null);
  const voice = useVoice();
  const voiceRef = useRef(voice.handle);
  voiceRef.current = voice.handle;

  // After a call was left, the page reloaded (SPEC §4): say how it ended.
  useEffect(() => {
    const left = takeLeftCall();
    if (left) notify({ type: 'info', ...leftCallText(left) });
  }, []);

  useEffect(() => {
    if (!enabled || userId === null) return;
    let stopped = false;
    let started: VideoCallHandle | null = null;
    loadVideoCalls().then(
      (module) => {
        if (stopped) return;
        started = module.startVideoCallService({
          selfId: userId,
          isOnOtherCall: () => VOICE_BUSY.has(String(voiceRef.current?.call.getSnapshot().value ?? 'idle')),
        });
        setHandle(started);
      },
      (error: unknown) => console.error('Could not load video calls', error),
    );
    return () => {
      stopped = true;
      started?.stop();
      setHandle(null);
    };
  }, [enabled, userId]);

  const value = useMemo(() => ({ handle }), [handle]);
  return (
    <VideoCallContext.Provider value={value}>
      {children}
      {handle ? <VideoCallLayer handle={handle} /> : null}
    </VideoCallContext.Provider>
  );
}
