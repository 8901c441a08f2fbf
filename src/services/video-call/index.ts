// The video-call chunk (issue 13): loaded with `import('…/services/video-call')` once a signed-in user
// who may call is in the app, never statically from the entry. The peer library is a further chunk,
// loaded when a call starts (peer.ts).
import { httpHandlers } from '../http-handlers';
import { connectSignalling } from '../signalling-socket';
import { startVideoCalls, type VideoCallHandle, type VideoSocketLike } from './video-call-session';

export type { VideoCallHandle, VideoMediaState } from './video-call-session';
export { startVideoCalls } from './video-call-session';

/** A session on a signalling socket of its own (closed when the session stops). */
export function startVideoCallService(options: {
  selfId: string;
  isOnOtherCall?: () => boolean;
}): VideoCallHandle {
  const socket = connectSignalling({ getAccessToken: () => httpHandlers().getAccessToken() });
  const handle = startVideoCalls({ ...options, socket: socket as VideoSocketLike });
  // A tab closed during a call hangs up as it goes, so the other side and the server know at once
  // (not after the server's rejoin grace) and the user can call again from another tab right away.
  const onPageHide = (event: PageTransitionEvent) => {
    if (!event.persisted) handle.stop();
  };
  window.addEventListener('pagehide', onPageHide);
  return {
    ...handle,
    stop() {
      window.removeEventListener('pagehide', onPageHide);
      handle.stop();
      socket.disconnect();
    },
  };
}
