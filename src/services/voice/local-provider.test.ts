// The local provider's signalling logic with a fake socket and a fake RTCPeerConnection (jsdom has no
// WebRTC). The real media path runs in Chromium in the e2e tests.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CALLEE_UNAVAILABLE_MESSAGE,
  DEVICE_NOT_REGISTERED_MESSAGE,
  NO_SUCH_NUMBER_MESSAGE,
  VOICE_EVENTS,
} from '../../../contracts/voice-signalling';
import {
  createLocalProvider,
  ICE_FAILED_MESSAGE,
  type PeerConnectionLike,
  type SignallingSocketLike,
} from './local-provider';
import { FAKE_VOICE_TOKEN } from './testing-fakes';
import type { VoiceCall, VoiceProviderDevice } from './voice-provider';

type Ack = (answer: unknown) => void;
interface Sent {
  event: string;
  payload: Record<string, unknown>;
  ack: Ack;
}

class FakeSocket {
  connected = false;
  active = true;
  readonly sent: Sent[] = [];
  readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  disconnect = vi.fn();
  on(event: string, listener: (...args: unknown[]) => void) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)?.add(listener);
    return this;
  }
  off(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }
  emit(event: string, payload: Record<string, unknown>, ack: Ack) {
    this.sent.push({ event, payload, ack });
    return this;
  }
  /** An event from the server (or socket.io itself: connect, disconnect). */
  receive(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
  last(event: string): Sent {
    const found = this.sent.filter((sent) => sent.event === event).at(-1);
    if (!found) throw new Error(`${event} was not sent`);
    return found;
  }
  events() {
    return this.sent.map((sent) => sent.event);
  }
}

class FakeTrack {
  enabled = true;
  readonly kind = 'audio';
  stop = vi.fn();
}

