// The video-call session (issue 13): the video-call statechart provided with its effects and driven by
// the signalling socket (contracts/video-calls.ts), the peer (@thaunknown/simple-peer, loaded when a call
// starts), the media devices and its own timers. The UI reads the actor and the media store (local and
// remote streams, devices) and sends the user's events; it never touches the socket or the peer.
//
// Every tab of a signed-in user runs one session (all of them ring); the server decides which tab
// takes a call (the first `answerCall`) and tells the others (`callCancelled` answeredElsewhere).
//
// Signals: the caller's peer emits its offer first; it goes out in `callUser`, and the candidates that
// follow wait until the server has acknowledged the call (before that it does not know the callId).
// A ringing tab keeps the caller's offer and candidates and feeds them to its peer when it accepts.
import type { Socket } from 'socket.io-client';
import { type Actor, createActor } from 'xstate';
import {
  type CallAcceptedEvent,
  type CallCancelledEvent,
  type CallDeclinedEvent,
  type CallEndedEvent,
  type CallUserEvent,
  ICE_SERVERS_PATH,
  iceServersResponseSchema,
  type SignalEvent,
  VIDEO_CALL_EVENTS,
  VIDEO_RING_TIMEOUT_MS,
  type VideoAck,
} from '../../../contracts/video-calls';
import type { VideoSignal } from '../../../contracts/video-signal';
import {
  type CallQuality,
  DECLINED_MESSAGE,
  NO_ANSWER_MESSAGE,
  type VideoCallEvent,
  type VideoPeer,
  videoCallMachine,
} from '../../machines/video-call.machine';
import { http } from '../http';
import { emitSignal } from '../signalling-socket';
import { qualityFromStats, type StatsSample } from './call-quality';
import { type LeftCallSummary, rememberLeftCall } from './left-call';
import { browserMedia, type MediaAccess, mediaErrorMessage } from './media';
import { loadPeerFactory, type PeerFactory, type VideoPeerLike } from './peer';
import { type PresenceListener, watchPresence } from './presence';

export type VideoCallActor = Actor<typeof videoCallMachine>;

/** What the session uses of a socket.io client socket (a fake in tests). */
export type VideoSocketLike = Pick<Socket, 'on' | 'off' | 'emit' | 'connected'>;

/** The media a view shows; replaced (never mutated) on every change, for useSyncExternalStore. */
export interface VideoMediaState {
  local: MediaStream | null;
  remote: MediaStream | null;
  /** The ringing card's preview (before accepting). */
  preview: MediaStream | null;
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  cameraId: string | null;
  microphoneId: string | null;
  /** The other side's microphone and camera, as its data channel says. */
  remoteMuted: boolean;
  remoteCameraOff: boolean;
  /** Why a device switch or a screen share did not happen (shown beside the controls). */
  notice: string | null;
  /** Bumped on every change: a device switch changes a stream's tracks in place. */
  version: number;
}

export interface VideoCallHandle {
  actor: VideoCallActor;
  media(): VideoMediaState;
  subscribeMedia(listener: () => void): () => void;
  /** Start a call with someone (from a "Video call" button). Ignored while a call is on. */
  call(peer: VideoPeer, options?: { audioOnly?: boolean }): void;
  /** Hang up (cancel while calling), at the session's clock. */
  hangup(): void;
  /** The ringing card's preview: camera and microphone as chosen, before accepting. */
  startPreview(): Promise<void>;
  stopPreview(): void;
  /** Pick a camera or microphone: in a call the track is replaced in place (no renegotiation). */
  selectDevice(kind: 'camera' | 'microphone', deviceId: string): Promise<void>;
  /** The people picker: hear these people's presence now and as it changes, until the returned stop. */
  watchPresence(userIds: readonly string[], listener: PresenceListener): () => void;
  stop(): void;
}

export interface VideoCallSessionOptions {
  selfId: string;
  socket: VideoSocketLike;
  /** test seams */
  media?: MediaAccess;
  peerFactory?: () => Promise<PeerFactory>;
  iceServers?: () => Promise<RTCIceServer[]>;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** SPEC §4: leaving a call reloads the page. */
  reload?: () => void;
  remember?: (summary: LeftCallSummary) => void;
  newCallId?: () => string;
  /** True while this tab is on another call (a voice call): a ring is then declined as busy. */
  isOnOtherCall?: () => boolean;
}

