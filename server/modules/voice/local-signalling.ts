// The local voice provider's signalling (issue 6; contracts/voice-signalling.ts): registers voice
// devices, rings the owner of a dialled number and relays offers, answers and ICE candidates between
// the two parties' device rooms. Calls need no shared state across instances: every event after the
// dial carries a signed call ticket naming both parties. What each socket keeps in memory (the calls
// it is party to, and whether they were answered) only chooses why a call ended: when its socket
// goes away, and whether a caller's hang-up cancels or ends the call.
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { decodeJwt } from 'jose';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import { phoneDigits } from '../../../contracts/calls';
import {
  type AcceptedCallEvent,
  type Ack,
  acceptPayloadSchema,
  CALL_YOURSELF_MESSAGE,
  CALLEE_BUSY_MESSAGE,
  CALLEE_UNAVAILABLE_MESSAGE,
  type CallEndReason,
  DEVICE_NOT_REGISTERED_MESSAGE,
  DEVICE_REPLACED_MESSAGE,
  DIAL_RATE_LIMITED_MESSAGE,
  dialPayloadSchema,
  type EndedCallEvent,
  INVALID_TICKET_MESSAGE,
  type IncomingCallEvent,
  icePayloadSchema,
  NO_SUCH_NUMBER_MESSAGE,
  type RemoteIceEvent,
  registerPayloadSchema,
  ticketPayloadSchema,
  type UnregisteredEvent,
  VOICE_EVENTS,
  voiceDeviceRoom,
} from '../../../contracts/voice-signalling';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { RateLimiter } from '../../lib/rate-limit';
import type { SignallingServer, SocketData } from '../../realtime/signalling';
import { onAcknowledged } from '../../realtime/socket-acks';
import { displayName } from '../users/current-user';
import { isAnswered, liveCallsOf } from '../video-calls/repository';
import { mayCall } from './call-policy';
import { ensureUserNumber, findNumberOwner } from './phone-numbers';
import { displayNumber } from './routes';
import { type CallTicket, VoiceTokenError, type VoiceTokenService } from './voice-tokens';

// biome-ignore lint/suspicious/noExplicitAny: the signalling server's events are untyped (signalling.ts)
type AnyEvents = Record<string, (...args: any[]) => void>;
type VoiceSocket = Socket<AnyEvents, AnyEvents, AnyEvents, SocketData>;

export const DIAL_LIMIT = { limit: 10, windowMs: 10_000 };
export const NOT_YOUR_VOICE_TOKEN_MESSAGE = 'This voice token belongs to another user.';
export const CALL_IN_PROGRESS_MESSAGE = 'A call with this callSid is already in progress.';
const FAILED_MESSAGE = 'Something went wrong with the call. Try again.';

/** A call this socket is party to, as far as this instance has seen. */
interface CallRecord {
  role: 'caller' | 'callee';
  peerId: string;
  accepted: boolean;
}

export interface LocalSignallingOptions {
  db: Db;
  voiceTokens: VoiceTokenService;
  log: FastifyBaseLogger;
  /** Dials per user (DIAL_LIMIT), counted by every instance together when they share Redis. */
  dialLimiter: RateLimiter;
}

function failure(message: string): Ack {
  return { ok: false, message };
}

