// The call statechart (SPEC §4 "Call status values", "Calling status texts", "Incoming call", "Outgoing
// call"; §3 "Call log"; §8 call errors). Pure (ARCHITECTURE.md "Statecharts"): no invoke, no after, no
// spawn. Every effect (the provider's call, the toast, the call log requests, the error log) is a named
// action with a no-op default that the call adapter provides with `callMachine.provide({ actions })`;
// what the provider and the HTTP calls report are namespaced `call.*` / `feedback.*` events. Events that
// start or end a call carry `at` (epoch ms) so times and durations are computed here without a clock.
//
// One call at a time. States (the status text is in the context, set by every transition, so each state
// shows exactly one CALLING_STATUS text or a few named ones):
// - idle            "No Active Calls"
// - ringing         "Incoming Call": the toast shows; a log of type INCOMING was asked for.
// - connecting      "Call Connecting": an outgoing call was dialled; a log of type OUTGOING was asked for.
// - active          "On Call" (accepted incoming) / "Call Connected" (answered outgoing) /
//                   "Call is Muted" / "Call Reconnected." (after reconnecting)
// - reconnecting    "Reconnecting..."
// - ended           the call is over without a feedback modal: "Call Ignored", "Call Cancelled",
//                   "Call Rejected" (the callee rejected our call), "Call Disconnected" (not picked up),
//                   "Error Occured". `call.dismiss` or a new call leaves it.
// - feedback        the feedback modal is open: after a hang-up ("Call Disconnected") or after rejecting
//                   an incoming call ("Call Rejected"), SPEC §4.
// - submittingFeedback  the feedback is being saved (updateHistory); the modal stays open.
//
// Choices the SPEC leaves open:
// - An outgoing call the callee rejects ends WITHOUT the feedback modal: the SPEC opens it for the agent's
//   own rejection and for a hang-up (a conversation happened); a call that never connected has nothing
//   to rate (feedbackData needs a rating of 1 to 5).
// - A call that fails (`call.error`) ends without the modal too, logged as 'Call Disconnected'.
// - While the feedback modal is open the finished call still owns the context (its callId is what the
//   feedback updates), so a new incoming call is rejected as busy and dialling is refused, as during a
//   call. Submitting or skipping the feedback frees the line.
// - `call.logCreated` is stored in every state of a call (and its outcome); in idle there is no call it
//   could belong to, so it is dropped. An update that happens before generateCall answered goes out
//   with `callId: null`: the adapter holds it until its own create request answered.
// - Outgoing calls start (callStartedAt) when answered; a call never answered has no start, no end and
//   duration 0. `call.dial` therefore carries no `at`.
import { assign, setup } from 'xstate';
import {
  CALLEE_CANNOT_TAKE_CALLS_MESSAGE,
  CALLING_STATUS,
  type CallDetails,
  type CallingStatusText,
  type CallStatus,
  type FeedbackData,
  MAX_FEEDBACK_LENGTH,
  NO_ACTIVE_INCOMING,
  NOT_IN_SERVICE_MESSAGE,
  normalisePhoneNumber,
  type ReferenceType,
  UNABLE_TO_MAKE_CALL,
} from '../../contracts/calls';

export type CallState =
  | 'idle'
  | 'ringing'
  | 'connecting'
  | 'active'
  | 'reconnecting'
  | 'ended'
  | 'feedback'
  | 'submittingFeedback';

export interface CallFeedback {
  /** The feedback modal is open (feedback and submittingFeedback). */
  open: boolean;
  /** 1 to 5; null until the agent rated. */
  rating: number | null;
  text: string;
  /** Why the last submit failed (the modal stays open and says so); null when it did not. */
  error: string | null;
}

