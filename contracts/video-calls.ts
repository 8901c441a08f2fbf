// Video calls between back-office users (issue 13; SPEC §1, §3 "Call object (video)", §4 "Video call",
// §7 "Video calling"). Shared by the server (server/modules/video-calls), the browser adapter
// (src/services/video-call) and the tests.
//
// The SPEC's three events keep their exact names and fields:
// - `callUser` {userToCall, signalData, from, name}: the caller's offer, delivered to every socket of
//   the callee (room `user:{id}`). The server sets `from` (the caller's user id) and `name` from the
//   authenticated socket; what a client puts there is ignored.
// - `answerCall` {signal, to}: the callee's answer, delivered to the caller as `callAccepted` {signal}.
// Our client also sends `callId`: calls are the server's records (table video_calls), addressed to
// users, never to a socket.id. A client that sends exactly the SPEC's fields is served too: the server
// makes the call's id and returns it in the acknowledgement of `callUser` (and with the callee's
// `callUser` event), and an `answerCall` without one answers the call ringing from `to`. What a real call needs and the SPEC leaves out is namespaced `videoCall:*`.
//
// Every client event is acknowledged: `{ ok: true, ... }` or `{ ok: false, message, reason? }`.
import { z } from 'zod';
import { intParam } from './int-param';
import { type VideoSignal, videoSignalSchema } from './video-signal';

export const VIDEO_CALL_EVENTS = {
  // SPEC §7, both directions
  callUser: 'callUser',
  answerCall: 'answerCall',
  callAccepted: 'callAccepted',
  // client → server
  decline: 'videoCall:decline',
  hangup: 'videoCall:hangup',
  signal: 'videoCall:signal',
  connected: 'videoCall:connected',
  rejoin: 'videoCall:rejoin',
  /** The people picker's list: tell me when these people come online or go offline. */
  watchPresence: 'videoCall:watchPresence',
  // server → client (`videoCall:signal` too, relayed)
  callDeclined: 'videoCall:callDeclined',
  callCancelled: 'videoCall:callCancelled',
  callEnded: 'videoCall:callEnded',
  /** A watched person came online (their first tab) or went offline (their last tab closed). */
  presence: 'videoCall:presence',
} as const;

/** A call rings this long before it ends as missed (the caller sees that nobody answered). */
export const VIDEO_RING_TIMEOUT_MS = 45_000;
/**
 * A party whose signalling socket dropped has this long to come back (`videoCall:rejoin` on the new
 * socket) before the server ends the call: the media flows peer to peer and survives a short outage.
 */
export const VIDEO_REJOIN_GRACE_MS = 10_000;

/** The room a call's party sockets join (the accepting tab and the calling tab). */
export function videoCallRoom(callId: string): string {
  return `video-call:${callId}`;
}

const callIdSchema = z.string().uuid('callId must be a UUID');
const userIdSchema = z.string().uuid('userToCall must be a user id');

function isType(type: VideoSignal['type']) {
  return (signal: VideoSignal) => signal.type === type;
}

// --- client → server -------------------------------------------------------------------------------

/** `callUser` as the caller sends it: the SPEC's fields (from and name ignored), and the call's id if
 * the client made it (the server makes one otherwise). */
export const callUserPayloadSchema = z.object({
  callId: callIdSchema.optional(),
  userToCall: userIdSchema,
  signalData: videoSignalSchema.refine(isType('offer'), 'signalData: a call starts with an offer'),
  from: z.unknown().optional(),
  name: z.unknown().optional(),
});
export type CallUserPayload = z.input<typeof callUserPayloadSchema>;

/** `answerCall`: the callee's answer; `to` is the caller's user id. Without `callId` it answers the call
 * ringing from `to`. */
export const answerCallPayloadSchema = z.object({
  callId: callIdSchema.optional(),
  to: z.string().uuid('to must be the caller’s user id'),
  signal: videoSignalSchema.refine(isType('answer'), 'signal: an answer is expected'),
});
export type AnswerCallPayload = z.input<typeof answerCallPayloadSchema>;

