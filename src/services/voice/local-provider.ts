// The embedded local voice provider (issue 6): calls between signed-in users of this installation,
// audio over a plain RTCPeerConnection, offers/answers/ICE relayed by the server's voice signalling
// (contracts/voice-signalling.ts; server/modules/voice/local-signalling.ts). It holds a lease on the
// tab's one signalling socket (shared-signalling.ts), which the video calls use too.
//
// ICE trickles (`voice:ice`): every event after the dial needs the call ticket, so the caller buffers
// its own candidates until the dial's acknowledgement brings the ticket, and either side buffers the
// other's candidates until the remote description is set.
import type { VoiceToken } from '../../../contracts/calls';
import {
  type AcceptedCallEvent,
  type Ack,
  CALLEE_BUSY_MESSAGE,
  CALLEE_UNAVAILABLE_MESSAGE,
  type EndedCallEvent,
  type IceCandidate,
  type IncomingCallEvent,
  isNoSuchNumberMessage,
  type RemoteIceEvent,
  type SessionDescription,
  type UnregisteredEvent,
  VOICE_EVENTS,
} from '../../../contracts/voice-signalling';
import { type LeasedSocket, type SignallingLease, sharedSignalling } from '../shared-signalling';
import { emitSignal } from '../signalling-socket';
import {
  Emitter,
  errorMessage,
  type RemoteEndReason,
  type VoiceCall,
  type VoiceCallEvents,
  type VoiceDeviceEvents,
  type VoiceProviderDevice,
} from './voice-provider';

/** What the provider uses of a socket.io client socket (a fake in tests). */
export type SignallingSocketLike = Pick<LeasedSocket, 'on' | 'off' | 'emit' | 'connected'> & {
  active?: boolean;
};

/** What the provider uses of RTCPeerConnection (jsdom has none; tests fake it). */
export type PeerConnectionLike = Pick<
  RTCPeerConnection,
  | 'addTrack'
  | 'createOffer'
  | 'createAnswer'
  | 'setLocalDescription'
  | 'setRemoteDescription'
  | 'addIceCandidate'
  | 'close'
  | 'addEventListener'
  | 'iceConnectionState'
  | 'localDescription'
  | 'remoteDescription'
>;