class FakePeerConnection {
  readonly listeners = new Map<string, ((event: unknown) => void)[]>();
  readonly added: unknown[] = [];
  readonly tracks: unknown[] = [];
  readonly log: string[] = [];
  iceConnectionState: RTCIceConnectionState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  closed = false;
  constructor(readonly configuration: RTCConfiguration) {}
  addTrack(track: unknown) {
    this.tracks.push(track);
    return {} as RTCRtpSender;
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: 'offer-sdp' };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: 'answer-sdp' };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
    this.log.push(`local ${description.type}`);
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
    this.log.push(`remote ${description.type}`);
  }
  async addIceCandidate(candidate: { candidate: string }) {
    this.added.push(candidate);
    this.log.push(`candidate ${candidate.candidate}`);
  }
  close() {
    this.closed = true;
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  fire(type: string, event: unknown = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  gather(candidate: string) {
    this.fire('icecandidate', {
      candidate: {
        candidate,
        toJSON: () => ({ candidate, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'u' }),
      },
    });
  }
  setIceState(state: RTCIceConnectionState) {
    this.iceConnectionState = state;
    this.fire('iceconnectionstatechange');
  }
}

let socket: FakeSocket;
let pcs: FakePeerConnection[];
let tracks: FakeTrack[];
let getUserMedia: ReturnType<typeof vi.fn>;
let timers: { callback: () => void; ms: number }[];
let provider: VoiceProviderDevice;
let deviceEvents: string[];
let sids: number;

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const pc = (index = 0) => {
  const found = pcs[index];
  if (!found) throw new Error(`no peer connection ${index}`);
  return found;
};

beforeEach(() => {
  socket = new FakeSocket();
  pcs = [];
  tracks = [];
  timers = [];
  sids = 0;
  getUserMedia = vi.fn(async () => {
    const track = new FakeTrack();
    tracks.push(track);
    return { getTracks: () => [track], getAudioTracks: () => [track] } as unknown as MediaStream;
  });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  provider = createLocalProvider(
    { ...FAKE_VOICE_TOKEN, expiresAt: 1_000_000 + 3_600_000 },
    {
      socket: socket as unknown as SignallingSocketLike,
      createPeerConnection: (configuration) => {
        const created = new FakePeerConnection(configuration);
        pcs.push(created);
        return created as unknown as PeerConnectionLike;
      },
      getUserMedia: getUserMedia as unknown as (constraints: MediaStreamConstraints) => Promise<MediaStream>,
      newCallSid: () => `00000000-0000-4000-8000-00000000000${++sids}`,
      now: () => 1_000_000,
      setTimer: (callback, ms) => {
        timers.push({ callback, ms });
        return timers.length;
      },
      clearTimer: () => {},
    },
  );
  deviceEvents = [];
  provider.on('registered', () => deviceEvents.push('registered'));
  provider.on('unregistered', () => deviceEvents.push('unregistered'));
  provider.on('offline', () => deviceEvents.push('offline'));
  provider.on('error', (message) => deviceEvents.push(`error ${message}`));
  provider.on('tokenWillExpire', () => deviceEvents.push('tokenWillExpire'));
});

afterEach(() => {
  provider.destroy();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

async function registered() {
  const done = provider.register();
  socket.receive('connect');
  socket.last(VOICE_EVENTS.register).ack({ ok: true, phoneNumber: '+919000000001' });
  await done;
}

function watch(call: VoiceCall) {
  const seen: string[] = [];
  call.on('answered', (sid) => seen.push(`answered ${sid}`));
  call.on('remoteEnded', (reason, message) =>
    seen.push(`remoteEnded ${reason}${message ? ` ${message}` : ''}`),
  );
  call.on('reconnecting', () => seen.push('reconnecting'));
  call.on('reconnected', () => seen.push('reconnected'));
  call.on('error', (message) => seen.push(`error ${message}`));
  return seen;
}

function expectCleanedUp(index = 0) {
  expect(pc(index).closed).toBe(true);
  expect(tracks[index]?.stop).toHaveBeenCalled();
  expect(document.querySelector('audio')).toBeNull();
}

describe('local provider: the device', () => {
  it('registers with the voice token once connected; the ack resolves and reports registered', async () => {
    const done = provider.register();
    expect(socket.sent).toHaveLength(0);
    socket.receive('connect');
    expect(socket.last(VOICE_EVENTS.register).payload).toEqual({ token: FAKE_VOICE_TOKEN.token });
    socket.last(VOICE_EVENTS.register).ack({ ok: true, phoneNumber: '+919000000001' });
    await expect(done).resolves.toBeUndefined();
    expect(deviceEvents).toEqual(['registered']);
  });

  it('a refused registration rejects with the server message', async () => {
    socket.connected = true;
    const done = provider.register();
    socket.last(VOICE_EVENTS.register).ack({ ok: false, message: 'Voice token expired' });
    await expect(done).rejects.toThrow('Voice token expired');
    expect(deviceEvents).toEqual([]);
  });

  it('a dropped socket is offline; the reconnect registers again (with the newest token)', async () => {
    await registered();
    socket.receive('disconnect', 'transport close');
    expect(deviceEvents).toEqual(['registered', 'offline']);
    provider.updateToken('voice-token-2');
    socket.receive('connect');
    expect(socket.last(VOICE_EVENTS.register).payload).toEqual({ token: 'voice-token-2' });
    socket.last(VOICE_EVENTS.register).ack({ ok: true });
    await flush();
    expect(deviceEvents).toEqual(['registered', 'offline', 'registered']);
    socket.receive('disconnect', 'transport close');
    socket.receive('connect');
    socket.last(VOICE_EVENTS.register).ack({ ok: false, message: 'Voice token expired' });
    await flush();
    expect(deviceEvents.at(-1)).toBe('error Voice token expired');
  });

  it('another tab registering unregisters this device', async () => {
    await registered();
    socket.receive(VOICE_EVENTS.unregistered, {
      message: 'Your voice device was registered in another tab.',
    });
    expect(deviceEvents).toEqual(['registered', 'unregistered']);
    // No longer wanted: a reconnect does not register again.
    socket.receive('disconnect');
    socket.receive('connect');
    expect(socket.events().filter((event) => event === VOICE_EVENTS.register)).toHaveLength(1);
  });

  it('asks for a new token before the current one expires', () => {
    expect(timers[0]?.ms).toBe(3_600_000 - 60_000);
    timers[0]?.callback();
    expect(deviceEvents).toEqual(['tokenWillExpire']);
  });

  it('destroy unregisters and ends its calls', async () => {
    await registered();
    const call = await provider.dial('+919000000003');
    socket.last(VOICE_EVENTS.dial).ack({ ok: true, ticket: 'T1' });
    await flush();
    provider.destroy();
    expect(socket.events().slice(-2)).toEqual([VOICE_EVENTS.hangup, VOICE_EVENTS.unregister]);
    expect(call).toBeDefined();
    expectCleanedUp();
    // An injected socket is the caller's to close.
    expect(socket.disconnect).not.toHaveBeenCalled();
  });
});

describe('local provider: an outgoing call', () => {
  it('offers, trickles ICE with the ticket, applies the answer, plays the remote audio and ends cleanly', async () => {
    await registered();
    const call = await provider.dial('+919000000003');
    const seen = watch(call);
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(pc().tracks).toEqual([tracks[0]]);
    const dial = socket.last(VOICE_EVENTS.dial);
    expect(dial.payload).toEqual({
      callSid: '00000000-0000-4000-8000-000000000001',
      to: '+919000000003',
      offer: { type: 'offer', sdp: 'offer-sdp' },
    });
    expect(call).toMatchObject({ direction: 'OUTGOING', callSid: '00000000-0000-4000-8000-000000000001' });

    // Candidates gathered before the ticket are held, then sent with it.
    pc().gather('cand-1');
    expect(socket.events()).not.toContain(VOICE_EVENTS.ice);
    dial.ack({ ok: true, ticket: 'T1' });
    await flush();
    pc().gather('cand-2');
    const ice = socket.sent.filter((sent) => sent.event === VOICE_EVENTS.ice).map((sent) => sent.payload);
    expect(ice).toEqual([
      {
        ticket: 'T1',
        candidate: { candidate: 'cand-1', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'u' },
      },
      {
        ticket: 'T1',
        candidate: { candidate: 'cand-2', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'u' },
      },
    ]);

    // The callee's candidates wait for its answer.
    const callSid = call.callSid;
    socket.receive(VOICE_EVENTS.remoteIce, { callSid, candidate: { candidate: 'remote-1' } });
    expect(pc().added).toEqual([]);
    socket.receive(VOICE_EVENTS.accepted, { callSid, answer: { type: 'answer', sdp: 'answer-sdp' } });
    await flush();
    expect(pc().log).toEqual(['local offer', 'remote answer', 'candidate remote-1']);
    expect(seen).toEqual([`answered ${callSid}`]);
    socket.receive(VOICE_EVENTS.remoteIce, { callSid, candidate: { candidate: 'remote-2' } });
    await flush();
    expect(pc().added).toHaveLength(2);

    const remote = { id: 'remote-stream' } as unknown as MediaStream;
    pc().fire('track', { streams: [remote], track: {} });
    const audio = document.querySelector('audio');
    expect(audio?.autoplay).toBe(true);
    expect((audio as unknown as { srcObject: unknown }).srcObject).toBe(remote);

    call.mute(true);
    expect(tracks[0]?.enabled).toBe(false);
    call.mute(false);
    expect(tracks[0]?.enabled).toBe(true);

    pc().setIceState('disconnected');
    pc().setIceState('checking');
    pc().setIceState('connected');
    expect(seen.slice(1)).toEqual(['reconnecting', 'reconnected']);

    socket.receive(VOICE_EVENTS.ended, { callSid, reason: 'hangup' });
    expect(seen.at(-1)).toBe('remoteEnded hangup');
    expectCleanedUp();
  });

  it('a number no one owns ends as not in service, an away callee as unavailable; other refusals are errors', async () => {
    await registered();
    const first = watch(await provider.dial('+919000000099'));
    socket.last(VOICE_EVENTS.dial).ack({ ok: false, message: NO_SUCH_NUMBER_MESSAGE('+919000000099') });
    await flush();
    expect(first).toEqual([`remoteEnded notInService ${NO_SUCH_NUMBER_MESSAGE('+919000000099')}`]);
    expectCleanedUp(0);

    const second = watch(await provider.dial('+919000000003'));
    socket.last(VOICE_EVENTS.dial).ack({ ok: false, message: CALLEE_UNAVAILABLE_MESSAGE });
    await flush();
    expect(second).toEqual([`remoteEnded unavailable ${CALLEE_UNAVAILABLE_MESSAGE}`]);

    const third = watch(await provider.dial('+919000000003'));
    socket.last(VOICE_EVENTS.dial).ack({ ok: false, message: DEVICE_NOT_REGISTERED_MESSAGE });
    await flush();
    expect(third).toEqual([`error ${DEVICE_NOT_REGISTERED_MESSAGE}`]);
    expectCleanedUp(2);
  });

  it('the callee rejecting or ignoring ends it with that reason', async () => {
    await registered();
    const call = await provider.dial('+919000000003');
    const seen = watch(call);
    socket.last(VOICE_EVENTS.dial).ack({ ok: true, ticket: 'T1' });
    socket.receive(VOICE_EVENTS.ended, { callSid: call.callSid, reason: 'rejected' });
    expect(seen).toEqual(['remoteEnded rejected']);
    expectCleanedUp();
  });

  it('hanging up before the dial was acknowledged hangs up with the ticket once it comes', async () => {
    await registered();
    const call = await provider.dial('+919000000003');
    const seen = watch(call);
    call.hangup();
    expectCleanedUp();
    socket.last(VOICE_EVENTS.dial).ack({ ok: true, ticket: 'T1' });
    await flush();
    expect(socket.last(VOICE_EVENTS.hangup).payload).toEqual({ ticket: 'T1' });
    expect(seen).toEqual([]);
  });

  it('no microphone: dial rejects and nothing is sent', async () => {
    await registered();
    getUserMedia.mockRejectedValueOnce(new Error('Permission denied'));
    await expect(provider.dial('+919000000003')).rejects.toThrow('Permission denied');
    expect(socket.events()).not.toContain(VOICE_EVENTS.dial);
  });

  it('ICE failing ends the call with an error and tells the other side', async () => {
    await registered();
    const call = await provider.dial('+919000000003');
    const seen = watch(call);
    socket.last(VOICE_EVENTS.dial).ack({ ok: true, ticket: 'T1' });
    await flush();
    pc().setIceState('failed');
    expect(seen).toEqual([`error ${ICE_FAILED_MESSAGE}`]);
    expect(socket.last(VOICE_EVENTS.hangup).payload).toEqual({ ticket: 'T1' });
    expectCleanedUp();
  });

  it('losing the signalling socket ends an answered call as hung up', async () => {
    await registered();
    const call = await provider.dial('+919000000003');
    const seen = watch(call);
    socket.last(VOICE_EVENTS.dial).ack({ ok: true, ticket: 'T1' });
    socket.receive(VOICE_EVENTS.accepted, { callSid: call.callSid, answer: { type: 'answer', sdp: 'a' } });
    await flush();
    socket.receive('disconnect', 'transport close');
    expect(seen.at(-1)).toMatch(/^remoteEnded hangup /);
    expectCleanedUp();
  });
});

describe('local provider: an incoming call', () => {
  const incoming = {
    callSid: '11111111-1111-4111-8111-111111111111',
    ticket: 'T2',
    from: '+919000000003',
    fromName: 'Sam Seller',
    offer: { type: 'offer', sdp: 'offer-sdp' },
  };

  async function ring(): Promise<VoiceCall> {
    await registered();
    const calls: VoiceCall[] = [];
    provider.on('incoming', (call) => calls.push(call));
    socket.receive(VOICE_EVENTS.incoming, incoming);
    const call = calls[0];
    if (!call) throw new Error('no incoming call');
    return call;
  }

  it('rings with the caller; accept answers the offer (buffered ICE after it) and hang-up ends it', async () => {
    const call = await ring();
    expect(call).toMatchObject({
      direction: 'INCOMING',
      callSid: incoming.callSid,
      from: '+919000000003',
      fromName: 'Sam Seller',
    });
    // Nothing is opened before the call is accepted.
    expect(getUserMedia).not.toHaveBeenCalled();
    socket.receive(VOICE_EVENTS.remoteIce, {
      callSid: incoming.callSid,
      candidate: { candidate: 'caller-1' },
    });
    const seen = watch(call);
    call.accept();
    await flush();
    expect(pc().log).toEqual(['remote offer', 'candidate caller-1', 'local answer']);
    expect(socket.last(VOICE_EVENTS.accept).payload).toEqual({
      ticket: 'T2',
      answer: { type: 'answer', sdp: 'answer-sdp' },
    });
    socket.last(VOICE_EVENTS.accept).ack({ ok: true });
    pc().gather('callee-1');
    expect(socket.last(VOICE_EVENTS.ice).payload).toMatchObject({
      ticket: 'T2',
      candidate: { candidate: 'callee-1' },
    });
    // Our own accept is not an answer to report.
    expect(seen).toEqual([]);
    call.hangup();
    expect(socket.last(VOICE_EVENTS.hangup).payload).toEqual({ ticket: 'T2' });
    expectCleanedUp();
    // Late events of the ended call are ignored.
    socket.receive(VOICE_EVENTS.ended, { callSid: incoming.callSid, reason: 'hangup' });
    expect(seen).toEqual([]);
  });

  it('a refused accept (the caller gave up meanwhile) ends it with the error', async () => {
    const call = await ring();
    const seen = watch(call);
    call.accept();
    await flush();
    socket.last(VOICE_EVENTS.accept).ack({ ok: false, message: 'This call is not yours or has ended.' });
    await flush();
    expect(seen).toEqual(['error This call is not yours or has ended.']);
    expectCleanedUp();
  });

  it('reject and ignore send the ticket; the caller cancelling ends it as cancelled', async () => {
    const first = await ring();
    const later: VoiceCall[] = [];
    provider.on('incoming', (call) => later.push(call));
    first.reject();
    expect(socket.last(VOICE_EVENTS.reject).payload).toEqual({ ticket: 'T2' });

    socket.receive(VOICE_EVENTS.incoming, {
      ...incoming,
      callSid: '22222222-2222-4222-8222-222222222222',
      ticket: 'T3',
    });
    socket.receive(VOICE_EVENTS.incoming, {
      ...incoming,
      callSid: '33333333-3333-4333-8333-333333333333',
      ticket: 'T4',
    });
    const [ignored, cancelled] = later;
    if (!ignored || !cancelled) throw new Error('the calls did not ring');
    ignored.ignore();
    expect(socket.last(VOICE_EVENTS.ignore).payload).toEqual({ ticket: 'T3' });
    const seen = watch(cancelled);
    socket.receive(VOICE_EVENTS.ended, { callSid: cancelled.callSid, reason: 'cancelled' });
    expect(seen).toEqual(['remoteEnded cancelled']);
    // Nothing was opened for calls never accepted.
    expect(getUserMedia).not.toHaveBeenCalled();
  });
});