/** The server's answer to an event, or this message when it does not come. */
const ACK_TIMEOUT_MS = 10_000;
/** Peers that have not connected this long after the call was accepted give up. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** ICE down this long (restarts included) ends the call. */
export const RECONNECT_DEADLINE_MS = 30_000;
/** ICE `disconnected` often heals by itself within a couple of seconds; restart after this. */
export const ICE_RESTART_DELAY_MS = 2_000;
/** The caller's own limit, past the server's ring time, should the server's `noAnswer` be lost. */
const OUTGOING_GRACE_MS = 5_000;
const STATS_INTERVAL_MS = 2_000;

export const NO_SERVER_ANSWER_MESSAGE = 'The server did not answer. Check your connection and try again.';
export const CONNECT_FAILED_MESSAGE =
  'Could not connect the call. A firewall may block it: ask your administrator about a TURN server.';
export const CONNECTION_LOST_MESSAGE = 'The call ended: the connection was lost.';
export const PEER_LOAD_FAILED_MESSAGE = 'The video call could not start. Reload the page and try again.';
export const NO_VIDEO_TO_SHARE_MESSAGE = 'Screen sharing needs a call with video.';

export async function fetchIceServers(): Promise<RTCIceServer[]> {
  const response = await http.get(ICE_SERVERS_PATH, { silent: true });
  return iceServersResponseSchema.parse(response.data).data.iceServers as RTCIceServer[];
}

/** The data-channel message that tells the other side our microphone and camera. */
interface MediaStateMessage {
  type: 'media';
  muted: boolean;
  cameraOff: boolean;
}

interface CallResources {
  callId: string;
  stream: MediaStream | null;
  peer: VideoPeerLike | null;
  /** Signals waiting: the caller's before the server acknowledged the call, the callee's before it answered. */
  outbox: VideoSignal[];
  canSend: boolean;
  /** Signals for this tab's peer that came before it existed (the caller's offer and candidates). */
  inbox: VideoSignal[];
  screenTrack: MediaStreamTrack | null;
  cameraTrack: MediaStreamTrack | null;
  timers: Set<unknown>;
  statsTimer: unknown;
  lastStats: StatsSample | null;
  /** The peer reported `connect` (it may come before the server confirmed the answer). */
  peerConnected: boolean;
  /** While ICE is down: the restart and the deadline. */
  reconnect: { restart: unknown; deadline: unknown } | null;
  aborted: boolean;
}

