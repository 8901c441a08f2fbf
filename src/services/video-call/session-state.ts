// The video-call session's explicit state (video-call-session.ts): the options with their defaults,
// the statechart's actor, the media a view shows, and the calls' resources. Every step of the session
// (local-media.ts, peer-link.ts, call-setup.ts, socket-events.ts) reads and moves only this.

import type { Actor } from 'xstate';
import type { VideoAck } from '../../../contracts/video-calls';
import type { VideoSignal } from '../../../contracts/video-signal';
import type { VideoCallEvent, videoCallMachine } from '../../machines/video-call.machine';
import type { LeasedSocket } from '../shared-signalling';
import { emitSignal } from '../signalling-socket';
import type { StatsSample } from './call-quality';
import type { LeftCallSummary } from './left-call';
import type { MediaAccess } from './media';
import type { PeerFactory, VideoPeerLike } from './peer-types';

export type VideoCallActor = Actor<typeof videoCallMachine>;

/** What the session uses of a socket.io client socket (a fake in tests). */
export type VideoSocketLike = Pick<LeasedSocket, 'on' | 'off' | 'emit' | 'connected'>;

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
export const NO_SERVER_ANSWER_MESSAGE = 'The server did not answer. Check your connection and try again.';

/** One call's resources: its media, its peer, the signals waiting, its timers. */
export interface CallResources {
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

/** The options' seams, each with its default. */
export type SessionSeams = Required<Omit<VideoCallSessionOptions, 'selfId' | 'socket'>>;

export interface Session extends SessionSeams {
  selfId: string;
  socket: VideoSocketLike;
  actor: VideoCallActor;
  mediaState: VideoMediaState;
  mediaListeners: Set<() => void>;
  /** The signals kept for ringing calls by callId (fed to the peer once this tab accepts). */
  rings: Map<string, VideoSignal[]>;
  current: CallResources | null;
  stopped: boolean;
  // The first offer (caller) and the answer (callee) of the peer being prepared: they go out in
  // callUser / answerCall rather than as plain signals.
  offerReady: ((offer: VideoSignal) => void) | null;
  answerReady: ((answer: VideoSignal) => void) | null;
  /** The ICE servers, asked once per few minutes (peer-link.ts). */
  iceCache: { at: number; servers: Promise<RTCIceServer[]> } | null;
}

export const initialMediaState: VideoMediaState = {
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

export function setMedia(session: Session, patch: Partial<VideoMediaState>) {
  session.mediaState = { ...session.mediaState, ...patch, version: session.mediaState.version + 1 };
  for (const listener of session.mediaListeners) listener();
}

export function send(session: Session, event: VideoCallEvent) {
  if (!session.stopped) session.actor.send(event);
}
export const snapshot = (session: Session) => session.actor.getSnapshot();
export const isCurrent = (session: Session, callId: string) => snapshot(session).context.callId === callId;

export function emitAck<T extends object>(
  session: Session,
  event: string,
  payload: unknown,
): Promise<VideoAck<T>> {
  return new Promise((resolve) => {
    const timer = session.setTimer(
      () => resolve({ ok: false, message: NO_SERVER_ANSWER_MESSAGE }),
      ACK_TIMEOUT_MS,
    );
    emitSignal(session.socket, event, payload, (answer: VideoAck<T>) => {
      session.clearTimer(timer);
      resolve(answer);
    });
  });
}

export function emitQuiet(session: Session, event: string, payload: unknown) {
  void emitAck(session, event, payload).then((answer) => {
    if (!answer.ok) console.warn(`video call: ${event} refused:`, answer.message);
  });
}
