// The video-call chunk (issue 13): loaded with `import('…/services/video-call')` once a signed-in user
// who may call is in the app, never statically from the entry. The peer library is a further chunk,
// loaded when a call starts (peer.ts).
import { sharedSignalling } from '../shared-signalling';
import { startVideoCalls, type VideoCallHandle } from './video-call-session';

export type { VideoCallHandle, VideoMediaState } from './video-call-session';
export { startVideoCalls } from './video-call-session';

/**
 * A session on a lease of the tab's one signalling socket (shared-signalling.ts), which the voice
 * provider may hold too: stopping releases the lease, and the connection closes with the last one.
 */
export function startVideoCallService(options: {
  selfId: string;
  isOnOtherCall?: () => boolean;
}): VideoCallHandle {
  const lease = sharedSignalling.acquire();
  const handle = startVideoCalls({ ...options, socket: lease.socket });
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
      lease.release();
    },
  };
}