export function startVideoCalls(options: VideoCallSessionOptions): VideoCallHandle {
  const { selfId, socket } = options;
  const media = options.media ?? browserMedia();
  const peerFactory = options.peerFactory ?? loadPeerFactory;
  const iceServers = options.iceServers ?? fetchIceServers;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((callback, ms) => globalThis.setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
  const reload = options.reload ?? (() => window.location.reload());
  const remember = options.remember ?? rememberLeftCall;
  const newCallId = options.newCallId ?? (() => crypto.randomUUID());
  const isOnOtherCall = options.isOnOtherCall ?? (() => false);

  let state: VideoMediaState = {
    local: null,
    remote: null,
    preview: null,
    cameras: [],
    microphones: [],
    cameraId: null,
    microphoneId: null,
    remoteMuted: false,
    remoteCameraOff: false,
    notice: null,
    version: 0,
  };
  const listeners = new Set<() => void>();
  function setMedia(patch: Partial<VideoMediaState>) {
    state = { ...state, ...patch, version: state.version + 1 };
    for (const listener of listeners) listener();
  }

  /** Calls' resources by callId: the current one, and the ringing ones this tab has kept signals for. */
  const rings = new Map<string, VideoSignal[]>();
  let current: CallResources | null = null;
  let stopped = false;

  function send(event: VideoCallEvent) {
    if (!stopped) actor.send(event);
  }
  const snapshot = () => actor.getSnapshot();
  const isCurrent = (callId: string) => snapshot().context.callId === callId;

  function emitAck<T extends object>(event: string, payload: unknown): Promise<VideoAck<T>> {
    return new Promise((resolve) => {
      const timer = setTimer(() => resolve({ ok: false, message: NO_SERVER_ANSWER_MESSAGE }), ACK_TIMEOUT_MS);
      emitSignal(socket, event, payload, (answer: VideoAck<T>) => {
        clearTimer(timer);
        resolve(answer);
      });
    });
  }
  function emitQuiet(event: string, payload: unknown) {
    void emitAck(event, payload).then((answer) => {
      if (!answer.ok) console.warn(`video call: ${event} refused:`, answer.message);
    });
  }

  function resourcesFor(callId: string): CallResources {
    if (current?.callId !== callId) {
      current = {
        callId,
        stream: null,
        peer: null,
        outbox: [],
        canSend: false,
        inbox: rings.get(callId) ?? [],
        screenTrack: null,
        cameraTrack: null,
        timers: new Set(),
        statsTimer: null,
        lastStats: null,
        reconnect: null,
        peerConnected: false,
        aborted: false,
      };
      rings.delete(callId);
    }
    return current;
  }

  function timer(call: CallResources, ms: number, callback: () => void) {
    const handle = setTimer(() => {
      call.timers.delete(handle);
      if (!call.aborted) callback();
    }, ms);
    call.timers.add(handle);
    return handle;
  }
  function cancelTimer(call: CallResources, handle: unknown) {
    clearTimer(handle);
    call.timers.delete(handle);
  }

  function release(call: CallResources | null) {
    if (!call) return;
    call.aborted = true;
    for (const handle of call.timers) clearTimer(handle);
    call.timers.clear();
    if (call.statsTimer !== null) clearTimer(call.statsTimer);
    call.peer?.destroy();
    call.screenTrack?.stop();
    for (const track of call.stream?.getTracks() ?? []) track.stop();
    if (current === call) current = null;
    setMedia({ local: null, remote: null, remoteMuted: false, remoteCameraOff: false, notice: null });
  }

  function stopPreviewTracks() {
    for (const track of state.preview?.getTracks() ?? []) track.stop();
    if (state.preview) setMedia({ preview: null });
  }

  function constraints(audioOnly: boolean): MediaStreamConstraints {
    return {
      audio: state.microphoneId ? { deviceId: { exact: state.microphoneId } } : true,
      video: audioOnly ? false : state.cameraId ? { deviceId: { exact: state.cameraId } } : true,
    };
  }

  async function refreshDevices() {
    try {
      const devices = await media.enumerateDevices();
      setMedia({
        cameras: devices.filter((device) => device.kind === 'videoinput'),
        microphones: devices.filter((device) => device.kind === 'audioinput'),
      });
    } catch {
      // No device list (an old browser): the pickers stay empty, the defaults are used.
    }
  }

  /** Camera and microphone for a call: the preview's when it matches, otherwise new ones. */
  async function acquire(call: CallResources, audioOnly: boolean): Promise<MediaStream | null> {
    const preview = state.preview;
    if (preview && (!audioOnly || preview.getVideoTracks().length === 0)) {
      setMedia({ preview: null });
      call.stream = preview;
    } else {
      stopPreviewTracks();
      try {
        call.stream = await media.getUserMedia(constraints(audioOnly));
      } catch (error) {
        if (!call.aborted)
          send({ type: 'videoCall.mediaRefused', message: mediaErrorMessage(error, audioOnly) });
        return null;
      }
    }
    if (call.aborted) {
      for (const track of call.stream.getTracks()) track.stop();
      return null;
    }
    call.cameraTrack = call.stream.getVideoTracks()[0] ?? null;
    setMedia({ local: call.stream });
    void refreshDevices(); // labels are known once a permission was given
    return call.stream;
  }

  function sendSignal(call: CallResources, signal: VideoSignal) {
    if (!call.canSend) {
      call.outbox.push(signal);
      return;
    }
    emitQuiet(VIDEO_CALL_EVENTS.signal, { callId: call.callId, signal });
  }
  function flushOutbox(call: CallResources) {
    call.canSend = true;
    const waiting = call.outbox;
    call.outbox = [];
    for (const signal of waiting) sendSignal(call, signal);
  }

  function tellMediaState(call: CallResources) {
    const { muted, cameraOff } = snapshot().context;
    call.peer?.send(JSON.stringify({ type: 'media', muted, cameraOff } satisfies MediaStateMessage));
  }

  function startStats(call: CallResources) {
    const sample = () => {
      call.statsTimer = setTimer(async () => {
        if (call.aborted || !call.peer) return;
        try {
          const report = await call.peer.getStats();
          const { quality, sample: next } = qualityFromStats(report, call.lastStats);
          call.lastStats = next;
          if (!call.aborted && quality !== snapshot().context.quality)
            send({ type: 'videoCall.quality', quality });
        } catch {
          // A peer closing under getStats: the next sample (if any) tries again.
        }
        if (!call.aborted) sample();
      }, STATS_INTERVAL_MS);
    };
    sample();
  }

  function markConnectedIfUp(call: CallResources) {
    if (!call.peerConnected || call.aborted || snapshot().value !== 'connecting') return;
    send({ type: 'videoCall.connected', at: now() });
    startStats(call);
  }

  /** The ICE servers, asked once per few minutes (minted TURN credentials last an hour by default). */
  let iceCache: { at: number; servers: Promise<RTCIceServer[]> } | null = null;
  const ICE_CACHE_MS = 5 * 60_000;
  function currentIceServers(): Promise<RTCIceServer[]> {
    if (!iceCache || now() - iceCache.at > ICE_CACHE_MS) {
      const servers = iceServers().catch(() => {
        iceCache = null; // a failed fetch is tried again on the next call
        return [] as RTCIceServer[];
      });
      iceCache = { at: now(), servers };
    }
    return iceCache.servers;
  }

  /** The peer library and the ICE servers, loaded while the camera starts (not after it). */
  function loadPeerParts(): Promise<[PeerFactory, RTCIceServer[]]> {
    const parts = Promise.all([peerFactory(), currentIceServers()]);
    parts.catch(() => {}); // awaited (and reported) only once the camera is there
    return parts;
  }

  async function createPeer(
    call: CallResources,
    initiator: boolean,
    stream: MediaStream,
    parts: Promise<[PeerFactory, RTCIceServer[]]>,
  ) {
    let factory: PeerFactory;
    let servers: RTCIceServer[];
    try {
      [factory, servers] = await parts;
    } catch (error) {
      // The peer's chunk did not load (a deploy replaced it, the network dropped).
      console.error('video call: the peer could not be loaded', error);
      if (!call.aborted) send({ type: 'videoCall.failed', message: PEER_LOAD_FAILED_MESSAGE, at: now() });
      return null;
    }
    if (call.aborted) return null;
    const peer = factory(
      { initiator, stream, iceServers: servers },
      {
        onSignal: (signal) => {
          if (call.aborted) return;
          if (initiator && signal.type === 'offer' && !call.canSend && call.outbox.length === 0) {
            call.outbox.push(signal); // the first offer: callUser carries it
            offerReady?.(signal);
            return;
          }
          if (!initiator && signal.type === 'answer' && !call.canSend && answerReady) {
            answerReady(signal);
            return;
          }
          sendSignal(call, signal);
        },
        onStream: (remote) => {
          if (!call.aborted) setMedia({ remote });
        },
        onConnect: () => {
          if (call.aborted) return;
          call.peerConnected = true;
          tellMediaState(call);
          // The callee's peer may connect before the server's answer to answerCall arrives: the
          // call counts as connected once it is accepted (markConnectedIfUp after `answered`).
          markConnectedIfUp(call);
        },
        onData: (text) => {
          try {
            const message = JSON.parse(text) as Partial<MediaStateMessage>;
            if (message.type === 'media')
              setMedia({ remoteMuted: message.muted === true, remoteCameraOff: message.cameraOff === true });
          } catch {
            // Not ours: ignored.
          }
        },
        onIceState: (ice) => {
          if (call.aborted) return;
          if (ice === 'disconnected' || ice === 'failed') {
            if (snapshot().value !== 'inCall') return;
            if (!call.reconnect) {
              send({ type: 'videoCall.reconnecting' });
              call.reconnect = {
                restart: timer(call, ice === 'failed' ? 0 : ICE_RESTART_DELAY_MS, () =>
                  call.peer?.restartIce(),
                ),
                deadline: timer(call, RECONNECT_DEADLINE_MS, () =>
                  send({ type: 'videoCall.failed', message: CONNECTION_LOST_MESSAGE, at: now() }),
                ),
              };
            } else if (ice === 'failed') {
              call.peer?.restartIce();
            }
          } else if ((ice === 'connected' || ice === 'completed') && call.reconnect) {
            cancelTimer(call, call.reconnect.restart);
            cancelTimer(call, call.reconnect.deadline);
            call.reconnect = null;
            send({ type: 'videoCall.reconnected' });
          }
        },
        onError: (message) => {
          if (call.aborted) return;
          console.error('video call: peer error', message);
          send({ type: 'videoCall.failed', message: CONNECT_FAILED_MESSAGE, at: now() });
        },
        onClose: () => {
          // The other side's peer closed: its `callEnded` (or its loss) ends the call here.
        },
      },
    );
    call.peer = peer;
    return peer;
  }

  // The first offer (caller) and the answer (callee) of the peer being prepared: they go out in
  // callUser / answerCall rather than as plain signals.
  let offerReady: ((offer: VideoSignal) => void) | null = null;
  let answerReady: ((answer: VideoSignal) => void) | null = null;

  async function prepareCall(callId: string, peerId: string, audioOnly: boolean) {
    const call = resourcesFor(callId);
    const parts = loadPeerParts();
    const stream = await acquire(call, audioOnly);
    if (!stream) return;
    const offer = new Promise<VideoSignal>((resolve) => {
      offerReady = resolve;
    });
    const peer = await createPeer(call, true, stream, parts);
    if (!peer) return;
    const signalData = await offer;
    offerReady = null;
    if (call.aborted) return;
    call.outbox.shift(); // the offer itself
    const answer = await emitAck(VIDEO_CALL_EVENTS.callUser, { callId, userToCall: peerId, signalData });
    if (call.aborted) {
      if (answer.ok) emitQuiet(VIDEO_CALL_EVENTS.hangup, { callId });
      return;
    }
    if (!answer.ok) {
      release(call);
      send({ type: 'videoCall.refused', reason: answer.reason ?? 'refused', message: answer.message });
      return;
    }
    flushOutbox(call);
    send({ type: 'videoCall.ringing' });
    timer(call, VIDEO_RING_TIMEOUT_MS + OUTGOING_GRACE_MS, () => {
      if (snapshot().value === 'outgoing')
        send({ type: 'videoCall.remoteEnded', reason: 'noAnswer', at: now() });
    });
  }

  async function prepareAnswer(callId: string, callerId: string, audioOnly: boolean) {
    const call = resourcesFor(callId);
    const parts = loadPeerParts();
    const stream = await acquire(call, audioOnly);
    if (!stream) return;
    const answerSignal = new Promise<VideoSignal>((resolve) => {
      answerReady = resolve;
    });
    const peer = await createPeer(call, false, stream, parts);
    if (!peer) return;
    for (const signal of call.inbox.splice(0)) peer.signal(signal);
    const signal = await answerSignal;
    answerReady = null;
    if (call.aborted) return;
    const answer = await emitAck(VIDEO_CALL_EVENTS.answerCall, { callId, to: callerId, signal });
    if (call.aborted) {
      // Cancelled while the answer was on its way: the server took it, so end the call it started.
      if (answer.ok) emitQuiet(VIDEO_CALL_EVENTS.hangup, { callId });
      return;
    }
    if (!answer.ok) {
      send({ type: 'videoCall.failed', message: answer.message, at: now() });
      return;
    }
    flushOutbox(call);
    send({ type: 'videoCall.answered' });
    armConnectTimeout(call);
    markConnectedIfUp(call);
  }

  function armConnectTimeout(call: CallResources) {
    timer(call, CONNECT_TIMEOUT_MS, () => {
      if (snapshot().value === 'connecting')
        send({ type: 'videoCall.failed', message: CONNECT_FAILED_MESSAGE, at: now() });
    });
  }

  async function startScreenShare() {
    const call = current;
    if (!call?.peer || !call.stream || !call.cameraTrack) {
      setMedia({ notice: NO_VIDEO_TO_SHARE_MESSAGE });
      return;
    }
    let screen: MediaStream;
    try {
      screen = await media.getDisplayMedia({ video: true, audio: false });
    } catch {
      return; // the user closed the browser's picker: nothing to say
    }
    const track = screen.getVideoTracks()[0];
    if (!track || call.aborted || !call.peer) {
      for (const t of screen.getTracks()) t.stop();
      return;
    }
    call.peer.replaceTrack(call.cameraTrack, track, call.stream);
    call.screenTrack = track;
    // The browser's own "Stop sharing" bar ends the track.
    track.addEventListener('ended', () => {
      if (call.screenTrack === track) send({ type: 'videoCall.shareStopped' });
    });
    setMedia({ local: new MediaStream([track, ...call.stream.getAudioTracks()]) });
    send({ type: 'videoCall.shareStarted' });
  }

  /** The camera's track back where the screen's was (the machine already counts the share as over). */
  function stopScreenShare() {
    const call = current;
    if (!call?.screenTrack || !call.stream || !call.cameraTrack) return;
    call.peer?.replaceTrack(call.screenTrack, call.cameraTrack, call.stream);
    call.screenTrack.stop();
    call.screenTrack = null;
    setMedia({ local: call.stream });
  }

  const machine = videoCallMachine.provide({
    actions: {
      prepareCall: (_, params) => {
        void prepareCall(params.callId, params.peerId, params.audioOnly);
      },
      prepareAnswer: (_, params) => {
        void prepareAnswer(params.callId, params.callerId, params.audioOnly);
      },
      sendDecline: (_, params) => emitQuiet(VIDEO_CALL_EVENTS.decline, params),
      sendHangup: (_, params) => emitQuiet(VIDEO_CALL_EVENTS.hangup, { callId: params.callId }),
      sendConnected: (_, params) => emitQuiet(VIDEO_CALL_EVENTS.connected, { callId: params.callId }),
      releaseMedia: (_, params) => {
        if (params.callId === null || current?.callId === params.callId) release(current);
        stopPreviewTracks();
        if (params.callId) rings.delete(params.callId);
      },
      setMicrophone: (_, { enabled }) => {
        for (const track of current?.stream?.getAudioTracks() ?? []) track.enabled = enabled;
        if (current) queueMicrotask(() => current && tellMediaState(current));
      },
      setCamera: (_, { enabled }) => {
        if (current?.cameraTrack) current.cameraTrack.enabled = enabled;
        if (current) queueMicrotask(() => current && tellMediaState(current));
      },
      startScreenShare: () => {
        void startScreenShare();
      },
      stopScreenShare: () => stopScreenShare(),
      leaveCall: (_, summary) => {
        remember(summary);
        release(current);
        stopPreviewTracks();
        reload();
      },
    },
  });
  const actor: VideoCallActor = createActor(machine, { input: { selfId } });

  // --- socket events -------------------------------------------------------------------------------
  const onCallUser = (event: CallUserEvent) => {
    if (event.userToCall !== selfId) return;
    const peer: VideoPeer = { id: event.from, name: event.name, avatarUrl: event.avatarUrl };
    if (isOnOtherCall()) {
      emitQuiet(VIDEO_CALL_EVENTS.decline, { callId: event.callId, busy: true });
      return;
    }
    rings.set(event.callId, [event.signalData]);
    send({ type: 'videoCall.incoming', callId: event.callId, peer });
    // Declined as busy (or ignored in glare): its signals are not kept.
    if (!isCurrent(event.callId)) rings.delete(event.callId);
  };
  const onCallAccepted = (event: CallAcceptedEvent) => {
    if (!isCurrent(event.callId) || snapshot().value !== 'outgoing') return;
    current?.peer?.signal(event.signal);
    send({ type: 'videoCall.accepted' });
    if (current) armConnectTimeout(current);
  };
  const onSignal = (event: SignalEvent) => {
    const ring = rings.get(event.callId);
    if (ring) {
      ring.push(event.signal);
      return;
    }
    if (!current || current.callId !== event.callId) return;
    if (current.peer) current.peer.signal(event.signal);
    else current.inbox.push(event.signal);
  };
  const onDeclined = (event: CallDeclinedEvent) => {
    if (!isCurrent(event.callId)) return;
    send({ type: 'videoCall.declined', message: DECLINED_MESSAGE(snapshot().context.peer?.name ?? '') });
  };
  const onCancelled = (event: CallCancelledEvent) => {
    rings.delete(event.callId);
    if (isCurrent(event.callId)) send({ type: 'videoCall.cancelled', reason: event.reason });
  };
  const onEnded = (event: CallEndedEvent) => {
    if (!isCurrent(event.callId)) return;
    const name = snapshot().context.peer?.name ?? '';
    send({
      type: 'videoCall.remoteEnded',
      reason: event.reason,
      at: now(),
      ...(event.reason === 'noAnswer' ? { message: NO_ANSWER_MESSAGE(name) } : {}),
    });
  };
  /** After a reconnect of the signalling socket: tell the server this tab still holds its call. */
  const onConnect = () => {
    const { value, context } = snapshot();
    if (!context.callId || !['outgoing', 'connecting', 'inCall'].includes(String(value))) return;
    const callId = context.callId;
    void emitAck(VIDEO_CALL_EVENTS.rejoin, { callId }).then((answer) => {
      if (!answer.ok && isCurrent(callId))
        send({ type: 'videoCall.remoteEnded', reason: 'lost', at: now(), message: answer.message });
    });
  };

  const socketListeners: [string, (...args: never[]) => void][] = [
    [VIDEO_CALL_EVENTS.callUser, onCallUser],
    [VIDEO_CALL_EVENTS.callAccepted, onCallAccepted],
    [VIDEO_CALL_EVENTS.signal, onSignal],
    [VIDEO_CALL_EVENTS.callDeclined, onDeclined],
    [VIDEO_CALL_EVENTS.callCancelled, onCancelled],
    [VIDEO_CALL_EVENTS.callEnded, onEnded],
    ['connect', onConnect],
  ];
  for (const [event, listener] of socketListeners) socket.on(event, listener as (...args: unknown[]) => void);
  actor.start();

  return {
    actor,
    media: () => state,
    subscribeMedia(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    call(peer, callOptions) {
      if (snapshot().value !== 'idle') return;
      send({
        type: 'videoCall.start',
        callId: newCallId(),
        peer,
        audioOnly: callOptions?.audioOnly ?? false,
      });
    },
    hangup() {
      send({ type: 'videoCall.hangup', at: now() });
    },
    async startPreview() {
      if (state.preview) return;
      try {
        const preview = await media.getUserMedia(constraints(false));
        if (snapshot().value !== 'incoming' && snapshot().value !== 'mediaRefused') {
          for (const track of preview.getTracks()) track.stop();
          return;
        }
        setMedia({ preview, notice: null });
        void refreshDevices();
      } catch (error) {
        setMedia({ notice: mediaErrorMessage(error, false) });
      }
    },
    stopPreview: stopPreviewTracks,
    async selectDevice(kind, deviceId) {
      setMedia(kind === 'camera' ? { cameraId: deviceId } : { microphoneId: deviceId });
      const call = current;
      const stream = call?.stream ?? state.preview;
      if (!stream) return;
      const old = kind === 'camera' ? stream.getVideoTracks()[0] : stream.getAudioTracks()[0];
      if (!old) return;
      let fresh: MediaStreamTrack | undefined;
      try {
        const got = await media.getUserMedia(
          kind === 'camera'
            ? { video: { deviceId: { exact: deviceId } } }
            : { audio: { deviceId: { exact: deviceId } } },
        );
        fresh = kind === 'camera' ? got.getVideoTracks()[0] : got.getAudioTracks()[0];
      } catch (error) {
        setMedia({ notice: mediaErrorMessage(error, kind === 'microphone') });
        return;
      }
      if (!fresh) return;
      fresh.enabled = old.enabled; // muted stays muted, a camera turned off stays off
      // In a call the sender's track is replaced in place: no renegotiation, the other side sees no gap.
      // While the screen is shared the camera track is not being sent: it is swapped back on stop.
      if (call?.peer && !(kind === 'camera' && call.screenTrack)) call.peer.replaceTrack(old, fresh, stream);
      stream.removeTrack(old);
      stream.addTrack(fresh);
      old.stop();
      if (call && kind === 'camera') call.cameraTrack = fresh;
      setMedia({ notice: null });
    },
    watchPresence: (userIds, listener) => watchPresence(socket, userIds, listener),
    stop() {
      stopped = true;
      for (const [event, listener] of socketListeners)
        socket.off(event, listener as (...args: unknown[]) => void);
      const { value, context } = snapshot();
      // A tab going away (sign-out) hangs up what it holds; the server would end it after its grace anyway.
      if (context.callId && ['preparing', 'outgoing', 'connecting', 'inCall'].includes(String(value)))
        emitQuiet(VIDEO_CALL_EVENTS.hangup, { callId: context.callId });
      if (context.callId && value === 'incoming') rings.delete(context.callId);
      release(current);
      stopPreviewTracks();
      actor.stop();
    },
  };
}

export type { CallQuality };
