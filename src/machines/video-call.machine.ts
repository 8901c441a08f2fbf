// The video-call statechart (issue 13; SPEC §4 "Video call": flags callAccepted and callEnded, leaving
// a call reloads the page). Pure (ARCHITECTURE.md "Statecharts"): no invoke, no after, no spawn. Every
// effect (camera and microphone, the peer, the signalling events, the page reload) is a named action
// with a no-op default that the adapter (src/services/video-call) provides; what the socket, the peer,
// the media devices and the adapter's timers report are namespaced `videoCall.*` events. Events that
// start or end a call carry `at` (epoch ms), so the call's times come from the events, not a clock.
//
// One call at a time. States (flat):
// - idle
// - preparing     caller: camera and microphone, the peer's offer, `callUser` sent, not yet answered.
// - outgoing      caller: the server rings the callee's tabs ("Calling …").
// - incoming      callee: this tab rings (the card never dismisses itself while it rings).
// - mediaRefused  the camera or microphone was refused: the message, and an audio-only call offered.
// - accepting     callee: camera and microphone, the peer's answer, `answerCall` sent.
// - connecting    both: accepted; the peers connect.
// - inCall        both: media flows. Muted, camera off, screen sharing, reconnecting and the measured
//                 quality are context, not states: they combine freely and none changes what ends a call.
// - ended         the call ended after it was accepted: the page reloads (SPEC §4), see `leaveCall`.
// - declined / notAnswered / busy / failed: a call that never started, told to the user until
//                 they close it (`videoCall.dismiss`).
//
// Choices the SPEC and the issue leave open:
// - Glare (both call each other at once): the server lets one call win by comparing user ids (the
//   lower id is polite and yields). The tabs follow the same rule: a polite caller that is rung by the
//   person it is calling drops its own call and takes theirs; an impolite one ignores their ring (the
//   server ends that call). Any other ring during a call is declined as busy.
// - A call that ends before it was accepted releases the camera and the peer itself (no reload): the
//   callee declining, nobody answering, the caller cancelling. Once accepted, every way out (hang-up,
//   the other side leaving, a failure) reloads the page, as SPEC §4 says.
import { assign, enqueueActions, setup } from 'xstate';
import type { CallRefusal, CancelReason, EndReason } from '../../contracts/video-calls';

export type VideoCallState =
  | 'idle'
  | 'preparing'
  | 'outgoing'
  | 'incoming'
  | 'mediaRefused'
  | 'accepting'
  | 'connecting'
  | 'inCall'
  | 'ended'
  | 'declined'
  | 'notAnswered'
  | 'busy'
  | 'failed';

export interface VideoPeer {
  id: string;
  name: string;
  avatarUrl: string | null;
}

/** Connection quality from getStats (the adapter measures it; the badge shows when it degrades). */
export type CallQuality = 'good' | 'poor' | 'bad';

/** Why an accepted call ended: the other side, this side, or a failure. */
export type LeaveReason = EndReason | 'self' | 'failed';

export interface VideoCallContext {
  /** The signed-in user's id: decides who is polite in glare. */
  selfId: string;
  callId: string | null;
  direction: 'outgoing' | 'incoming' | null;
  peer: VideoPeer | null;
  /** SPEC §4 flag: the call was accepted (by this tab, or the callee accepted ours). */
  callAccepted: boolean;
  /** Camera and microphone, or the microphone only (after a refused camera, or chosen). */
  audioOnly: boolean;
  connectedAt: number | null;
  endedAt: number | null;
  muted: boolean;
  cameraOff: boolean;
  sharing: boolean;
  reconnecting: boolean;
  quality: CallQuality;
  /** What the outcome states and mediaRefused tell the user. */
  message: string | null;
  /** Why the call ended (ended state). */
  leaveReason: LeaveReason | null;
}