export interface CallContext {
  /** The call log's id (generateCall's `data.callId`); null until the server answered. */
  callId: string | null;
  /** The provider's call id (Twilio CallSid); for outgoing calls known once answered. */
  callSid: string | null;
  direction: ReferenceType | null;
  /** The other party's number. */
  phoneNumber: string | null;
  /** Epoch ms: when the call was accepted or answered. */
  startedAt: number | null;
  /** Epoch ms: when an answered call ended. */
  endedAt: number | null;
  /** Whole seconds between startedAt and endedAt. */
  durationSeconds: number;
  /** SPEC §4 call status value: what the log records as the outcome. */
  callStatus: CallStatus;
  muted: boolean;
  feedback: CallFeedback;
  /** SPEC §4 calling status text shown by the call UI. */
  statusText: CallingStatusText;
  /**
   * Why an outgoing call rang no one, for the caller (the number is not in service, the callee cannot
   * take calls); null otherwise. Shown under the status text, which stays the SPEC's.
   */
  notice: string | null;
}

/**
 * How the other side ended (or never took) the call, as the provider reports it. `notInService`: no one
 * has the dialled number; `unavailable`: its owner cannot take calls now (device off, account inactive).
 */
export type RemoteEndReason =
  | 'hangup'
  | 'cancelled'
  | 'rejected'
  | 'ignored'
  | 'unavailable'
  | 'notInService';

/** What the caller is told when their call rang no one, by reason; none for the others. */
const NOT_PICKED_NOTICES: Partial<Record<RemoteEndReason, string>> = {
  notInService: NOT_IN_SERVICE_MESSAGE,
  unavailable: CALLEE_CANNOT_TAKE_CALLS_MESSAGE,
};

export type CallEvent =
  /** A call rings this device (Twilio `incoming`). */
  | { type: 'call.incoming'; callSid: string; from: string }
  /** generateCall answered with the log's id. */
  | { type: 'call.logCreated'; callId: string }
  /** The toast's buttons. */
  | { type: 'call.accept'; at: number }
  | { type: 'call.reject' }
  | { type: 'call.ignore' }
  /** The other side ended the call: hung up, cancelled before we answered, or never took our call. */
  | { type: 'call.remoteEnded'; reason: RemoteEndReason; at: number }
  /** The dial pad. `deviceReady`: the voice device is Ready (voice-device.machine `isDeviceReady`). */
  | { type: 'call.dial'; number: string; deviceReady: boolean }
  /** The callee answered our call (Twilio `accept` on the outgoing call). */
  | { type: 'call.answered'; at: number; callSid?: string }
  /** Hang up (or cancel while connecting). */
  | { type: 'call.hangup'; at: number }
  /** The provider failed the call (Twilio call `error`). Logged (SPEC §8). */
  | { type: 'call.error'; message: string; at: number }
  | { type: 'call.mute' }
  | { type: 'call.unmute' }
  /** The media connection dropped and is being restored (Twilio `reconnecting` / `reconnected`). */
  | { type: 'call.reconnecting' }
  | { type: 'call.reconnected' }
  /** Close the outcome of a call that ended without the feedback modal. */
  | { type: 'call.dismiss' }
  /** The feedback modal. */
  | { type: 'feedback.rate'; rating: number }
  | { type: 'feedback.change'; text: string }
  | { type: 'feedback.submit' }
  | { type: 'feedback.skip' }
  /** updateHistory answered. */
  | { type: 'feedback.submitted' }
  | { type: 'feedback.failed'; message: string };

type EventOf<T extends CallEvent['type']> = Extract<CallEvent, { type: T }>;

const closedFeedback: CallFeedback = { open: false, rating: null, text: '', error: null };

const noCall: CallContext = {
  callId: null,
  callSid: null,
  direction: null,
  phoneNumber: null,
  startedAt: null,
  endedAt: null,
  durationSeconds: 0,
  callStatus: 'Not Picked',
  muted: false,
  feedback: closedFeedback,
  statusText: CALLING_STATUS.idle,
  notice: null,
};

