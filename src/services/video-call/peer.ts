// The seam between the video-call session and @thaunknown/simple-peer (restartable-peer.ts, loaded on
// demand): the peer types (peer-types.ts) and the loader; tests put their fake in its place.
import type { PeerFactory } from './peer-types';

export type { PeerFactory, PeerHandlers, PeerOptions, VideoPeerLike } from './peer-types';

/** The real peer, loaded when a call starts (it is not in any chunk the app loads before). */
export async function loadPeerFactory(): Promise<PeerFactory> {
  return (await import('./restartable-peer')).createPeer;
}