export type VideoCallEvent =
  /** The user pressed "Video call" on someone. `callId` is made by the adapter (crypto.randomUUID). */
  | { type: 'videoCall.start'; callId: string; peer: VideoPeer; audioOnly: boolean }
  /** `callUser` reached this tab. */
  | { type: 'videoCall.incoming'; callId: string; peer: VideoPeer }
  /** getUserMedia was refused or found no device. */
  | { type: 'videoCall.mediaRefused'; message: string }
  /** mediaRefused: go on with the microphone only. */
  | { type: 'videoCall.audioOnly' }
  /** The server acknowledged `callUser`: the callee's tabs ring. */
  | { type: 'videoCall.ringing' }
  /** The server refused `callUser`. */
  | { type: 'videoCall.refused'; reason: CallRefusal; message: string }
  /** The ringing card's buttons. */
  | { type: 'videoCall.accept' }
  | { type: 'videoCall.decline' }
  /** The server acknowledged `answerCall`: this tab has the call. */
  | { type: 'videoCall.answered' }
  /** `callAccepted`: the callee took our call. */
  | { type: 'videoCall.accepted' }
  /** `videoCall:callDeclined`. */
  | { type: 'videoCall.declined'; message: string }
  /** `videoCall:callCancelled`: this tab stops ringing. */
  | { type: 'videoCall.cancelled'; reason: CancelReason }
  /** `videoCall:callEnded`, or the server's silence past the ring time (noAnswer). */
  | { type: 'videoCall.remoteEnded'; reason: EndReason; at: number; message?: string }
  /** The peer connected (first media path up). */
  | { type: 'videoCall.connected'; at: number }
  /** ICE went disconnected or failed and is being restarted; and it came back. */
  | { type: 'videoCall.reconnecting' }
  | { type: 'videoCall.reconnected' }
  | { type: 'videoCall.quality'; quality: CallQuality }
  /** The controls. */
  | { type: 'videoCall.toggleMute' }
  | { type: 'videoCall.toggleCamera' }
  | { type: 'videoCall.startShare' }
  | { type: 'videoCall.stopShare' }
  /** The adapter: the screen's track replaced the camera's; the browser's own bar ended the share. */
  | { type: 'videoCall.shareStarted' }
  | { type: 'videoCall.shareStopped' }
  /** Hang up: cancels while preparing or ringing, ends the call once accepted. */
  | { type: 'videoCall.hangup'; at: number }
  /** Something broke (the peer, the server's answer, a timer of the adapter). */
  | { type: 'videoCall.failed'; message: string; at: number }
  /** Close an outcome (declined, not answered, busy, failed). */
  | { type: 'videoCall.dismiss' };

type EventOf<T extends VideoCallEvent['type']> = Extract<VideoCallEvent, { type: T }>;

export interface VideoCallInput {
  selfId: string;
}

const noCall = {
  callId: null,
  direction: null,
  peer: null,
  callAccepted: false,
  audioOnly: false,
  connectedAt: null,
  endedAt: null,
  muted: false,
  cameraOff: false,
  sharing: false,
  reconnecting: false,
  quality: 'good',
  message: null,
  leaveReason: null,
} satisfies Omit<VideoCallContext, 'selfId'>;

/** What the texts of a refused call say, by the server's reason. */
const REFUSAL_STATE: Record<CallRefusal, 'busy' | 'notAnswered' | 'failed'> = {
  busy: 'busy',
  unavailable: 'notAnswered',
  glare: 'failed',
  refused: 'failed',
};

export const NO_ANSWER_MESSAGE = (name: string) => `${name} did not answer.`;
export const DECLINED_MESSAGE = (name: string) => `${name} declined the call.`;

/** The ringing peer is the one this tab is calling (both pressed "Video call" at once). */
function isGlare(context: VideoCallContext, event: EventOf<'videoCall.incoming'>): boolean {
  return context.peer !== null && context.peer.id === event.peer.id;
}

type Args = { context: VideoCallContext; event: VideoCallEvent };

/** Mute and camera: from connecting on (the controls show as soon as the call is accepted). */
const controls = {
  'videoCall.toggleMute': { actions: 'toggleMute' },
  'videoCall.toggleCamera': { guard: 'hasCamera', actions: 'toggleCamera' },
} as const;