/** Whole seconds from start to end (never negative: clocks of different sources may disagree). */
export function durationSecondsBetween(startedAt: number, endedAt: number): number {
  return Math.max(0, Math.round((endedAt - startedAt) / 1000));
}

/** SPEC §3 callDetails as createLog, updateLog and submitFeedback send them. */
export function callDetailsOf(context: CallContext): CallDetails {
  return {
    callDuration: context.durationSeconds,
    callStartedAt: context.startedAt === null ? null : new Date(context.startedAt).toISOString(),
    callStatus: context.callStatus,
    callEndedAt: context.endedAt === null ? null : new Date(context.endedAt).toISOString(),
  };
}

export function isValidRating(rating: unknown): rating is number {
  return typeof rating === 'number' && Number.isInteger(rating) && rating >= 1 && rating <= 5;
}

// ---------------------------------------------------------------------------------------------------
// Action lists shared by several states (the params read the context as the earlier assigns left it)

type ActionArgs = { context: CallContext; event: CallEvent };

const updateLog = {
  type: 'updateLog',
  params: ({ context }: ActionArgs) => ({ callId: context.callId, callDetails: callDetailsOf(context) }),
} as const;

const createLog = {
  type: 'createLog',
  params: ({ context }: ActionArgs) => ({
    phoneNumber: context.phoneNumber ?? '',
    referenceType: context.direction ?? 'INCOMING',
    callDetails: callDetailsOf(context),
  }),
} as const;

const logEventError = {
  type: 'logError',
  params: ({ event }: ActionArgs) => ({ message: (event as EventOf<'call.error'>).message }),
} as const;

const logError = (message: string) => ({ type: 'logError', params: { message } }) as const;

/** SPEC §8: accept/reject/ignore without a ringing call are only logged. */
const noIncomingToAnswer = { actions: logError(NO_ACTIVE_INCOMING) } as const;
const notRinging = {
  'call.accept': noIncomingToAnswer,
  'call.reject': noIncomingToAnswer,
  'call.ignore': noIncomingToAnswer,
} as const;

/** One call at a time: a second incoming call is rejected (the caller hears busy). */
const rejectBusy = {
  actions: {
    type: 'rejectBusy',
    params: ({ event }: ActionArgs) => {
      const { callSid, from } = event as EventOf<'call.incoming'>;
      return { callSid, from };
    },
  },
} as const;

/** SPEC §8: dialling while a call (or its feedback) holds the line is only logged. */
const cannotDial = { actions: logError(UNABLE_TO_MAKE_CALL) } as const;

/** What a line busy with a call (or its feedback) does with events meant for a free line. */
const busyLine = {
  ...notRinging,
  'call.incoming': rejectBusy,
  'call.dial': cannotDial,
  'call.logCreated': { actions: 'storeCallId' },
} as const;

/** A free line (idle, or the outcome of a call that needs no feedback). */
const freeLine = {
  ...notRinging,
  'call.incoming': {
    target: 'ringing',
    actions: [
      'startIncoming',
      {
        type: 'showIncomingToast',
        params: ({ event }: ActionArgs) => {
          const { callSid, from } = event as EventOf<'call.incoming'>;
          return { callSid, from };
        },
      },
      createLog,
    ],
  },
  'call.dial': [
    {
      guard: 'canDial',
      target: 'connecting',
      actions: [
        'startOutgoing',
        { type: 'makeCall', params: ({ context }: ActionArgs) => ({ number: context.phoneNumber ?? '' }) },
        createLog,
      ],
    },
    // The device is not ready, or the number is not one: SPEC §8, only logged.
    cannotDial,
  ],
  // Outside a call an error of the provider is only logged.
  'call.error': { actions: logEventError },
} as const;

/** The call failed: SPEC §8 logs it; the log records 'Call Disconnected'. */
const failCall = {
  target: 'ended',
  actions: ['endWithError', logEventError, updateLog],
} as const;

