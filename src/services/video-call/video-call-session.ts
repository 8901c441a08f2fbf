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
//
// The session's state is one object (session-state.ts) that named steps move: call-resources.ts (a
// call's resources and timers), local-media.ts (camera, microphone, screen), peer-link.ts (the peer
// and its signals), call-setup.ts (placing and answering) and socket-events.ts (the server's events).
// This file provides the statechart with those effects and hands the UI its handle.
import { createActor } from 'xstate';
import {
  ICE_SERVERS_PATH,
  iceServersResponseSchema,
  VIDEO_CALL_EVENTS,
} from '../../../contracts/video-calls';
import { type CallQuality, type VideoPeer, videoCallMachine } from '../../machines/video-call.machine';
import { http } from '../http';
import { release } from './call-resources';
import { prepareAnswer, prepareCall } from './call-setup';
import { rememberLeftCall } from './left-call';
import {
  selectDevice,
  startPreview,
  startScreenShare,
  stopPreviewTracks,
  stopScreenShare,
} from './local-media';
import { browserMedia } from './media';
import { loadPeerFactory } from './peer';
import { tellMediaState } from './peer-link';
import { type PresenceListener, watchPresence } from './presence';
import {
  emitQuiet,
  initialMediaState,
  type Session,
  type SessionSeams,
  send,
  snapshot,
  type VideoCallActor,
  type VideoCallSessionOptions,
  type VideoMediaState,
} from './session-state';
import { listenToSocket } from './socket-events';

export { CONNECT_TIMEOUT_MS } from './call-setup';
export { NO_VIDEO_TO_SHARE_MESSAGE } from './local-media';
export {
  CONNECT_FAILED_MESSAGE,
  CONNECTION_LOST_MESSAGE,
  ICE_RESTART_DELAY_MS,
  PEER_LOAD_FAILED_MESSAGE,
  RECONNECT_DEADLINE_MS,
} from './peer-link';
export {
  NO_SERVER_ANSWER_MESSAGE,
  type VideoCallActor,
  type VideoCallSessionOptions,
  type VideoMediaState,
  type VideoSocketLike,
} from './session-state';

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

export async function fetchIceServers(): Promise<RTCIceServer[]> {
  const response = await http.get(ICE_SERVERS_PATH, { silent: true });
  return iceServersResponseSchema.parse(response.data).data.iceServers as RTCIceServer[];
}

/** The options' seams with their defaults: the browser's media, timers, clock and page. */
function seamsOf(options: VideoCallSessionOptions): SessionSeams {
  return {
    media: options.media ?? browserMedia(),
    peerFactory: options.peerFactory ?? loadPeerFactory,
    iceServers: options.iceServers ?? fetchIceServers,
    now: options.now ?? Date.now,
    setTimer: options.setTimer ?? ((callback, ms) => globalThis.setTimeout(callback, ms)),
    clearTimer:
      options.clearTimer ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>)),
    reload: options.reload ?? (() => window.location.reload()),
    remember: options.remember ?? rememberLeftCall,
    newCallId: options.newCallId ?? (() => crypto.randomUUID()),
    isOnOtherCall: options.isOnOtherCall ?? (() => false),
  };
}

/** The statechart with this session's effects. */
function machineFor(session: Session) {
  const tellSoon = () => {
    if (session.current) queueMicrotask(() => session.current && tellMediaState(session, session.current));
  };
  return videoCallMachine.provide({
    actions: {
      prepareCall: (_, params) => {
        void prepareCall(session, params.callId, params.peerId, params.audioOnly);
      },
      prepareAnswer: (_, params) => {
        void prepareAnswer(session, params.callId, params.callerId, params.audioOnly);
      },
      sendDecline: (_, params) => emitQuiet(session, VIDEO_CALL_EVENTS.decline, params),
      sendHangup: (_, params) => emitQuiet(session, VIDEO_CALL_EVENTS.hangup, { callId: params.callId }),
      sendConnected: (_, params) =>
        emitQuiet(session, VIDEO_CALL_EVENTS.connected, { callId: params.callId }),
      releaseMedia: (_, params) => {
        if (params.callId === null || session.current?.callId === params.callId)
          release(session, session.current);
        stopPreviewTracks(session);
        if (params.callId) session.rings.delete(params.callId);
      },
      setMicrophone: (_, { enabled }) => {
        for (const track of session.current?.stream?.getAudioTracks() ?? []) track.enabled = enabled;
        tellSoon();
      },
      setCamera: (_, { enabled }) => {
        if (session.current?.cameraTrack) session.current.cameraTrack.enabled = enabled;
        tellSoon();
      },
      startScreenShare: () => {
        void startScreenShare(session);
      },
      stopScreenShare: () => stopScreenShare(session),
      leaveCall: (_, summary) => {
        session.remember(summary);
        release(session, session.current);
        stopPreviewTracks(session);
        session.reload();
      },
    },
  });
}

export function startVideoCalls(options: VideoCallSessionOptions): VideoCallHandle {
  const { selfId, socket } = options;
  const state: Omit<Session, 'actor'> & { actor?: VideoCallActor } = {
    selfId,
    socket,
    ...seamsOf(options),
    mediaState: initialMediaState,
    mediaListeners: new Set(),
    rings: new Map(),
    current: null,
    stopped: false,
    offerReady: null,
    answerReady: null,
    iceCache: null,
  };
  state.actor = createActor(machineFor(state as Session), { input: { selfId } });
  const session = state as Session;
  const { actor } = session;

  const stopListening = listenToSocket(session);
  actor.start();

  return {
    actor,
    media: () => session.mediaState,
    subscribeMedia(listener) {
      session.mediaListeners.add(listener);
      return () => session.mediaListeners.delete(listener);
    },
    call(peer, callOptions) {
      if (snapshot(session).value !== 'idle') return;
      send(session, {
        type: 'videoCall.start',
        callId: session.newCallId(),
        peer,
        audioOnly: callOptions?.audioOnly ?? false,
      });
    },
    hangup() {
      send(session, { type: 'videoCall.hangup', at: session.now() });
    },
    startPreview: () => startPreview(session),
    stopPreview: () => stopPreviewTracks(session),
    selectDevice: (kind, deviceId) => selectDevice(session, kind, deviceId),
    watchPresence: (userIds, listener) => watchPresence(socket, userIds, listener),
    stop() {
      session.stopped = true;
      stopListening();
      const { value, context } = snapshot(session);
      // A tab going away (sign-out) hangs up what it holds; the server would end it after its grace anyway.
      if (context.callId && ['preparing', 'outgoing', 'connecting', 'inCall'].includes(String(value)))
        emitQuiet(session, VIDEO_CALL_EVENTS.hangup, { callId: context.callId });
      if (context.callId && value === 'incoming') session.rings.delete(context.callId);
      release(session, session.current);
      stopPreviewTracks(session);
      actor.stop();
    },
  };
}

export type { CallQuality };