export const videoCallMachine = setup({
  types: {
    context: {} as VideoCallContext,
    events: {} as VideoCallEvent,
    input: {} as VideoCallInput,
  },
  actions: {
    // --- effects, provided by the adapter (no-ops here) ---
    /** Camera and microphone, the initiator peer, and `callUser` with its first offer. */
    prepareCall: (_: Args, _params: { callId: string; peerId: string; audioOnly: boolean }) => {},
    /** Camera and microphone, the answering peer fed the caller's signals, and `answerCall`. */
    prepareAnswer: (_: Args, _params: { callId: string; callerId: string; audioOnly: boolean }) => {},
    /** `videoCall:decline` (busy: this tab is on another call). */
    sendDecline: (_: Args, _params: { callId: string; busy: boolean }) => {},
    /** `videoCall:hangup`: cancels a ringing call, ends an accepted one. */
    sendHangup: (_: Args, _params: { callId: string }) => {},
    /** `videoCall:connected`: the server's record notes when media started. */
    sendConnected: (_: Args, _params: { callId: string }) => {},
    /** Stops this call's tracks and destroys its peer (a call that never started). */
    releaseMedia: (_: Args, _params: { callId: string | null }) => {},
    setMicrophone: (_: Args, _params: { enabled: boolean }) => {},
    setCamera: (_: Args, _params: { enabled: boolean }) => {},
    /** getDisplayMedia, then the screen's track replaces the camera's (`videoCall.shareStarted`). */
    startScreenShare: () => {},
    /** The camera's track back in place of the screen's. */
    stopScreenShare: () => {},
    /**
     * SPEC §4: leaving a call reloads the page. The reload is what releases everything the call held,
     * at once and for certain: every camera, microphone and screen track, the RTCPeerConnection and its
     * sockets, the audio elements — whatever a bug elsewhere might still reference. The adapter keeps
     * a summary for the reloaded page to tell ("Video call with … ended").
     */
    leaveCall: (
      _: Args,
      _params: { peerName: string | null; durationSeconds: number; message: string | null },
    ) => {},

    // --- the machine's own compositions ---
    toggleMute: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ muted: !context.muted });
      enqueue({ type: 'setMicrophone', params: { enabled: context.muted } });
    }),
    toggleCamera: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ cameraOff: !context.cameraOff });
      enqueue({ type: 'setCamera', params: { enabled: context.cameraOff } });
    }),
    releaseOwnMedia: enqueueActions(({ context, enqueue }) => {
      enqueue({ type: 'releaseMedia', params: { callId: context.callId } });
    }),
    hangupOwnCall: enqueueActions(({ context, enqueue }) => {
      if (context.callId) enqueue({ type: 'sendHangup', params: { callId: context.callId } });
    }),
    /** Glare, polite side: our own call is dropped for theirs. */
    abandonOwnCall: enqueueActions(({ context, enqueue }) => {
      if (context.callId) enqueue({ type: 'sendHangup', params: { callId: context.callId } });
      enqueue({ type: 'releaseMedia', params: { callId: context.callId } });
    }),
    /** A ring while this tab is on (or starting) another call. */
    declineBusy: enqueueActions(({ event, enqueue }) => {
      const ring = event as EventOf<'videoCall.incoming'>;
      enqueue({ type: 'sendDecline', params: { callId: ring.callId, busy: true } });
    }),
    assignRing: assign(({ event }) => {
      const ring = event as EventOf<'videoCall.incoming'>;
      return { ...noCall, callId: ring.callId, peer: ring.peer, direction: 'incoming' as const };
    }),
    assignRefusal: assign(({ event }) => ({ message: (event as EventOf<'videoCall.refused'>).message })),
    assignFailure: assign(({ event }) => ({ message: (event as EventOf<'videoCall.failed'>).message })),
    assignAudioOnly: assign({ audioOnly: true, cameraOff: true, message: null }),
    assignRemoteEnd: assign(({ event }) => {
      const end = event as EventOf<'videoCall.remoteEnded'>;
      return { endedAt: end.at, leaveReason: end.reason, message: end.message ?? null };
    }),
    assignOwnEnd: assign(({ event }) => ({
      endedAt: (event as EventOf<'videoCall.hangup'>).at,
      leaveReason: 'self' as const,
    })),
    assignFailedEnd: assign(({ event }) => {
      const failure = event as EventOf<'videoCall.failed'>;
      return { endedAt: failure.at, leaveReason: 'failed' as const, message: failure.message };
    }),
  },
  guards: {
    isGlarePolite: ({ context, event }) =>
      isGlare(context, event as EventOf<'videoCall.incoming'>) &&
      context.selfId < (event as EventOf<'videoCall.incoming'>).peer.id,
    isGlareImpolite: ({ context, event }) => isGlare(context, event as EventOf<'videoCall.incoming'>),
    isOutgoing: ({ context }) => context.direction === 'outgoing',
    hasCamera: ({ context }) => !context.audioOnly,
    /** A screen replaces the camera's track: an audio-only call has none to replace. */
    canShare: ({ context }) => !context.sharing && !context.audioOnly,
    isSharing: ({ context }) => context.sharing,
    refusedBusy: ({ event }) => REFUSAL_STATE[(event as EventOf<'videoCall.refused'>).reason] === 'busy',
    refusedUnavailable: ({ event }) =>
      REFUSAL_STATE[(event as EventOf<'videoCall.refused'>).reason] === 'notAnswered',
    isNoAnswer: ({ event }) => (event as EventOf<'videoCall.remoteEnded'>).reason === 'noAnswer',
  },
}).createMachine({
  id: 'videoCall',
  context: ({ input }) => ({ selfId: input.selfId, ...noCall }),
  initial: 'idle',
  states: {
    idle: {
      entry: assign(() => ({ ...noCall })),
      on: {
        'videoCall.start': {
          target: 'preparing',
          actions: assign(({ event }) => ({
            callId: event.callId,
            peer: event.peer,
            direction: 'outgoing' as const,
            audioOnly: event.audioOnly,
            cameraOff: event.audioOnly,
          })),
        },
        'videoCall.incoming': {
          target: 'incoming',
          actions: assign(({ event }) => ({
            callId: event.callId,
            peer: event.peer,
            direction: 'incoming' as const,
          })),
        },
      },
    },
    preparing: {
      entry: {
        type: 'prepareCall',
        params: ({ context }) => ({
          callId: context.callId ?? '',
          peerId: context.peer?.id ?? '',
          audioOnly: context.audioOnly,
        }),
      },
      on: {
        'videoCall.ringing': 'outgoing',
        'videoCall.mediaRefused': {
          target: 'mediaRefused',
          actions: assign(({ event }) => ({ message: event.message })),
        },
        'videoCall.refused': [
          { guard: 'refusedBusy', target: 'busy', actions: 'assignRefusal' },
          { guard: 'refusedUnavailable', target: 'notAnswered', actions: 'assignRefusal' },
          { target: 'failed', actions: 'assignRefusal' },
        ],
        'videoCall.incoming': [
          { guard: 'isGlarePolite', target: 'incoming', actions: ['abandonOwnCall', 'assignRing'] },
          { guard: 'isGlareImpolite' },
          { actions: 'declineBusy' },
        ],
        'videoCall.hangup': { target: 'idle', actions: ['hangupOwnCall', 'releaseOwnMedia'] },
        'videoCall.failed': { target: 'failed', actions: ['assignFailure', 'releaseOwnMedia'] },
      },
    },
    outgoing: {
      on: {
        'videoCall.accepted': { target: 'connecting', actions: assign({ callAccepted: true }) },
        'videoCall.declined': {
          target: 'declined',
          actions: [assign(({ event }) => ({ message: event.message })), 'releaseOwnMedia'],
        },
        'videoCall.remoteEnded': [
          {
            guard: 'isNoAnswer',
            target: 'notAnswered',
            actions: [
              assign(({ context, event }) => ({
                message: event.message ?? NO_ANSWER_MESSAGE(context.peer?.name ?? ''),
              })),
              'releaseOwnMedia',
            ],
          },
          // glare (their call to us won), or the server ended it otherwise: their ring follows.
          { target: 'idle', actions: 'releaseOwnMedia' },
        ],
        'videoCall.incoming': [
          { guard: 'isGlarePolite', target: 'incoming', actions: ['abandonOwnCall', 'assignRing'] },
          { guard: 'isGlareImpolite' },
          { actions: 'declineBusy' },
        ],
        'videoCall.hangup': { target: 'idle', actions: ['hangupOwnCall', 'releaseOwnMedia'] },
        'videoCall.failed': {
          target: 'failed',
          actions: ['assignFailure', 'hangupOwnCall', 'releaseOwnMedia'],
        },
      },
    },
    incoming: {
      on: {
        'videoCall.accept': 'accepting',
        'videoCall.decline': {
          target: 'idle',
          actions: {
            type: 'sendDecline',
            params: ({ context }) => ({ callId: context.callId ?? '', busy: false }),
          },
        },
        'videoCall.cancelled': { target: 'idle', actions: 'releaseOwnMedia' },
        'videoCall.incoming': { actions: 'declineBusy' },
      },
    },
    mediaRefused: {
      on: {
        'videoCall.audioOnly': [
          { guard: 'isOutgoing', target: 'preparing', actions: 'assignAudioOnly' },
          { target: 'accepting', actions: 'assignAudioOnly' },
        ],
        'videoCall.decline': [
          { guard: 'isOutgoing', target: 'idle', actions: 'releaseOwnMedia' },
          {
            target: 'idle',
            actions: [
              {
                type: 'sendDecline',
                params: ({ context }) => ({ callId: context.callId ?? '', busy: false }),
              },
              'releaseOwnMedia',
            ],
          },
        ],
        // Only while the caller still rings us (an outgoing call is not sent before media is ready).
        'videoCall.cancelled': { target: 'idle', actions: 'releaseOwnMedia' },
        'videoCall.incoming': { actions: 'declineBusy' },
      },
    },
    accepting: {
      entry: {
        type: 'prepareAnswer',
        params: ({ context }) => ({
          callId: context.callId ?? '',
          callerId: context.peer?.id ?? '',
          audioOnly: context.audioOnly,
        }),
      },
      on: {
        'videoCall.answered': { target: 'connecting', actions: assign({ callAccepted: true }) },
        'videoCall.mediaRefused': {
          target: 'mediaRefused',
          actions: assign(({ event }) => ({ message: event.message })),
        },
        'videoCall.cancelled': { target: 'idle', actions: 'releaseOwnMedia' },
        'videoCall.failed': { target: 'failed', actions: ['assignFailure', 'releaseOwnMedia'] },
        // Cancelled before the answer went out: declined (the adapter hangs up an answer already sent).
        'videoCall.hangup': {
          target: 'idle',
          actions: [
            { type: 'sendDecline', params: ({ context }) => ({ callId: context.callId ?? '', busy: false }) },
            'releaseOwnMedia',
          ],
        },
        'videoCall.incoming': { actions: 'declineBusy' },
      },
    },
    connecting: {
      on: {
        'videoCall.connected': {
          target: 'inCall',
          actions: [
            assign(({ event }) => ({ connectedAt: event.at })),
            { type: 'sendConnected', params: ({ context }) => ({ callId: context.callId ?? '' }) },
          ],
        },
        'videoCall.remoteEnded': { target: 'ended', actions: 'assignRemoteEnd' },
        'videoCall.hangup': { target: 'ended', actions: ['assignOwnEnd', 'hangupOwnCall'] },
        'videoCall.failed': { target: 'ended', actions: ['assignFailedEnd', 'hangupOwnCall'] },
        'videoCall.incoming': { actions: 'declineBusy' },
        ...controls,
      },
    },
    inCall: {
      on: {
        'videoCall.reconnecting': { actions: assign({ reconnecting: true }) },
        'videoCall.reconnected': { actions: assign({ reconnecting: false }) },
        'videoCall.quality': { actions: assign(({ event }) => ({ quality: event.quality })) },
        'videoCall.startShare': { guard: 'canShare', actions: 'startScreenShare' },
        'videoCall.stopShare': {
          guard: 'isSharing',
          actions: [assign({ sharing: false }), 'stopScreenShare'],
        },
        'videoCall.shareStarted': { guard: 'canShare', actions: assign({ sharing: true }) },
        // The browser's own "Stop sharing" ended the screen's track.
        'videoCall.shareStopped': {
          guard: 'isSharing',
          actions: [assign({ sharing: false }), 'stopScreenShare'],
        },
        'videoCall.remoteEnded': { target: 'ended', actions: 'assignRemoteEnd' },
        'videoCall.hangup': { target: 'ended', actions: ['assignOwnEnd', 'hangupOwnCall'] },
        'videoCall.failed': { target: 'ended', actions: ['assignFailedEnd', 'hangupOwnCall'] },
        'videoCall.incoming': { actions: 'declineBusy' },
        ...controls,
      },
    },
    ended: {
      entry: {
        type: 'leaveCall',
        params: ({ context }) => ({
          peerName: context.peer?.name ?? null,
          durationSeconds:
            context.connectedAt !== null && context.endedAt !== null
              ? Math.max(0, Math.round((context.endedAt - context.connectedAt) / 1000))
              : 0,
          message: context.message,
        }),
      },
      // The page reloads; until it does, a ring is answered busy.
      on: { 'videoCall.incoming': { actions: 'declineBusy' } },
    },
    declined: outcome(),
    notAnswered: outcome(),
    busy: outcome(),
    failed: outcome(),
  },
});

/** An outcome shown until closed; a new ring is still taken (the outcome closes). */
function outcome() {
  return {
    on: {
      'videoCall.dismiss': 'idle',
      'videoCall.incoming': {
        target: 'incoming',
        actions: 'assignRing',
      },
    },
  } as const;
}

/** SPEC §4 "Video call" flags, derived from the statechart. */
export const isCallAccepted = (snapshot: { context: VideoCallContext }): boolean =>
  snapshot.context.callAccepted;
export const isCallEnded = (snapshot: { value: unknown }): boolean => snapshot.value === 'ended';