/** An answered call ended: end time, duration, the feedback modal (SPEC §4). */
const remoteHangUp = { target: 'feedback', actions: ['endAnswered', updateLog] } as const;
const localHangUp = { target: 'feedback', actions: ['endAnswered', 'hangUp', updateLog] } as const;

/** While connected (active or reconnecting): how the call ends. */
const connected = {
  ...busyLine,
  'call.hangup': localHangUp,
  'call.remoteEnded': remoteHangUp,
  'call.error': failCall,
} as const;

/** While the feedback modal is open: the line stays taken, an error of the provider is only logged. */
const feedbackLine = { ...busyLine, 'call.error': { actions: logEventError } } as const;

export const callMachine = setup({
  types: {
    context: {} as CallContext,
    events: {} as CallEvent,
  },
  actions: {
    // Context only (pure).
    startIncoming: assign(({ event }) => {
      const { callSid, from } = event as EventOf<'call.incoming'>;
      return {
        ...noCall,
        callSid,
        direction: 'INCOMING' as const,
        phoneNumber: from,
        statusText: CALLING_STATUS.incoming,
      };
    }),
    startOutgoing: assign(({ event }) => {
      const { number } = event as EventOf<'call.dial'>;
      return {
        ...noCall,
        direction: 'OUTGOING' as const,
        phoneNumber: normalisePhoneNumber(number),
        statusText: CALLING_STATUS.connecting,
      };
    }),
    storeCallId: assign({ callId: ({ event }) => (event as EventOf<'call.logCreated'>).callId }),
    acceptIncoming: assign(({ event }) => ({
      startedAt: (event as EventOf<'call.accept'>).at,
      callStatus: 'Connected' as const,
      statusText: CALLING_STATUS.onCall,
    })),
    answerOutgoing: assign(({ context, event }) => {
      const { at, callSid } = event as EventOf<'call.answered'>;
      return {
        startedAt: at,
        callSid: callSid ?? context.callSid,
        callStatus: 'Connected' as const,
        statusText: CALLING_STATUS.connected,
      };
    }),
    markRejected: assign({
      callStatus: 'Rejected',
      statusText: CALLING_STATUS.rejected,
      feedback: { ...closedFeedback, open: true },
    }),
    markIgnored: assign({ statusText: CALLING_STATUS.ignored, callStatus: 'Call Ignored' }),
    markCancelled: assign({ statusText: CALLING_STATUS.cancelled, callStatus: 'Call Cancelled' }),
    markCalleeRejected: assign({ statusText: CALLING_STATUS.rejected, callStatus: 'Rejected' }),
    markNotPicked: assign(({ event }) => ({
      statusText: CALLING_STATUS.disconnected,
      callStatus: 'Not Picked' as const,
      notice: NOT_PICKED_NOTICES[(event as EventOf<'call.remoteEnded'>).reason] ?? null,
    })),
    /** The call ended by an error: an answered call gets its end time and duration as well. */
    endWithError: assign(({ context, event }) => {
      const { at } = event as EventOf<'call.error'>;
      const answered = context.startedAt !== null;
      return {
        callStatus: 'Call Disconnected' as const,
        statusText: CALLING_STATUS.error,
        muted: false,
        endedAt: answered ? at : null,
        durationSeconds: answered ? durationSecondsBetween(context.startedAt ?? at, at) : 0,
      };
    }),
    /** SPEC §4: on hang-up the end time and the duration (now minus start) are set; the modal opens. */
    endAnswered: assign(({ context, event }) => {
      const { at } = event as EventOf<'call.hangup' | 'call.remoteEnded'>;
      return {
        endedAt: at,
        durationSeconds: durationSecondsBetween(context.startedAt ?? at, at),
        // It was answered: the log keeps 'Connected'.
        statusText: CALLING_STATUS.disconnected,
        muted: false,
        feedback: { ...closedFeedback, open: true },
      };
    }),
    setMuted: assign({ muted: true, statusText: CALLING_STATUS.muted }),
    setUnmuted: assign({ muted: false, statusText: CALLING_STATUS.onCall }),
    showReconnecting: assign({ statusText: CALLING_STATUS.reconnecting }),
    showReconnected: assign({ statusText: CALLING_STATUS.reconnected }),
    setRating: assign({
      feedback: ({ context, event }) => ({
        ...context.feedback,
        rating: (event as EventOf<'feedback.rate'>).rating,
      }),
    }),
    setFeedbackText: assign({
      feedback: ({ context, event }) => ({
        ...context.feedback,
        text: (event as EventOf<'feedback.change'>).text,
      }),
    }),
    markFeedbackSending: assign({ feedback: ({ context }) => ({ ...context.feedback, error: null }) }),
    markFeedbackFailed: assign({
      feedback: ({ context, event }) => ({
        ...context.feedback,
        error: (event as EventOf<'feedback.failed'>).message,
      }),
    }),
    /** SPEC §4: the call id, the feedback text and the modal are cleared (the line is free again). */
    clearCall: assign(() => ({ ...noCall })),
    // Effects: no-ops here, provided by the adapter with `callMachine.provide({ actions })`.
    /** SPEC §2: the "Incoming Call" toast, "From: {phone}", Accept / Reject / Ignore; never auto-dismissed. */
    showIncomingToast: (_, _params: { callSid: string; from: string }) => {},
    hideIncomingToast: () => {},
    /** POST generateCall (the adapter adds `source`); answer with call.logCreated. */
    createLog: (
      _,
      _params: { phoneNumber: string; referenceType: ReferenceType; callDetails: CallDetails },
    ) => {},
    /**
     * PUT updateHistory/{callId} with the call's details as they now stand. `callId` is null while
     * generateCall has not answered yet: the adapter sends it once it has.
     */
    updateLog: (_, _params: { callId: string | null; callDetails: CallDetails }) => {},
    /** PUT updateHistory/{callId} with callDetails and feedbackData; answer feedback.submitted/failed. */
    submitFeedback: (
      _,
      _params: { callId: string | null; callDetails: CallDetails; feedbackData: FeedbackData },
    ) => {},
    /** The provider: accept, reject, ignore the ringing call. */
    acceptCall: () => {},
    rejectCall: () => {},
    ignoreCall: () => {},
    /** Reject a second incoming call while the line is taken. */
    rejectBusy: (_, _params: { callSid: string; from: string }) => {},
    /** The provider: dial the number. */
    makeCall: (_, _params: { number: string }) => {},
    /** The provider: end (or cancel) our side of the call. */
    hangUp: () => {},
    muteCall: () => {},
    unmuteCall: () => {},
    /** SPEC §8: call errors are only logged. */
    logError: (_, _params: { message: string }) => {},
  },
  guards: {
    canDial: ({ event }) => {
      const { number, deviceReady } = event as EventOf<'call.dial'>;
      return deviceReady === true && normalisePhoneNumber(number) !== null;
    },
    isCalleeRejection: ({ event }) => (event as EventOf<'call.remoteEnded'>).reason === 'rejected',
    isMuted: ({ context }) => context.muted,
    isUnmuted: ({ context }) => !context.muted,
    isValidRating: ({ event }) => isValidRating((event as EventOf<'feedback.rate'>).rating),
    canSubmitFeedback: ({ context }) =>
      isValidRating(context.feedback.rating) && context.feedback.text.trim().length <= MAX_FEEDBACK_LENGTH,
  },
}).createMachine({
  id: 'call',
  context: noCall,
  initial: 'idle',
  states: {
    idle: { on: freeLine },
    ringing: {
      on: {
        ...busyLine,
        'call.accept': {
          target: 'active',
          actions: ['acceptIncoming', 'acceptCall', 'hideIncomingToast', updateLog],
        },
        // SPEC §4: Reject sets Rejected and opens the feedback modal.
        'call.reject': {
          target: 'feedback',
          actions: ['markRejected', 'rejectCall', 'hideIncomingToast', updateLog],
        },
        'call.ignore': {
          target: 'ended',
          actions: ['markIgnored', 'ignoreCall', 'hideIncomingToast', updateLog],
        },
        // The caller gave up before we answered, whatever the provider calls it.
        'call.remoteEnded': {
          target: 'ended',
          actions: ['markCancelled', 'hideIncomingToast', updateLog],
        },
        'call.error': { ...failCall, actions: ['hideIncomingToast', ...failCall.actions] },
      },
    },
    connecting: {
      on: {
        ...busyLine,
        'call.answered': { target: 'active', actions: ['answerOutgoing', updateLog] },
        'call.remoteEnded': [
          { guard: 'isCalleeRejection', target: 'ended', actions: ['markCalleeRejected', updateLog] },
          // Not answered: ignored, unavailable (no one owns the number, no answer), hung up.
          { target: 'ended', actions: ['markNotPicked', updateLog] },
        ],
        // Our own cancel before the callee answered.
        'call.hangup': { target: 'ended', actions: ['markCancelled', 'hangUp', updateLog] },
        'call.error': failCall,
      },
    },
    active: {
      on: {
        ...connected,
        'call.mute': { guard: 'isUnmuted', actions: ['setMuted', 'muteCall'] },
        'call.unmute': { guard: 'isMuted', actions: ['setUnmuted', 'unmuteCall'] },
        'call.reconnecting': { target: 'reconnecting', actions: 'showReconnecting' },
      },
    },
    reconnecting: {
      on: {
        ...connected,
        'call.reconnected': { target: 'active', actions: 'showReconnected' },
      },
    },
    ended: {
      on: {
        ...freeLine,
        'call.logCreated': { actions: 'storeCallId' },
        'call.dismiss': { target: 'idle', actions: 'clearCall' },
      },
    },
    feedback: {
      on: {
        ...feedbackLine,
        'feedback.rate': { guard: 'isValidRating', actions: 'setRating' },
        'feedback.change': { actions: 'setFeedbackText' },
        'feedback.submit': {
          guard: 'canSubmitFeedback',
          target: 'submittingFeedback',
          actions: [
            'markFeedbackSending',
            {
              type: 'submitFeedback',
              params: ({ context }) => ({
                callId: context.callId,
                callDetails: callDetailsOf(context),
                feedbackData: { rating: context.feedback.rating ?? 0, text: context.feedback.text.trim() },
              }),
            },
          ],
        },
        'feedback.skip': { target: 'idle', actions: 'clearCall' },
      },
    },
    submittingFeedback: {
      on: {
        ...feedbackLine,
        'feedback.submitted': { target: 'idle', actions: 'clearCall' },
        'feedback.failed': { target: 'feedback', actions: 'markFeedbackFailed' },
      },
    },
  },
});

export type CallMachine = typeof callMachine;

interface CallSnapshotLike {
  value: unknown;
  context: CallContext;
}

/** SPEC §4 calling status text, exactly as written. */
export function selectCallingStatusText(snapshot: CallSnapshotLike): CallingStatusText {
  return snapshot.context.statusText;
}

/** SPEC §3 callDetails of the current (or just ended) call. */
export function selectCallDetails(snapshot: CallSnapshotLike): CallDetails {
  return callDetailsOf(snapshot.context);
}

export function isFeedbackOpen(snapshot: CallSnapshotLike): boolean {
  return snapshot.context.feedback.open;
}

/** SPEC §2: the incoming-call toast shows while the call rings. */
export function isIncomingToastVisible(snapshot: CallSnapshotLike): boolean {
  return snapshot.value === 'ringing';
}

/** A call (or its feedback) holds the line: a new call is refused. */
export function isLineBusy(snapshot: CallSnapshotLike): boolean {
  return snapshot.value !== 'idle' && snapshot.value !== 'ended';
}
