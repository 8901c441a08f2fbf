// The video call's peer over the REAL @thaunknown/simple-peer, with a fake RTCPeerConnection under it
// (jsdom has no WebRTC): ICE `failed` no longer destroys the peer, and an ICE restart goes out as a new
// offer from the caller, also when the callee asks for it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { VideoSignal } from '../../../contracts/video-signal';
import type { PeerFactory, PeerHandlers } from './peer';

class FakePeerConnection {
  static last: FakePeerConnection | null = null;
  iceConnectionState: RTCIceConnectionState = 'new';
  iceGatheringState: RTCIceGatheringState = 'new';
  connectionState: RTCPeerConnectionState = 'new';
  signalingState: RTCSignalingState = 'stable';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  restarts = 0;
  offers = 0;
  oniceconnectionstatechange: (() => void) | null = null;
  onicegatheringstatechange: (() => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  onsignalingstatechange: (() => void) | null = null;
  onicecandidate: (() => void) | null = null;
  ontrack: (() => void) | null = null;
  ondatachannel: (() => void) | null = null;
  constructor() {
    FakePeerConnection.last = this;
  }
  createDataChannel(label: string) {
    return { label, readyState: 'connecting', close() {} };
  }
  async createOffer() {
    this.offers++;
    return { type: 'offer' as const, sdp: `v=0 offer ${this.offers}${this.restarts ? ' ice-restart' : ''}` };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: 'v=0 answer' };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
    this.signalingState = description.type === 'answer' ? 'stable' : 'have-remote-offer';
    this.onsignalingstatechange?.();
  }
  async addIceCandidate() {}
  restartIce() {
    this.restarts++;
  }
  getStats() {
    return Promise.resolve(new Map());
  }
  getSenders() {
    return [];
  }
  close() {
    this.iceConnectionState = 'closed';
  }
  setIce(state: RTCIceConnectionState) {
    this.iceConnectionState = state;
    this.oniceconnectionstatechange?.();
  }
  setConnection(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

class FakeSessionDescription {
  type: RTCSdpType;
  sdp: string;
  constructor(init: RTCSessionDescriptionInit) {
    this.type = init.type;
    this.sdp = init.sdp ?? '';
  }
}

let createPeer: PeerFactory;

beforeAll(async () => {
  // The browser's classes, as vendor/webrtc-polyfill-browser hands them to simple-peer on import.
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('RTCSessionDescription', FakeSessionDescription);
  vi.stubGlobal('RTCIceCandidate', class {});
  ({ createPeer } = await import('./restartable-peer'));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

function peerOf(initiator: boolean) {
  const signals: VideoSignal[] = [];
  const ice: string[] = [];
  const errors: string[] = [];
  const handlers: PeerHandlers = {
    onSignal: (signal) => signals.push(signal),
    onStream: () => {},
    onConnect: () => {},
    onData: () => {},
    onIceState: (state) => ice.push(state),
    onError: (message) => errors.push(message),
    onClose: () => {},
  };
  const stream = { getTracks: () => [] } as unknown as MediaStream;
  const peer = createPeer({ initiator, stream, iceServers: [] }, handlers);
  const pc = FakePeerConnection.last as FakePeerConnection;
  return { peer, pc, signals, ice, errors };
}

const offers = (signals: VideoSignal[]) =>
  signals.filter((signal): signal is Extract<VideoSignal, { sdp: string }> => signal.type === 'offer');

describe('the restartable peer (simple-peer with ICE restarts)', () => {
  it('keeps the peer when ICE or the connection fails, and tells the session', async () => {
    const { peer, pc, ice, errors } = peerOf(true);
    await vi.waitFor(() => expect(pc.localDescription?.type).toBe('offer'));
    pc.setIce('failed');
    pc.setConnection('failed');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ice).toContain('failed');
    expect(errors).toEqual([]); // simple-peer alone would destroy the peer with "Ice connection failed."
    expect(pc.iceConnectionState).toBe('failed');
    peer.destroy();
  });

  it('restarts ICE from the caller: a new offer with fresh credentials', async () => {
    const { peer, pc, signals } = peerOf(true);
    await vi.waitFor(() => expect(offers(signals)).toHaveLength(1));
    peer.signal({ type: 'answer', sdp: 'v=0 answer' }); // the first negotiation completes
    await vi.waitFor(() => expect(pc.signalingState).toBe('stable'));
    pc.setIce('disconnected');
    peer.restartIce();
    await vi.waitFor(() => expect(offers(signals)).toHaveLength(2));
    expect(pc.restarts).toBe(1);
    expect(offers(signals)[1]?.sdp).toContain('ice-restart');
    peer.destroy();
  });

  it('lets the callee ask for the restart: a renegotiation request the caller honours as one', async () => {
    const callee = peerOf(false);
    callee.peer.signal({ type: 'offer', sdp: 'v=0 offer 1' });
    await vi.waitFor(() => expect(callee.signals.some((signal) => signal.type === 'answer')).toBe(true));
    callee.pc.setIce('disconnected');
    callee.peer.restartIce();
    await vi.waitFor(() => expect(callee.signals.at(-1)).toEqual({ type: 'renegotiate', renegotiate: true }));
    expect(callee.pc.restarts).toBe(0); // only the side that makes offers restarts

    const caller = peerOf(true);
    await vi.waitFor(() => expect(offers(caller.signals)).toHaveLength(1));
    caller.peer.signal({ type: 'answer', sdp: 'v=0 answer' });
    await vi.waitFor(() => expect(caller.pc.signalingState).toBe('stable'));
    caller.pc.setIce('disconnected');
    caller.peer.signal({ type: 'renegotiate', renegotiate: true });
    await vi.waitFor(() => expect(offers(caller.signals)).toHaveLength(2));
    expect(caller.pc.restarts).toBe(1);
    callee.peer.destroy();
    caller.peer.destroy();
  });
});
