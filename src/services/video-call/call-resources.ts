// A call's resources (video-call-session.ts): made when the call starts, and released — timers
// stopped, peer destroyed, tracks stopped — when it ends. A released call's timers never fire.
import { type CallResources, type Session, setMedia } from './session-state';

/** The resources of `callId`, made (with the signals kept while it rang) when it is not the current. */
export function resourcesFor(session: Session, callId: string): CallResources {
  if (session.current?.callId !== callId) {
    session.current = {
      callId,
      stream: null,
      peer: null,
      outbox: [],
      canSend: false,
      inbox: session.rings.get(callId) ?? [],
      screenTrack: null,
      cameraTrack: null,
      timers: new Set(),
      statsTimer: null,
      lastStats: null,
      reconnect: null,
      peerConnected: false,
      aborted: false,
    };
    session.rings.delete(callId);
  }
  return session.current;
}

export function callTimer(session: Session, call: CallResources, ms: number, callback: () => void) {
  const handle = session.setTimer(() => {
    call.timers.delete(handle);
    if (!call.aborted) callback();
  }, ms);
  call.timers.add(handle);
  return handle;
}

export function cancelCallTimer(session: Session, call: CallResources, handle: unknown) {
  session.clearTimer(handle);
  call.timers.delete(handle);
}

export function release(session: Session, call: CallResources | null) {
  if (!call) return;
  call.aborted = true;
  for (const handle of call.timers) session.clearTimer(handle);
  call.timers.clear();
  if (call.statsTimer !== null) session.clearTimer(call.statsTimer);
  call.peer?.destroy();
  call.screenTrack?.stop();
  for (const track of call.stream?.getTracks() ?? []) track.stop();
  if (session.current === call) session.current = null;
  setMedia(session, { local: null, remote: null, remoteMuted: false, remoteCameraOff: false, notice: null });
}