/** `videoCall:decline`: `busy` when the callee's tab is on another call (e.g. a Twilio voice call). */
export const declinePayloadSchema = z.object({ callId: callIdSchema, busy: z.boolean().optional() });
/** `videoCall:hangup`, `videoCall:connected`, `videoCall:rejoin`. */
export const callIdPayloadSchema = z.object({ callId: callIdSchema });
/** `videoCall:signal`: trickled candidates, renegotiation and ICE-restart offers, relayed as they are. */
export const signalPayloadSchema = z.object({ callId: callIdSchema, signal: videoSignalSchema });
export type SignalPayload = z.input<typeof signalPayloadSchema>;

/** Why a call was not put through (the ack of `callUser`). */
export const callRefusals = ['busy', 'unavailable', 'glare', 'refused'] as const;
export type CallRefusal = (typeof callRefusals)[number];

export type VideoAck<T extends object = object> =
  | ({ ok: true } & T)
  | { ok: false; message: string; reason?: CallRefusal };

// --- server → client -------------------------------------------------------------------------------

/** `callUser` to the callee's tabs (SPEC §3 "Call object (video)": from, name, signal). */
export interface CallUserEvent {
  callId: string;
  userToCall: string;
  signalData: VideoSignal;
  /** The caller's user id. */
  from: string;
  /** The caller's display name. */
  name: string;
  avatarUrl: string | null;
}

/** `callAccepted` to the caller's tabs. */
export interface CallAcceptedEvent {
  callId: string;
  signal: VideoSignal;
}

/** `videoCall:signal` to the other party. */
export interface SignalEvent {
  callId: string;
  signal: VideoSignal;
}

/** `videoCall:callDeclined` to the caller. */
export interface CallDeclinedEvent {
  callId: string;
}

/**
 * `videoCall:callCancelled` to the callee's tabs: stop ringing.
 * - cancelled: the caller hung up first; missed: nobody answered in time;
 * - answeredElsewhere / declinedElsewhere: another tab of the callee answered or declined.
 */
export const cancelReasons = ['cancelled', 'missed', 'answeredElsewhere', 'declinedElsewhere'] as const;
export type CancelReason = (typeof cancelReasons)[number];
export interface CallCancelledEvent {
  callId: string;
  reason: CancelReason;
}

/**
 * `videoCall:callEnded` to a party:
 * - noAnswer: (to the caller) the call rang out; hangup: the other party hung up;
 * - lost: the other party's tab went away and did not come back within the grace;
 * - glare: (to the caller) the callee called us at the same moment and their call won.
 */
export const endReasons = ['noAnswer', 'hangup', 'lost', 'glare'] as const;
export type EndReason = (typeof endReasons)[number];
export interface CallEndedEvent {
  callId: string;
  reason: EndReason;
}

// --- the server's record ---------------------------------------------------------------------------

/** A call's server-side state (table video_calls). */
export const videoCallStates = [
  'ringing',
  'accepted',
  'connected',
  'ended',
  'declined',
  'busy',
  'missed',
  'cancelled',
] as const;
export type VideoCallState = (typeof videoCallStates)[number];

// --- messages --------------------------------------------------------------------------------------

export const CALL_SELF_MESSAGE = 'You cannot video call yourself.';
/** A seller whose subscription is blocked has only the subscription page: they take no calls. */
export const BLOCKED_SELLER_CALL_MESSAGE = (name: string) =>
  `${name}’s subscription is blocked: they cannot take calls until it is renewed.`;
/** Why the picker lists a blocked seller without a call button. */
export const BLOCKED_SELLER_PICKER_REASON = 'Subscription blocked: cannot take calls';
/** A user the caller may not call answers like one who does not exist: no oracle of who is there. */
export const NO_SUCH_PERSON_MESSAGE = 'There is no one to call with this id.';
export const ALREADY_IN_CALL_MESSAGE = 'You are already in a call. End it before starting another.';
export const BUSY_MESSAGE = (name: string) => `${name} is in another call.`;
export const UNAVAILABLE_MESSAGE = (name: string) =>
  `${name} is not online right now. They will see that you called.`;