export interface LocalProviderOptions {
  /** The signalling socket; by default a lease on the tab's shared one (released by destroy). */
  socket?: SignallingSocketLike;
  createPeerConnection?: (configuration: RTCConfiguration) => PeerConnectionLike;
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** Where the remote audio element goes (document.body). */
  audioParent?: () => HTMLElement | null;
  /** Empty on loopback / one LAN; STUN/TURN servers for anything wider. */
  iceServers?: RTCIceServer[];
  newCallSid?: () => string;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Dial answers that mean "rang no one": the call ends as not picked up, not as an error, and says why
 * (a number nobody has is not in service; its owner may just be away). Null for a real failure.
 */
function unreachableReason(message: string): 'notInService' | 'unavailable' | 'rejected' | null {
  if (isNoSuchNumberMessage(message)) return 'notInService';
  // On a video call: as a busy voice line, which rejects the call ("Call Rejected").
  if (message === CALLEE_BUSY_MESSAGE) return 'rejected';
  return message === CALLEE_UNAVAILABLE_MESSAGE ? 'unavailable' : null;
}

export const ICE_FAILED_MESSAGE = 'The call lost its audio connection.';
export const SIGNALLING_LOST_MESSAGE = 'The call ended: the connection to the server was lost.';

const DEFAULT_ICE_SERVERS: RTCIceServer[] = [];
/** Ask for a new token this long before the current one expires (at most half its lifetime). */
const TOKEN_REFRESH_LEAD_MS = 60_000;

export function createLocalProvider(
  token: VoiceToken,
  options: LocalProviderOptions = {},
): VoiceProviderDevice {
  const lease = options.socket ? null : sharedSignalling.acquire();
  const socket: SignallingSocketLike = options.socket ?? (lease as SignallingLease).socket;
  const createPeerConnection =
    options.createPeerConnection ?? ((configuration) => new RTCPeerConnection(configuration));
  const getUserMedia =
    options.getUserMedia ?? ((constraints) => navigator.mediaDevices.getUserMedia(constraints));
  const audioParent = options.audioParent ?? (() => document.body);
  const newCallSid = options.newCallSid ?? (() => crypto.randomUUID());
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((callback, ms) => globalThis.setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
  const iceServers = options.iceServers ?? DEFAULT_ICE_SERVERS;

  const events = new Emitter<VoiceDeviceEvents>();
  const calls = new Map<string, LocalCall>();
  let currentToken = token.token;
  let wantRegistered = false;
  let destroyed = false;
  let tokenTimer: unknown = null;
  /** register() calls waiting for the next registration's answer. */
  let waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];

  function scheduleTokenRefresh(expiresAt: number) {
    if (tokenTimer !== null) clearTimer(tokenTimer);
    const lifetime = Math.max(0, expiresAt - now());
    tokenTimer = setTimer(
      () => {
        tokenTimer = null;
        if (!destroyed) events.emit('tokenWillExpire');
      },
      Math.max(0, lifetime - Math.min(TOKEN_REFRESH_LEAD_MS, lifetime / 2)),
    );
  }
  scheduleTokenRefresh(token.expiresAt);

  function emitAck<T extends object>(event: string, payload: unknown): Promise<Ack<T>> {
    return new Promise((resolve) => emitSignal(socket, event, payload, (answer: Ack<T>) => resolve(answer)));
  }

  function sendRegistration() {
    emitAck(VOICE_EVENTS.register, { token: currentToken }).then((answer) => {
      if (destroyed || !wantRegistered) return;
      const settled = waiting;
      waiting = [];
      if (answer.ok) {
        for (const waiter of settled) waiter.resolve();
        events.emit('registered');
      } else if (settled.length > 0) {
        for (const waiter of settled) waiter.reject(new Error(answer.message));
      } else {
        // A re-registration nobody awaits (after a reconnect): a device error.
        events.emit('error', answer.message);
      }
    });
  }

  // --- socket events -------------------------------------------------------------------------------
  const onConnect = () => {
    if (wantRegistered && !destroyed) sendRegistration();
  };
  const onDisconnect = () => {
    if (destroyed) return;
    // The server ended our calls with the socket (local-signalling endAll): end them here too.
    for (const call of [...calls.values()]) call.lostSignalling();
    if (wantRegistered) events.emit('offline');
  };
  const onConnectError = (error: Error) => {
    // socket.io retries on its own unless the server refused the connection (then `active` is false).
    if (!destroyed && wantRegistered && socket.active === false) events.emit('error', errorMessage(error));
  };
  const onUnregistered = (_event: UnregisteredEvent) => {
    wantRegistered = false;
    events.emit('unregistered');
  };
  const onIncoming = (event: IncomingCallEvent) => {
    if (destroyed || calls.has(event.callSid)) return;
    const call = new LocalCall('INCOMING', event.callSid, event.from, event.fromName);
    call.ticket = event.ticket;
    call.remoteOffer = event.offer;
    calls.set(event.callSid, call);
    events.emit('incoming', call);
  };
  const onAccepted = (event: AcceptedCallEvent) => {
    calls.get(event.callSid)?.remoteAnswered(event.answer);
  };
  const onEnded = (event: EndedCallEvent) => {
    calls.get(event.callSid)?.remoteEnded(event.reason);
  };
  const onRemoteIce = (event: RemoteIceEvent) => {
    calls.get(event.callSid)?.addRemoteCandidate(event.candidate);
  };

  const listeners: [string, (...args: never[]) => void][] = [
    ['connect', onConnect],
    ['disconnect', onDisconnect],
    ['connect_error', onConnectError],
    [VOICE_EVENTS.unregistered, onUnregistered],
    [VOICE_EVENTS.incoming, onIncoming],
    [VOICE_EVENTS.accepted, onAccepted],
    [VOICE_EVENTS.ended, onEnded],
    [VOICE_EVENTS.remoteIce, onRemoteIce],
  ];
  for (const [event, listener] of listeners) socket.on(event, listener as (...args: unknown[]) => void);

  // --- one call ------------------------------------------------------------------------------------
  class LocalCall implements VoiceCall {
    readonly events = new Emitter<VoiceCallEvents>();
    ticket: string | null = null;
    remoteOffer: SessionDescription | null = null;
    private pc: PeerConnectionLike | null = null;
    private stream: MediaStream | null = null;
    private audio: HTMLAudioElement | null = null;
    private remoteCandidates: IceCandidate[] = [];
    private localCandidates: IceCandidate[] = [];
    private answered = false;
    private reconnecting = false;
    /** Hung up before the dial's acknowledgement brought the ticket: hang up once it does. */
    private hangupPending = false;
    ended = false;

    constructor(
      readonly direction: 'INCOMING' | 'OUTGOING',
      readonly callSid: string,
      readonly from: string,
      readonly fromName: string,
    ) {}

    on<E extends keyof VoiceCallEvents>(event: E, handler: VoiceCallEvents[E]) {
      return this.events.on(event, handler);
    }

    /** Microphone, peer connection, remote audio element, ICE wiring. */
    async prepare(): Promise<PeerConnectionLike> {
      const stream = await getUserMedia({ audio: true });
      if (this.ended) {
        for (const track of stream.getTracks()) track.stop();
        throw new Error('The call has ended.');
      }
      this.stream = stream;
      const pc = createPeerConnection({ iceServers });
      this.pc = pc;
      for (const track of stream.getTracks()) pc.addTrack(track, stream);
      pc.addEventListener('icecandidate', (event) => {
        const { candidate } = event as RTCPeerConnectionIceEvent;
        // A null candidate only says gathering is complete.
        if (!candidate?.candidate || this.ended) return;
        const json = typeof candidate.toJSON === 'function' ? candidate.toJSON() : candidate;
        const payload: IceCandidate = {
          candidate: json.candidate ?? '',
          sdpMid: json.sdpMid ?? null,
          sdpMLineIndex: json.sdpMLineIndex ?? null,
          usernameFragment: json.usernameFragment ?? null,
        };
        if (this.ticket) this.sendCandidate(payload);
        else this.localCandidates.push(payload);
      });
      pc.addEventListener('track', (event) => {
        const { streams, track } = event as RTCTrackEvent;
        this.playRemote(streams[0] ?? new MediaStream([track]));
      });
      pc.addEventListener('iceconnectionstatechange', () => this.iceStateChanged());
      return pc;
    }

    private sendCandidate(candidate: IceCandidate) {
      emitAck(VOICE_EVENTS.ice, { ticket: this.ticket, candidate }).then((answer) => {
        if (!answer.ok && !this.ended) console.warn(`Voice ICE candidate not relayed: ${answer.message}`);
      });
    }

    private playRemote(stream: MediaStream) {
      if (this.ended) return;
      if (!this.audio) {
        const audio = document.createElement('audio');
        audio.autoplay = true;
        audio.dataset.voiceCall = this.callSid;
        audioParent()?.append(audio);
        this.audio = audio;
      }
      this.audio.srcObject = stream;
    }

    private iceStateChanged() {
      if (this.ended || !this.pc) return;
      const state = this.pc.iceConnectionState;
      if (state === 'disconnected' && !this.reconnecting) {
        this.reconnecting = true;
        this.events.emit('reconnecting');
      } else if ((state === 'connected' || state === 'completed') && this.reconnecting) {
        this.reconnecting = false;
        this.events.emit('reconnected');
      } else if (state === 'failed') {
        // Tell the other side; our side ends with the error.
        if (this.ticket) emitAck(VOICE_EVENTS.hangup, { ticket: this.ticket });
        this.finish();
        this.events.emit('error', ICE_FAILED_MESSAGE);
      }
    }

    private async applyRemote(description: SessionDescription) {
      const pc = this.pc;
      if (!pc) return;
      await pc.setRemoteDescription(description);
      const buffered = this.remoteCandidates;
      this.remoteCandidates = [];
      for (const candidate of buffered) await this.addCandidate(candidate);
    }

    private async addCandidate(candidate: IceCandidate) {
      try {
        await this.pc?.addIceCandidate(candidate);
      } catch (error) {
        console.warn('Voice ICE candidate refused', errorMessage(error));
      }
    }

    addRemoteCandidate(candidate: IceCandidate) {
      if (this.ended) return;
      if (this.pc?.remoteDescription) void this.addCandidate(candidate);
      else this.remoteCandidates.push(candidate);
    }

    /** Outgoing: create the offer and dial. Resolves once the dial is sent. */
    async dial(to: string): Promise<void> {
      const pc = await this.prepare();
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      if (this.ended) return;
      emitAck<{ ticket: string }>(VOICE_EVENTS.dial, {
        callSid: this.callSid,
        to,
        offer: { type: offer.type, sdp: offer.sdp },
      }).then((answer) => {
        if (this.ended && !this.hangupPending) return;
        if (!answer.ok) {
          const wasHungUp = this.hangupPending;
          this.finish();
          if (wasHungUp) return;
          const unreachable = unreachableReason(answer.message);
          if (unreachable) this.events.emit('remoteEnded', unreachable, answer.message);
          else this.events.emit('error', answer.message);
          return;
        }
        this.ticket = answer.ticket;
        if (this.hangupPending) {
          this.hangupPending = false;
          emitAck(VOICE_EVENTS.hangup, { ticket: answer.ticket });
          return;
        }
        const buffered = this.localCandidates;
        this.localCandidates = [];
        for (const candidate of buffered) this.sendCandidate(candidate);
      });
    }

    /** Outgoing: the callee accepted with its answer. */
    remoteAnswered(answer: SessionDescription) {
      if (this.ended || this.direction !== 'OUTGOING' || this.answered) return;
      this.answered = true;
      this.applyRemote(answer).then(
        () => {
          if (!this.ended) this.events.emit('answered', this.callSid);
        },
        (error: unknown) => this.fail(errorMessage(error)),
      );
    }

    remoteEnded(reason: RemoteEndReason) {
      if (this.ended) return;
      this.finish();
      this.events.emit('remoteEnded', reason);
    }

    /** The signalling socket dropped: the server ended the call on both sides. */
    lostSignalling() {
      if (this.ended) return;
      const reason: RemoteEndReason = this.answered
        ? 'hangup'
        : this.direction === 'INCOMING'
          ? 'cancelled'
          : 'unavailable';
      this.finish();
      this.events.emit('remoteEnded', reason, SIGNALLING_LOST_MESSAGE);
    }

    private fail(message: string) {
      if (this.ended) return;
      if (this.ticket) emitAck(VOICE_EVENTS.hangup, { ticket: this.ticket });
      this.finish();
      this.events.emit('error', message);
    }

    accept() {
      if (this.ended || this.direction !== 'INCOMING' || this.answered || !this.remoteOffer) return;
      this.answered = true;
      const offer = this.remoteOffer;
      (async () => {
        const pc = await this.prepare();
        await this.applyRemote(offer);
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        if (this.ended) return;
        const ack = await emitAck(VOICE_EVENTS.accept, {
          ticket: this.ticket,
          answer: { type: answer.type, sdp: answer.sdp },
        });
        if (!ack.ok) this.fail(ack.message);
      })().catch((error: unknown) => this.fail(errorMessage(error)));
    }

    reject() {
      this.endWith(VOICE_EVENTS.reject);
    }

    ignore() {
      this.endWith(VOICE_EVENTS.ignore);
    }

    hangup() {
      if (this.ended) return;
      if (!this.ticket && this.direction === 'OUTGOING') this.hangupPending = true;
      this.endWith(VOICE_EVENTS.hangup);
    }

    private endWith(event: string) {
      if (this.ended) return;
      if (this.ticket) emitAck(event, { ticket: this.ticket });
      this.finish();
    }

    mute(muted: boolean) {
      for (const track of this.stream?.getAudioTracks() ?? []) track.enabled = !muted;
      this.events.emit('muted', muted);
    }

    /** Always: stop the microphone, close the connection, remove the audio element. */
    finish() {
      if (this.ended) return;
      this.ended = true;
      calls.delete(this.callSid);
      for (const track of this.stream?.getTracks() ?? []) track.stop();
      this.stream = null;
      try {
        this.pc?.close();
      } catch (error) {
        console.warn('Voice peer connection did not close', errorMessage(error));
      }
      this.pc = null;
      if (this.audio) {
        this.audio.srcObject = null;
        this.audio.remove();
        this.audio = null;
      }
      this.remoteCandidates = [];
      this.localCandidates = [];
    }
  }

  return {
    register() {
      if (destroyed) return Promise.reject(new Error('The voice device was destroyed.'));
      wantRegistered = true;
      const registered = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      // Not connected yet: the `connect` handler registers.
      if (socket.connected) sendRegistration();
      return registered;
    },
    async dial(number) {
      if (destroyed) throw new Error('The voice device was destroyed.');
      const call = new LocalCall('OUTGOING', newCallSid(), number, '');
      calls.set(call.callSid, call);
      try {
        await call.dial(number);
      } catch (error) {
        call.finish();
        throw error;
      }
      return call;
    },
    updateToken(next) {
      currentToken = next;
      // The server's tokens live VOICE_TOKEN_TTL_SECONDS; the new one is asked for again before then.
      const decoded = expiryOf(next);
      scheduleTokenRefresh(decoded ?? now() + 3600_000);
    },
    destroy() {
      if (destroyed) return;
      for (const call of [...calls.values()]) call.hangup();
      destroyed = true;
      wantRegistered = false;
      for (const waiter of waiting) waiter.reject(new Error('The voice device was destroyed.'));
      waiting = [];
      if (tokenTimer !== null) clearTimer(tokenTimer);
      tokenTimer = null;
      for (const [event, listener] of listeners) socket.off(event, listener as (...args: unknown[]) => void);
      // Ends the server's calls of this socket and leaves the device room.
      if (socket.connected) emitSignal(socket, VOICE_EVENTS.unregister, {});
      // The video calls may still use the connection: only the last holder closes it.
      lease?.release();
      events.clear();
    },
    on(event, handler) {
      return events.on(event, handler);
    },
  };
}

/** The `exp` of a JWT voice token in epoch ms, or null when it is not one. */
export function expiryOf(token: string): number | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const claims = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}
