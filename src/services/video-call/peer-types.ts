// What the video-call session needs of a peer connection: the seam between the session and
// @thaunknown/simple-peer. Both peer.ts (which loads the real one) and restartable-peer.ts (the real one)
// import it; tests build their fake peers on it.
import type { VideoSignal } from '../../../contracts/video-signal';

export interface PeerOptions {
  /** The caller makes offers; the callee answers. */
  initiator: boolean;
  stream: MediaStream;
  iceServers: RTCIceServer[];
}

export interface PeerHandlers {
  /** A signal for the other side (offer, answer, trickled candidate, renegotiation request). */
  onSignal(signal: VideoSignal): void;
  onStream(stream: MediaStream): void;
  /** Media and the data channel are up. */
  onConnect(): void;
  /** A message on the data channel (the other side's mute and camera state). */
  onData(text: string): void;
  onIceState(state: RTCIceConnectionState): void;
  onError(message: string): void;
  onClose(): void;
}

export interface VideoPeerLike {
  signal(signal: VideoSignal): void;
  send(text: string): void;
  replaceTrack(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack, stream: MediaStream): void;
  restartIce(): void;
  getStats(): Promise<RTCStatsReport>;
  destroy(): void;
}

export type PeerFactory = (options: PeerOptions, handlers: PeerHandlers) => VideoPeerLike;
