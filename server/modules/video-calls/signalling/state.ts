// The video-call signalling's explicit state (signalling.ts): what one instance holds — its timings,
// rate limiters, the ring and grace timers of calls it watches, and the work under way — plus the
// acknowledgement every handler answers with.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'socket.io';
import type { CallRefusal, VideoCallState } from '../../../../contracts/video-calls';
import { videoCallRoom } from '../../../../contracts/video-calls';
import type { Db } from '../../../db/client';
import type { RateLimiter } from '../../../lib/rate-limit';
import type { SignallingServer, SocketData } from '../../../realtime/signalling';
import type { Notifications } from '../../notifications/service';

// biome-ignore lint/suspicious/noExplicitAny: the signalling server's events are untyped (signalling.ts)
type AnyEvents = Record<string, (...args: any[]) => void>;
export type VideoSocket = Socket<AnyEvents, AnyEvents, AnyEvents, SocketData>;

/** `callUser` per user: a person does not start ten calls in ten seconds (like the voice DIAL_LIMIT). */
export const VIDEO_CALL_LIMIT = { limit: 10, windowMs: 10_000 };
/**
 * `videoCall:signal` per user: a call's setup trickles tens of candidates and a renegotiation a few more;
 * this only stops a client from flooding the other party's tabs (each signal up to MAX_SIGNAL_BYTES).
 */
export const VIDEO_SIGNAL_LIMIT = { limit: 300, windowMs: 10_000 };
/** How often each instance looks for calls nobody ended (their instance stopped). */
export const VIDEO_SWEEP_INTERVAL_MS = 60_000;

export const VIDEO_CALL_FAILED_MESSAGE = 'Something went wrong with the call. Try again.';
export const VIDEO_CALLS_NOT_ALLOWED_MESSAGE = 'You do not have permission to make calls.';
export const NOT_ANSWERED_YET_MESSAGE = 'This call has not been answered yet.';
export const VIDEO_SIGNAL_RATE_LIMITED_MESSAGE = 'Too many call signals in a short time.';

/** The timings, read each time a timer is armed: tests shorten them on a running app. */
export interface VideoCallSettings {
  ringTimeoutMs: number;
  rejoinGraceMs: number;
  sweepIntervalMs: number;
}

/** This instance's video calls: shared by every socket's handlers and the sweep. */
export interface CallsState {
  io: SignallingServer;
  db: Db;
  notifications: Notifications;
  log: FastifyBaseLogger;
  settings: VideoCallSettings;
  /** Per user, counted by every instance together when they share Redis. */
  callLimiter: RateLimiter;
  signalLimiter: RateLimiter;
  /** Ring and grace timers by key ('ring:{callId}', 'grace:{callId}:{userId}'). */
  timers: Map<string, NodeJS.Timeout>;
  /** Timer work and notifications under way, awaited on close. */
  work: Set<Promise<void>>;
  closed: boolean;
  sweeper: NodeJS.Timeout | undefined;
}

/** One socket's side of the events: the instance's state, the socket and its user. */
export interface SocketContext {
  calls: CallsState;
  socket: VideoSocket;
  me: string;
}

export type Ack =
  | { ok: true; state?: VideoCallState; callId?: string }
  | { ok: false; message: string; reason?: CallRefusal };
export const ok = (): Ack => ({ ok: true });
export const refused = (message: string, reason?: CallRefusal): Ack =>
  reason ? { ok: false, message, reason } : { ok: false, message };

export const ROOM_PREFIX = videoCallRoom('');
export const sqlNow = sql`now()`;