export const GLARE_MESSAGE = (name: string) => `${name} is calling you at the same moment: take their call.`;
export const CALL_IN_USE_MESSAGE = 'A call with this callId already exists.';
export const CALL_GONE_MESSAGE = 'This call has ended.';
export const ANSWERED_ELSEWHERE_MESSAGE = 'This call was answered in another tab.';
export const NOT_YOUR_CALL_MESSAGE = 'This call is not yours.';
export const VIDEO_RATE_LIMITED_MESSAGE =
  'Too many calls in a short time. Wait a few seconds and call again.';

// --- the people one may call (the header's picker) ------------------------------------------------

export const VIDEO_PEOPLE_PATH = '/api/v1/videoCalls/method/listPeople';
export const VIDEO_PEOPLE_PAGE_SIZE = 20;
export const VIDEO_PEOPLE_MAX_LIMIT = 50;

export const videoPeopleQuerySchema = z.object({
  /** Name or e-mail; case-insensitive, partial. */
  search: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(VIDEO_PEOPLE_MAX_LIMIT).default(VIDEO_PEOPLE_PAGE_SIZE),
});
export type VideoPeopleQuery = z.input<typeof videoPeopleQuerySchema>;

export const videoPersonSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['Admin', 'Staff', 'Seller']),
  avatarUrl: z.string().nullable(),
  /** Has a signed-in tab right now (a socket in their user room, on any instance). */
  online: z.boolean(),
  /**
   * A seller whose subscription is blocked (and who is not new): listed, so a search for them finds them
   * and says why, but not callable (the server refuses the call too).
   */
  blocked: z.boolean(),
});
export type VideoPerson = z.infer<typeof videoPersonSchema>;

export const videoPeopleResponseSchema = z.object({
  data: z.object({ result: z.array(videoPersonSchema), count: z.number().int() }),
});
export type VideoPeopleResponse = z.infer<typeof videoPeopleResponseSchema>;

// --- live presence (the picker, while it is open) ---------------------------------------------------

/** The room a watcher's socket joins to hear one person's presence. */
export function presenceRoom(userId: string): string {
  return `presence:${userId}`;
}

/** `videoCall:watchPresence`: the people on the picker's page (replaces what the socket watched). */
export const watchPresencePayloadSchema = z.object({
  userIds: z
    .array(z.string().uuid('userIds must be user ids'))
    .max(VIDEO_PEOPLE_MAX_LIMIT, `Watch at most ${VIDEO_PEOPLE_MAX_LIMIT} people at once`),
});
export type WatchPresencePayload = z.input<typeof watchPresencePayloadSchema>;
/** The acknowledgement of `videoCall:watchPresence`: who of them is online right now. */
export interface WatchPresenceAck {
  online: string[];
}

/** `videoCall:presence` to the sockets watching the person. */
export interface PresenceEvent {
  userId: string;
  online: boolean;
}

/** The missed-call notification's title (the body names the caller). */
export const MISSED_VIDEO_CALL_TITLE = 'Missed video call';

// --- ICE servers (STUN/TURN) -----------------------------------------------------------------------

/** GET: the ICE servers for the signed-in user's calls (ICE_SERVERS, TURN credentials minted per user). */
export const ICE_SERVERS_PATH = '/api/v1/globalConfigs/iceServers';

const iceUrlSchema = z
  .string()
  .regex(/^(stun|stuns|turn|turns):[^\s]+$/, 'ICE server URLs start with stun:, stuns:, turn: or turns:');

/** One RTCIceServer as ICE_SERVERS lists it (and the browser's RTCPeerConnection takes it). */
export const iceServerSchema = z
  .object({
    urls: z.union([iceUrlSchema, z.array(iceUrlSchema).min(1).max(10)]),
    username: z.string().max(512).optional(),
    credential: z.string().max(512).optional(),
  })
  .strict();
export type IceServer = z.infer<typeof iceServerSchema>;

export const iceServersResponseSchema = z.object({
  data: z.object({
    iceServers: z.array(iceServerSchema),
    /** Epoch ms when minted TURN credentials expire (the browser asks again before a call after it); null: none minted. */
    expiresAt: z.number().nullable(),
  }),
});
export type IceServersResponse = z.infer<typeof iceServersResponseSchema>['data'];
