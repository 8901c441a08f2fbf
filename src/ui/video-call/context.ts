// The running video-call session as the views see it (src/app/shell/VideoCallProvider starts it). A
// context of its own, light (types only), so a feature's "Video call" button does not load the session.
import { createContext, useContext } from 'react';
import type { VideoCallHandle } from '../../services/video-call/video-call-session';

export interface VideoCallContextValue {
  /** null while signed out, without the calls permission, or while the session loads. */
  handle: VideoCallHandle | null;
}

export const VideoCallContext = createContext<VideoCallContextValue>({ handle: null });

export const useVideoCall = (): VideoCallContextValue => useContext(VideoCallContext);
