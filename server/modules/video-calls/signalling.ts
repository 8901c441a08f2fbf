// Video calls on the signalling server (issue 13; contracts/video-calls.ts). Calls are the server's
// records (table video_calls), addressed to users — every event goes to a user's room, so it reaches
// all their tabs on any instance — never to a socket.id. The socket of the caller and the socket of the
// callee that answered join the call's room: that is how the server knows, across instances, whether a
// party is still there after their socket drops (they come back with `videoCall:rejoin`).
//
// What is per instance: the ring timer of a call rung from here, the grace timers of sockets that
// dropped here, and the sweep. Every state change is a conditional UPDATE, so when two instances (or two
// tabs) race, one wins and the other changes nothing; a ringing row whose instance died is over for every
// check once its ring_deadline passes, and the sweep ends it.
//
// The pieces live beside this file, each around the instance's explicit state (signalling/state.ts):
// timers.ts (ring and grace timers, background work), notices.ts (what the parties are told),
// ending.ts (ending a call, the grace, the sweep), place-call.ts (`callUser`) and call-events.ts (the
// events of a placed call). This file wires them to the signalling server.
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  answerCallPayloadSchema,
  callIdPayloadSchema,
  callUserPayloadSchema,
  declinePayloadSchema,
  VIDEO_CALL_EVENTS as E,
  signalPayloadSchema,
  VIDEO_REJOIN_GRACE_MS,
  VIDEO_RING_TIMEOUT_MS,
} from '../../../contracts/video-calls';
import type { Db } from '../../db/client';
import type { RateLimit, RateLimiter } from '../../lib/rate-limit';
import type { SignallingServer } from '../../realtime/signalling';
import { onAcknowledged } from '../../realtime/socket-acks';
import type { Notifications } from '../notifications/service';
import {
  answerCall,
  connected,
  decline,
  disconnecting,
  hangup,
  rejoin,
  relaySignal,
} from './signalling/call-events';
import { sweep } from './signalling/ending';
import { callUser } from './signalling/place-call';
import {
  type Ack,
  type CallsState,
  type SocketContext,
  VIDEO_CALL_FAILED_MESSAGE,
  VIDEO_CALL_LIMIT,
  VIDEO_SIGNAL_LIMIT,
  VIDEO_SWEEP_INTERVAL_MS,
  type VideoCallSettings,
  type VideoSocket,
} from './signalling/state';
import { closeTimers, track } from './signalling/timers';

export { mayMakeCalls } from './signalling/may-call';
export {
  NOT_ANSWERED_YET_MESSAGE,
  VIDEO_CALL_FAILED_MESSAGE,
  VIDEO_CALL_LIMIT,
  VIDEO_CALLS_NOT_ALLOWED_MESSAGE,
  VIDEO_SIGNAL_LIMIT,
  VIDEO_SIGNAL_RATE_LIMITED_MESSAGE,
  VIDEO_SWEEP_INTERVAL_MS,
  type VideoCallSettings,
} from './signalling/state';

export interface VideoCallOptions extends Partial<VideoCallSettings> {
  callLimit?: { limit: number; windowMs: number };
  signalLimit?: { limit: number; windowMs: number };
}

export interface VideoCalls {
  settings: VideoCallSettings;
  /** Ends what rang out with nobody's timer, and watches answered calls a party is missing from. */
  sweep(): Promise<void>;
  /** Sweeps now and every sweepIntervalMs (once the server is up). */
  startSweeping(): void;
  /** Stops every timer and waits for the work under way. */
  close(): Promise<void>;
  /** What this instance is waiting for ('ring:{callId}', 'grace:{callId}:{userId}') or doing: for tests. */
  pending(): { timers: string[]; running: number };
}

export function attachVideoCalls(deps: {
  io: SignallingServer;
  db: Db;
  notifications: Notifications;
  log: FastifyBaseLogger;
  /** Makes the per-user limits, counted across instances when they share Redis (app.createEventLimiter). */
  limiter: (limit: RateLimit & { name: string }) => RateLimiter;
  options?: VideoCallOptions;
}): VideoCalls {
  const { options = {} } = deps;
  const calls: CallsState = {
    io: deps.io,
    db: deps.db,
    notifications: deps.notifications,
    log: deps.log,
    settings: {
      ringTimeoutMs: options.ringTimeoutMs ?? VIDEO_RING_TIMEOUT_MS,
      rejoinGraceMs: options.rejoinGraceMs ?? VIDEO_REJOIN_GRACE_MS,
      sweepIntervalMs: options.sweepIntervalMs ?? VIDEO_SWEEP_INTERVAL_MS,
    },
    callLimiter: deps.limiter({ name: 'video-call', ...(options.callLimit ?? VIDEO_CALL_LIMIT) }),
    signalLimiter: deps.limiter({ name: 'video-signal', ...(options.signalLimit ?? VIDEO_SIGNAL_LIMIT) }),
    timers: new Map(),
    work: new Set(),
    closed: false,
    sweeper: undefined,
  };
  calls.io.on('connection', (socket: VideoSocket) => listen(calls, socket));
  return {
    settings: calls.settings,
    sweep: () => sweep(calls),
    startSweeping() {
      if (calls.closed || calls.sweeper) return;
      track(calls, () => sweep(calls), 'the sweep');
      calls.sweeper = setInterval(() => {
        if (!calls.closed) track(calls, () => sweep(calls), 'the sweep');
      }, calls.settings.sweepIntervalMs);
      calls.sweeper.unref();
    },
    pending: () => ({ timers: [...calls.timers.keys()], running: calls.work.size }),
    close: () => closeTimers(calls),
  };
}

/** A socket's events, each answered with an acknowledgement. */
function listen(calls: CallsState, socket: VideoSocket) {
  const side: SocketContext = { calls, socket, me: socket.data.user.id };
  // One event at a time per socket, in order: a candidate sent right after `answerCall` is relayed
  // after the answer is recorded, not refused because the call still looked like it was ringing.
  const serial = { tail: Promise.resolve() as Promise<unknown> };
  function handle<S extends z.ZodType>(
    event: string,
    schema: S,
    handler: (side: SocketContext, payload: z.output<S>) => Promise<Ack>,
  ) {
    onAcknowledged(socket, event, schema, (payload) => handler(side, payload), {
      log: calls.log,
      failedMessage: VIDEO_CALL_FAILED_MESSAGE,
      logMessage: 'video call signalling failed',
      serial,
    });
  }
  handle(E.callUser, callUserPayloadSchema, callUser);
  handle(E.answerCall, answerCallPayloadSchema, answerCall);
  handle(E.decline, declinePayloadSchema, decline);
  handle(E.hangup, callIdPayloadSchema, hangup);
  handle(E.connected, callIdPayloadSchema, connected);
  handle(E.signal, signalPayloadSchema, relaySignal);
  handle(E.rejoin, callIdPayloadSchema, rejoin);
  socket.on('disconnecting', () => disconnecting(side));
}
