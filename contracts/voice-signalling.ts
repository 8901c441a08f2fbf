// The local voice provider's signalling over socket.io (issue 6): calls between signed-in users of
// this installation, WebRTC audio between their browsers, offers/answers/ICE relayed by the server.
//
// - A tab that holds the user's voice device registers it (`voice:register` with the voice token);
//   the last registration wins: older devices of the same user get `voice:unregistered`.
// - Dialling a number (`voice:dial`) rings the registered device of the user who owns it
//   (`voice:incoming`). The server answers the dial with a call ticket: a signed statement of who
//   calls whom. Every later event of the call carries it, so any server instance can check that the
//   sender is a party to the call and relay to the other one, without shared call state.
// - Events from a client are acknowledged: `{ ok: true, ... }` or `{ ok: false, message }`.
import { z } from 'zod';
import { phoneNumberSchema } from './calls';

export const VOICE_EVENTS = {
  // client → server
  register: 'voice:register',
  unregister: 'voice:unregister',
  dial: 'voice:dial',
  accept: 'voice:accept',
  reject: 'voice:reject',
  ignore: 'voice:ignore',
  hangup: 'voice:hangup',
  ice: 'voice:ice',
  // server → client
  unregistered: 'voice:unregistered',
  incoming: 'voice:incoming',
  accepted: 'voice:accepted',
  ended: 'voice:ended',
  remoteIce: 'voice:remote-ice',
} as const;

/** The room of a user's registered voice device (at most one socket is in it). */
export function voiceDeviceRoom(userId: string): string {
  return `voice-device:${userId}`;
}

/** A session description as RTCPeerConnection makes it (bounded: SDPs are a few kilobytes). */
export const sessionDescriptionSchema = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().min(1).max(20_000),
});
export type SessionDescription = z.infer<typeof sessionDescriptionSchema>;

export const iceCandidateSchema = z.object({
  candidate: z.string().max(2000),
  sdpMid: z.string().max(100).nullable().optional(),
  sdpMLineIndex: z.number().int().min(0).max(100).nullable().optional(),
  usernameFragment: z.string().max(256).nullable().optional(),
});
export type IceCandidate = z.infer<typeof iceCandidateSchema>;

/** A call's id, made by the caller's browser (crypto.randomUUID). */
const callSidSchema = z.string().uuid('callSid must be a UUID');
const ticketSchema = z.string().min(1).max(4000);

export const registerPayloadSchema = z.object({ token: z.string().min(1).max(4000) });
export const dialPayloadSchema = z.object({
  callSid: callSidSchema,
  to: phoneNumberSchema,
  offer: sessionDescriptionSchema,
});
export const acceptPayloadSchema = z.object({
  ticket: ticketSchema,
  answer: sessionDescriptionSchema,
});
/** reject, ignore and hang-up carry only the ticket. */
export const ticketPayloadSchema = z.object({ ticket: ticketSchema });
export const icePayloadSchema = z.object({ ticket: ticketSchema, candidate: iceCandidateSchema });

export type Ack<T extends object = object> = ({ ok: true } & T) | { ok: false; message: string };

/** `voice:incoming`: rings the callee's device. */
export interface IncomingCallEvent {
  callSid: string;
  ticket: string;
  /** The caller's number: the toast shows "From: {from}". */
  from: string;
  fromName: string;
  offer: SessionDescription;
}

/** `voice:accepted`, to the caller. */
export interface AcceptedCallEvent {
  callSid: string;
  answer: SessionDescription;
}

/**
 * `voice:ended`, to the other party: why the call ended on their side.
 * - rejected: the callee rejected; ignored: the callee ignored (the caller gets no answer);
 * - cancelled: the caller hung up before it was answered; hangup: either hung up after it was;
 * - unavailable: the callee's device went away while ringing.
 */
export const callEndReasons = ['rejected', 'ignored', 'cancelled', 'hangup', 'unavailable'] as const;
export type CallEndReason = (typeof callEndReasons)[number];
export interface EndedCallEvent {
  callSid: string;
  reason: CallEndReason;
}

export interface RemoteIceEvent {
  callSid: string;
  candidate: IceCandidate;
}

/** Answers to a dial that rings nobody (the caller's call ends; the log says Not Picked). */
const NO_SUCH_NUMBER_PREFIX = 'No one has the number';
export const NO_SUCH_NUMBER_MESSAGE = (number: string) => `${NO_SUCH_NUMBER_PREFIX} ${number}.`;
export const isNoSuchNumberMessage = (message: string) => message.startsWith(NO_SUCH_NUMBER_PREFIX);
export const CALLEE_UNAVAILABLE_MESSAGE = 'The person you called cannot take calls right now.';
/** The callee is in a video call: the dial answers busy at once (as a busy voice line rejects the call). */
export const CALLEE_BUSY_MESSAGE = 'The person you called is on another call.';
export const DEVICE_NOT_REGISTERED_MESSAGE = 'Your voice device is not registered.';
export const CALL_YOURSELF_MESSAGE = 'You cannot call your own number.';
export const INVALID_TICKET_MESSAGE = 'This call is not yours or has ended.';

/** `voice:unregistered`, to a device replaced by a newer registration of the same user (another tab). */
export interface UnregisteredEvent {
  message: string;
}
export const DEVICE_REPLACED_MESSAGE = 'Your voice device was registered in another tab.';
/** Answers a dial over the per-user limit (a stuck redial loop must not ring someone endlessly). */
export const DIAL_RATE_LIMITED_MESSAGE = 'Too many calls in a short time. Wait a few seconds and dial again.';
