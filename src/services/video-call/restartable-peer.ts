// The video call's peer: @thaunknown/simple-peer (the maintained fork of simple-peer), loaded only when
// a call starts (`import('./restartable-peer')` in the session), with ICE restarts.
//
// simple-peer destroys its peer when ICE or the connection reports `failed`, and restarts nothing; a
// laptop that changes network would lose its call. Here `failed` is not fatal: the session restarts
// ICE (`restartIce`) on `disconnected` and on `failed`, and gives up only after its own deadline. The
// caller (the initiator, the one side that makes offers) restarts: `RTCPeerConnection.restartIce()`
// makes the next offer carry new ICE credentials, and `negotiate()` sends it through the signalling
// like any offer. The callee asks for it (simple-peer's `renegotiate` request), which the caller
// honours as a restart when its own ICE is down.
import SimplePeer from '@thaunknown/simple-peer';
import type { VideoSignal } from '../../../contracts/video-signal';
import type { PeerFactory, PeerHandlers, VideoPeerLike } from './peer-types';

const DOWN: readonly RTCIceConnectionState[] = ['disconnected', 'failed'];

class RestartablePeer extends SimplePeer {
  protected override _onIceStateChange(): void {
    if (this.destroyed) return;
    if (this._pc.iceConnectionState === 'failed') {
      // What simple-peer does on 'failed', minus destroying the peer.
      this.emit('iceStateChange', this._pc.iceConnectionState, this._pc.iceGatheringState);
      return;
    }
    super._onIceStateChange();
  }

  protected override _onConnectionStateChange(): void {
    if (this._pc.connectionState === 'failed') return; // the ICE restart handles it
    super._onConnectionStateChange();
  }

  override signal(data: unknown): void {
    const request = data as { renegotiate?: boolean };
    if (request.renegotiate && this.initiator && DOWN.includes(this._pc.iceConnectionState)) {
      this._pc.restartIce();
    }
    super.signal(data);
  }

  restartIce(): void {
    if (this.destroyed) return;
    if (this.initiator) this._pc.restartIce();
    this.negotiate();
  }

  declare emit: (event: string, ...args: unknown[]) => boolean;
}

export const createPeer: PeerFactory = (options, handlers: PeerHandlers): VideoPeerLike => {
  const peer = new RestartablePeer({
    initiator: options.initiator,
    stream: options.stream,
    trickle: true,
    config: { iceServers: options.iceServers },
  });
  peer.on('signal', (data) => handlers.onSignal(data as VideoSignal));
  peer.on('stream', (stream) => handlers.onStream(stream));
  peer.on('connect', () => handlers.onConnect());
  peer.on('data', (data) =>
    handlers.onData(typeof data === 'string' ? data : new TextDecoder().decode(data)),
  );
  peer.on('iceStateChange', (state) => handlers.onIceState(state));
  peer.on('error', (error) => handlers.onError(error.message));
  peer.on('close', () => handlers.onClose());
  return {
    signal: (signal) => peer.signal(signal),
    send: (data) => {
      if (!peer.destroyed) peer.send(data);
    },
    replaceTrack: (oldTrack, newTrack, stream) => peer.replaceTrack(oldTrack, newTrack, stream),
    restartIce: () => peer.restartIce(),
    getStats: () => peer._pc.getStats(),
    destroy: () => peer.destroy(),
  };
};
