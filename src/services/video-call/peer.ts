// What the video-call session needs of a peer connection: the seam between the session and
// @thaunknown/simple-peer (restartable-peer.ts, loaded on demand), and where tests put their fake.
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

/** The real peer, loaded when a call starts (it is not in any chunk the app loads before). */
export async function loadPeerFactory(): Promise<PeerFactory> {
  return (await import('./restartable-peer')).createPeer;
}