export function attachLocalSignalling(io: SignallingServer, options: LocalSignallingOptions): void {
  const { db, voiceTokens, log, dialLimiter } = options;

  io.on('connection', (socket: VoiceSocket) => {
    const userId = socket.data.user.id;
    const deviceRoom = voiceDeviceRoom(userId);
    const calls = new Map<string, CallRecord>();

    // Events reach this socket through its device room, from this instance or another one: watching
    // what it is sent keeps the bookkeeping right without shared state.
    socket.onAnyOutgoing((event: string, payload: unknown) => {
      if (event === VOICE_EVENTS.incoming) {
        const incoming = payload as IncomingCallEvent;
        // The ticket is the server's own, just signed: decoding is enough to learn the caller.
        const callerId = decodeJwt(incoming.ticket).sub;
        if (callerId) calls.set(incoming.callSid, { role: 'callee', peerId: callerId, accepted: false });
      } else if (event === VOICE_EVENTS.accepted) {
        const record = calls.get((payload as AcceptedCallEvent).callSid);
        if (record) record.accepted = true;
      } else if (event === VOICE_EVENTS.ended) {
        calls.delete((payload as EndedCallEvent).callSid);
      }
      countAnswered();
    });

    /** Validates the payload, runs the handler and acknowledges: every client event gets an answer. */
    function handle<S extends z.ZodType>(
      event: string,
      schema: S,
      handler: (payload: z.output<S>) => Promise<Ack>,
    ) {
      onAcknowledged(socket, event, schema, handler, {
        log,
        failedMessage: FAILED_MESSAGE,
        logMessage: 'voice signalling failed',
      });
    }

    /**
     * Keeps `socket.data.voiceCallsInProgress` (answered calls of this socket) in step with `calls`: other
     * features read it across instances (fetchSockets), e.g. a video call to this user answers busy.
     */
    function countAnswered() {
      let answered = 0;
      for (const record of calls.values()) if (record.accepted) answered += 1;
      socket.data.voiceCallsInProgress = answered;
    }

    function end(peerId: string, callSid: string, reason: CallEndReason) {
      calls.delete(callSid);
      countAnswered();
      io.to(voiceDeviceRoom(peerId)).emit(VOICE_EVENTS.ended, { callSid, reason } satisfies EndedCallEvent);
    }

    /** Ends every call of this socket: its device is going away. */
    function endAll() {
      for (const [callSid, record] of [...calls]) {
        const reason: CallEndReason = record.accepted
          ? 'hangup'
          : record.role === 'callee'
            ? 'unavailable'
            : 'cancelled';
        end(record.peerId, callSid, reason);
      }
    }

    /** The ticket's statement when it is valid and names this socket's user (as callee, if asked). */
    async function ticketOf(ticket: string, as: 'callee' | 'party'): Promise<CallTicket | null> {
      const call = await voiceTokens.verifyTicket(ticket);
      if (!call) return null;
      if (call.calleeId === userId) return call;
      return as === 'party' && call.callerId === userId ? call : null;
    }

    handle(VOICE_EVENTS.register, registerPayloadSchema, async ({ token }) => {
      let owner: string;
      try {
        owner = await voiceTokens.verifyVoiceToken(token);
      } catch (error) {
        if (error instanceof VoiceTokenError) return failure(error.message);
        throw error;
      }
      if (owner !== userId) return failure(NOT_YOUR_VOICE_TOKEN_MESSAGE);
      const phoneNumber = displayNumber(await ensureUserNumber(db, userId));
      // The last registration wins: older devices of the user (any tab, any instance) stop ringing.
      const others = io.to(deviceRoom).except(socket.id);
      others.emit(VOICE_EVENTS.unregistered, {
        message: DEVICE_REPLACED_MESSAGE,
      } satisfies UnregisteredEvent);
      others.socketsLeave(deviceRoom);
      await socket.join(deviceRoom);
      return { ok: true, phoneNumber };
    });

    handle(VOICE_EVENTS.unregister, ticketlessSchema, async () => {
      await socket.leave(deviceRoom);
      endAll();
      return { ok: true };
    });

    handle(VOICE_EVENTS.dial, dialPayloadSchema, async ({ callSid, to, offer }) => {
      if (!socket.rooms.has(deviceRoom)) return failure(DEVICE_NOT_REGISTERED_MESSAGE);
      if (!(await dialLimiter.hit(userId))) return failure(DIAL_RATE_LIMITED_MESSAGE);
      if (calls.has(callSid)) return failure(CALL_IN_PROGRESS_MESSAGE);
      const callee = await findNumberOwner(db, phoneDigits(to));
      // A number this user may not call answers like one nobody owns: no oracle of who has a number.
      if (!callee || !mayCall(socket.data.user.role, callee.role)) return failure(NO_SUCH_NUMBER_MESSAGE(to));
      if (callee.id === userId) return failure(CALL_YOURSELF_MESSAGE);
      if (!callee.isActive) return failure(CALLEE_UNAVAILABLE_MESSAGE);
      const calleeRoom = voiceDeviceRoom(callee.id);
      if ((await io.in(calleeRoom).fetchSockets()).length === 0) return failure(CALLEE_UNAVAILABLE_MESSAGE);
      // In a video call (answered, on any instance: the calls are rows): busy, rather than a ring the
      // callee's tab would have to turn down.
      const liveVideo = await liveCallsOf(db, [callee.id]);
      if (liveVideo.some((call) => isAnswered(call.state))) return failure(CALLEE_BUSY_MESSAGE);

      const caller = await findCaller(db, userId);
      const callerNumber = displayNumber(caller.phone);
      const ticket = await voiceTokens.signTicket({
        callSid,
        callerId: userId,
        calleeId: callee.id,
        callerNumber,
      });
      calls.set(callSid, { role: 'caller', peerId: callee.id, accepted: false });
      io.to(calleeRoom).emit(VOICE_EVENTS.incoming, {
        callSid,
        ticket,
        from: callerNumber,
        fromName: caller.name,
        offer,
      } satisfies IncomingCallEvent);
      return { ok: true, ticket };
    });

    handle(VOICE_EVENTS.accept, acceptPayloadSchema, async ({ ticket, answer }) => {
      const call = await ticketOf(ticket, 'callee');
      const record = call && calls.get(call.callSid);
      // Only the device that is ringing answers, and only while it rings.
      if (!call || !record) return failure(INVALID_TICKET_MESSAGE);
      record.accepted = true;
      countAnswered();
      io.to(voiceDeviceRoom(call.callerId)).emit(VOICE_EVENTS.accepted, {
        callSid: call.callSid,
        answer,
      } satisfies AcceptedCallEvent);
      return { ok: true };
    });

    for (const [event, reason] of [
      [VOICE_EVENTS.reject, 'rejected'],
      [VOICE_EVENTS.ignore, 'ignored'],
    ] as const) {
      handle(event, ticketPayloadSchema, async ({ ticket }) => {
        const call = await ticketOf(ticket, 'callee');
        if (!call || !calls.has(call.callSid)) return failure(INVALID_TICKET_MESSAGE);
        end(call.callerId, call.callSid, reason);
        return { ok: true };
      });
    }

    handle(VOICE_EVENTS.hangup, ticketPayloadSchema, async ({ ticket }) => {
      const call = await ticketOf(ticket, 'party');
      if (!call) return failure(INVALID_TICKET_MESSAGE);
      const isCaller = call.callerId === userId;
      const answered = calls.get(call.callSid)?.accepted === true;
      end(
        isCaller ? call.calleeId : call.callerId,
        call.callSid,
        isCaller && !answered ? 'cancelled' : 'hangup',
      );
      return { ok: true };
    });

    handle(VOICE_EVENTS.ice, icePayloadSchema, async ({ ticket, candidate }) => {
      const call = await ticketOf(ticket, 'party');
      if (!call) return failure(INVALID_TICKET_MESSAGE);
      const peerId = call.callerId === userId ? call.calleeId : call.callerId;
      io.to(voiceDeviceRoom(peerId)).emit(VOICE_EVENTS.remoteIce, {
        callSid: call.callSid,
        candidate,
      } satisfies RemoteIceEvent);
      return { ok: true };
    });

    socket.on('disconnect', () => endAll());
  });
}

/** `voice:unregister` carries nothing (or anything): only the acknowledgement matters. */
const ticketlessSchema = z.unknown();

async function findCaller(db: Db, userId: string): Promise<{ name: string; phone: string }> {
  const phone = await ensureUserNumber(db, userId);
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return { name: row ? displayName(row.firstName, row.lastName, row.email) : '', phone };
}
