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
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'socket.io';
import type { z } from 'zod';
import { CALL_PERMISSION } from '../../../contracts/calls';
import { userRoom } from '../../../contracts/socket-events';
import {
  ALREADY_IN_CALL_MESSAGE,
  ANSWERED_ELSEWHERE_MESSAGE,
  answerCallPayloadSchema,
  BLOCKED_SELLER_CALL_MESSAGE,
  BUSY_MESSAGE,
  CALL_GONE_MESSAGE,
  CALL_IN_USE_MESSAGE,
  CALL_SELF_MESSAGE,
  type CallAcceptedEvent,
  type CallCancelledEvent,
  type CallDeclinedEvent,
  type CallEndedEvent,
  type CallRefusal,
  type CallUserEvent,
  type CancelReason,
  callIdPayloadSchema,
  callUserPayloadSchema,
  declinePayloadSchema,
  VIDEO_CALL_EVENTS as E,
  type EndReason,
  GLARE_MESSAGE,
  NO_SUCH_PERSON_MESSAGE,
  NOT_YOUR_CALL_MESSAGE,
  type SignalEvent,
  signalPayloadSchema,
  UNAVAILABLE_MESSAGE,
  VIDEO_RATE_LIMITED_MESSAGE,
  VIDEO_REJOIN_GRACE_MS,
  VIDEO_RING_TIMEOUT_MS,
  type VideoCallState,
  videoCallRoom,
} from '../../../contracts/video-calls';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { isUniqueViolation } from '../../lib/pg-errors';
import { createRateLimiter } from '../../lib/rate-limit';
import { isBlockedSeller } from '../../plugins/blocked-seller';
import type { SignallingServer, SocketData } from '../../realtime/signalling';
import { onAcknowledged } from '../../realtime/socket-acks';
import type { TokenUser } from '../auth/tokens';
import type { NotificationRow } from '../notifications/repository';
import type { Notifications } from '../notifications/service';
import { can, effectivePermissions } from '../permissions/service';
import { mayCall } from '../voice/call-policy';
import {
  advanceVideoCall,
  answeredCalls,
  endVideoCallIn,
  type FinalState,
  findParties,
  findVideoCall,
  insertVideoCall,
  isAnswered,
  isFinal,
  liveCallsOf,
  lockUsers,
  partiesOf,
  rangOutCalls,
  recordEnd,
  ringingCallBetween,
  type VideoCall,
  type VideoCallRow,
  videoCallExists,
  withNumbers,
} from './repository';

// biome-ignore lint/suspicious/noExplicitAny: the signalling server's events are untyped (signalling.ts)
type AnyEvents = Record<string, (...args: any[]) => void>;
type VideoSocket = Socket<AnyEvents, AnyEvents, AnyEvents, SocketData>;

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

type Ack =
  | { ok: true; state?: VideoCallState; callId?: string }
  | { ok: false; message: string; reason?: CallRefusal };
const ok = (): Ack => ({ ok: true });
const refused = (message: string, reason?: CallRefusal): Ack =>
  reason ? { ok: false, message, reason } : { ok: false, message };

const ROOM_PREFIX = videoCallRoom('');
const sqlNow = sql`now()`;
/** How long past its deadline a ringing row waits for its own instance's timer before the sweep ends it. */
const SWEEP_SLACK_MS = 2000;
const SWEEP_BATCH = 200;

/** Whether the user may start calls: the calls page's permission, and not a blocked seller. */
export async function mayMakeCalls(db: Db, user: TokenUser): Promise<boolean> {
  const permissions = await effectivePermissions(db, user);
  if (!can(permissions, CALL_PERMISSION.route, CALL_PERMISSION.action)) return false;
  return !(user.role === 'Seller' && user.sellerId && (await isBlockedSeller(db, user.sellerId)));
}

/** Whether the user is a seller whose subscription is blocked: they take no calls either. */
async function isBlockedCallee(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ role: users.role, sellerId: users.sellerId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.role === 'Seller' && row.sellerId !== null && (await isBlockedSeller(db, row.sellerId));
}

export function attachVideoCalls(deps: {
  io: SignallingServer;
  db: Db;
  notifications: Notifications;
  log: FastifyBaseLogger;
  options?: VideoCallOptions;
}): VideoCalls {
  const { io, db, notifications, log, options = {} } = deps;
  const settings: VideoCallSettings = {
    ringTimeoutMs: options.ringTimeoutMs ?? VIDEO_RING_TIMEOUT_MS,
    rejoinGraceMs: options.rejoinGraceMs ?? VIDEO_REJOIN_GRACE_MS,
    sweepIntervalMs: options.sweepIntervalMs ?? VIDEO_SWEEP_INTERVAL_MS,
  };
  // Per instance: behind several instances each counts on its own, which still bounds the rate.
  const callLimiter = createRateLimiter(options.callLimit ?? VIDEO_CALL_LIMIT);
  const signalLimiter = createRateLimiter(options.signalLimit ?? VIDEO_SIGNAL_LIMIT);

  // --- timers and background work -----------------------------------------------------------------
  const timers = new Map<string, NodeJS.Timeout>();
  const work = new Set<Promise<void>>();
  let closed = false;

  function track(task: () => Promise<void>, what: string) {
    const running: Promise<void> = task()
      .catch((error) => log.error({ err: error }, `video calls: ${what} failed`))
      .finally(() => work.delete(running));
    work.add(running);
  }
  function later(key: string, ms: number, task: () => Promise<void>) {
    if (closed) return;
    clearTimeout(timers.get(key));
    const timer = setTimeout(() => {
      timers.delete(key);
      if (!closed) track(task, key);
    }, ms);
    timers.set(key, timer);
  }
  function cancel(key: string) {
    clearTimeout(timers.get(key));
    timers.delete(key);
  }
  const ringKey = (callId: string) => `ring:${callId}`;
  const graceKey = (callId: string, userId: string) => `grace:${callId}:${userId}`;

  // --- what the parties are told ------------------------------------------------------------------
  const toUser = (userId: string) => io.to(userRoom(userId));
  function callEnded(userId: string, callId: string, reason: EndReason) {
    toUser(userId).emit(E.callEnded, { callId, reason } satisfies CallEndedEvent);
  }
  function callCancelled(userId: string, callId: string, reason: CancelReason, exceptSocket?: string) {
    const target = exceptSocket ? toUser(userId).except(exceptSocket) : toUser(userId);
    target.emit(E.callCancelled, { callId, reason } satisfies CallCancelledEvent);
  }
  function callDeclined(userId: string, callId: string) {
    toUser(userId).emit(E.callDeclined, { callId } satisfies CallDeclinedEvent);
  }

  /** After a call's final state is committed: its timers stop, its room empties, the notice goes out. */
  function afterEnd(callId: string, notice: NotificationRow | null) {
    cancel(ringKey(callId));
    io.in(videoCallRoom(callId)).socketsLeave(videoCallRoom(callId));
    if (notice) track(() => notifications.publish(notice), 'publishing a missed-call notification');
  }

  /**
   * Ends a call that is in one of `from` and records it (logs, notification) in one transaction. Null
   * when the call had already left those states: someone else's change won.
   */
  async function end(
    call: { id: string; callerId: string; calleeId: string },
    from: readonly VideoCallState[],
    state: FinalState,
    endReason: string,
  ): Promise<VideoCallRow | null> {
    const parties = await partiesOf(db, call);
    const ended = await db.transaction((tx) =>
      endVideoCallIn(tx, call.id, from, { state, endReason }, parties),
    );
    if (!ended) return null;
    afterEnd(call.id, ended.notice);
    return ended.row;
  }

  /** Nobody answered in time: missed. The caller hears noAnswer, the callee's tabs stop ringing. */
  async function ringOut(callId: string) {
    const call = await findVideoCall(db, callId);
    if (call?.state !== 'ringing') return;
    if (!(await end(call, ['ringing'], 'missed', 'timeout'))) return;
    callEnded(call.callerId, callId, 'noAnswer');
    callCancelled(call.calleeId, callId, 'missed');
  }

  /**
   * A party's socket in the call's room went away: if after the grace no socket of theirs is back in the
   * room (on any instance), the call is over — cancelled while it rang, ended as lost once answered.
   */
  function watchPresence(callId: string, userId: string) {
    later(graceKey(callId, userId), settings.rejoinGraceMs, async () => {
      const sockets = await io.in(videoCallRoom(callId)).fetchSockets();
      if (sockets.some((socket) => socket.data.user.id === userId)) return;
      const call = await findVideoCall(db, callId);
      if (!call || isFinal(call.state)) return;
      if (call.state === 'ringing') {
        if (call.rangOut) return ringOut(callId);
        if (call.callerId !== userId) return; // a callee is never in the room while it rings
        if (await end(call, ['ringing'], 'cancelled', 'lost'))
          callCancelled(call.calleeId, callId, 'cancelled');
        return;
      }
      if (await end(call, ['accepted', 'connected'], 'ended', 'lost'))
        callEnded(userId === call.callerId ? call.calleeId : call.callerId, callId, 'lost');
    });
  }

  /** Answered calls where a party has no socket in the room get the same grace as a dropped socket. */
  async function watchAbsentParties(calls: { id: string; callerId: string; calleeId: string }[]) {
    if (calls.length === 0) return;
    const sockets = await io.in(calls.map((call) => videoCallRoom(call.id))).fetchSockets();
    const present = new Set<string>();
    for (const socket of sockets)
      for (const room of socket.rooms)
        if (room.startsWith(ROOM_PREFIX)) present.add(`${room}|${socket.data.user.id}`);
    for (const call of calls)
      for (const party of [call.callerId, call.calleeId])
        if (!present.has(`${videoCallRoom(call.id)}|${party}`) && !timers.has(graceKey(call.id, party)))
          watchPresence(call.id, party);
  }

  async function sweep() {
    for (const id of await rangOutCalls(db, SWEEP_SLACK_MS, SWEEP_BATCH)) await ringOut(id);
    await watchAbsentParties(await answeredCalls(db, SWEEP_BATCH));
  }
  let sweeper: NodeJS.Timeout | undefined;

  // --- the events -----------------------------------------------------------------------------------
  io.on('connection', (socket: VideoSocket) => {
    const me = socket.data.user.id;
    // One event at a time per socket, in order: a candidate sent right after `answerCall` is relayed
    // after the answer is recorded, not refused because the call still looked like it was ringing.
    const serial = { tail: Promise.resolve() as Promise<unknown> };
    function handle<S extends z.ZodType>(
      event: string,
      schema: S,
      handler: (payload: z.output<S>) => Promise<Ack>,
    ) {
      onAcknowledged(socket, event, schema, handler, {
        log,
        failedMessage: VIDEO_CALL_FAILED_MESSAGE,
        logMessage: 'video call signalling failed',
        serial,
      });
    }
    const isParty = (call: VideoCall) => call.callerId === me || call.calleeId === me;
    const otherParty = (call: VideoCall) => (call.callerId === me ? call.calleeId : call.callerId);

    handle(E.callUser, callUserPayloadSchema, async ({ callId: sentId, userToCall, signalData }) => {
      // A client speaking only the SPEC's fields sends no id: the server makes it (and acknowledges it).
      const callId = sentId ?? randomUUID();
      if (!callLimiter.hit(me)) return refused(VIDEO_RATE_LIMITED_MESSAGE);
      if (userToCall === me) return refused(CALL_SELF_MESSAGE);
      if (!(await mayMakeCalls(db, socket.data.user)))
        return refused(VIDEO_CALLS_NOT_ALLOWED_MESSAGE, 'refused');
      const found = await findParties(db, [me, userToCall]);
      const caller = found.get(me);
      const callee = found.get(userToCall);
      // Someone this user may not call answers like someone who does not exist: no oracle of who is there.
      if (!caller || !callee?.isActive || !mayCall(caller.role, callee.role))
        return refused(NO_SUCH_PERSON_MESSAGE, 'refused');
      // Only admins and staff may call sellers, and they see a seller's subscription anyway: the reason
      // tells them nothing new.
      if (await isBlockedCallee(db, callee.id))
        return refused(BLOCKED_SELLER_CALL_MESSAGE(callee.name), 'refused');
      const parties = await withNumbers(db, found);
      // Who is online, on a voice call, in which call's room: every instance answers (fetchSockets).
      const [callerSockets, calleeSockets] = await Promise.all([
        io.in(userRoom(me)).fetchSockets(),
        io.in(userRoom(callee.id)).fetchSockets(),
      ]);
      const online = calleeSockets.length > 0;
      const onVoiceCall = calleeSockets.some((found) => (found.data.voiceCallsInProgress ?? 0) > 0);

      type Placed =
        | { ack: Ack; check?: VideoCall[] }
        | {
            state: VideoCallState;
            glareEnded: VideoCallRow | null;
            notices: NotificationRow[];
            check: VideoCall[];
          };
      const placeCall = async (tx: Tx): Promise<Placed> => {
        const locked = await lockUsers(tx, [me, callee.id]);
        if (!locked.find((row) => row.id === callee.id)?.isActive)
          return { ack: refused(NO_SUCH_PERSON_MESSAGE, 'refused') };
        if (await videoCallExists(tx, callId)) return { ack: refused(CALL_IN_USE_MESSAGE) };
        const live = await liveCallsOf(tx, [me, callee.id]);
        // Ringing as the caller, or answered on either side (being rung does not count).
        const mine = live.filter(
          (call) => call.callerId === me || (call.calleeId === me && isAnswered(call.state)),
        );
        if (mine.length > 0) return { ack: refused(ALREADY_IN_CALL_MESSAGE), check: mine };
        const notices: NotificationRow[] = [];
        let glareEnded: VideoCallRow | null = null;
        const glare = live.find(
          (call) => call.state === 'ringing' && call.callerId === callee.id && call.calleeId === me,
        );
        if (glare) {
          // Both called each other at once: the lower user id is the polite one and takes the other's
          // call; the other's call ends, and this one goes on.
          if (me < callee.id) return { ack: refused(GLARE_MESSAGE(callee.name), 'glare') };
          const ended = await endVideoCallIn(
            tx,
            glare.id,
            ['ringing'],
            { state: 'cancelled', endReason: 'glare' },
            parties,
          );
          glareEnded = ended?.row ?? null;
        }
        const calleeInCall = live.filter(
          (call) => (call.callerId === callee.id || call.calleeId === callee.id) && isAnswered(call.state),
        );
        const state: VideoCallState = !online
          ? 'missed'
          : calleeInCall.length > 0 || onVoiceCall
            ? 'busy'
            : 'ringing';
        const row = await insertVideoCall(
          tx,
          {
            id: callId,
            callerId: me,
            calleeId: callee.id,
            state,
            endReason: state === 'missed' ? 'offline' : state === 'busy' ? 'busy' : undefined,
          },
          settings.ringTimeoutMs,
        );
        if (state !== 'ringing') {
          const notice = await recordEnd(tx, row, parties);
          if (notice) notices.push(notice);
        }
        return { state, glareEnded, notices, check: calleeInCall };
      };

      let outcome: Placed;
      try {
        outcome = await db.transaction(placeCall);
      } catch (error) {
        // The same callId from elsewhere at the same moment: the primary key decided.
        if (isUniqueViolation(error, 'video_calls_pkey')) return refused(CALL_IN_USE_MESSAGE);
        throw error;
      }

      // Answered calls a party is missing from (their instance stopped): the grace, then they end.
      const absent = (outcome.check ?? []).filter((call) => {
        const sockets = call.callerId === me || call.calleeId === me ? callerSockets : calleeSockets;
        return isAnswered(call.state) && !sockets.some((found) => found.rooms.has(videoCallRoom(call.id)));
      });
      for (const call of absent)
        for (const party of [call.callerId, call.calleeId])
          if (!timers.has(graceKey(call.id, party))) watchPresence(call.id, party);
      if ('ack' in outcome) return outcome.ack;

      if (outcome.glareEnded) {
        const glare = outcome.glareEnded;
        afterEnd(glare.id, null);
        callEnded(glare.callerId, glare.id, 'glare');
        callCancelled(glare.calleeId, glare.id, 'cancelled');
      }
      for (const notice of outcome.notices)
        track(() => notifications.publish(notice), 'publishing a missed-call notification');
      if (outcome.state === 'busy') return refused(BUSY_MESSAGE(callee.name), 'busy');
      if (outcome.state === 'missed') return refused(UNAVAILABLE_MESSAGE(callee.name), 'unavailable');

      await socket.join(videoCallRoom(callId));
      // `from` and `name` are the server's: whatever the payload said is ignored.
      toUser(callee.id).emit(E.callUser, {
        callId,
        userToCall: callee.id,
        signalData,
        from: me,
        name: caller.name,
        avatarUrl: caller.avatarUrl,
      } satisfies CallUserEvent);
      later(ringKey(callId), settings.ringTimeoutMs, () => ringOut(callId));
      return { ok: true, callId };
    });

    handle(E.answerCall, answerCallPayloadSchema, async ({ callId: sentId, to, signal }) => {
      let callId = sentId ?? '';
      const ack = await db.transaction(async (tx): Promise<Ack> => {
        // This user's calls take turns (two tabs answering two calls at once).
        await lockUsers(tx, [me]);
        // The SPEC's answerCall names only the caller: the call ringing from them to this user.
        callId ||= (await ringingCallBetween(tx, to, me)) ?? '';
        const call = callId ? await findVideoCall(tx, callId, true) : undefined;
        if (!call) return refused(CALL_GONE_MESSAGE);
        if (call.calleeId !== me || call.callerId !== to) return refused(NOT_YOUR_CALL_MESSAGE);
        if (isAnswered(call.state)) return refused(ANSWERED_ELSEWHERE_MESSAGE);
        if (call.state !== 'ringing' || call.rangOut) return refused(CALL_GONE_MESSAGE);
        const others = (await liveCallsOf(tx, [me])).filter(
          (other) => other.id !== callId && (other.callerId === me || isAnswered(other.state)),
        );
        if (others.length > 0) return refused(ALREADY_IN_CALL_MESSAGE);
        await advanceVideoCall(tx, callId, ['ringing'], {
          state: 'accepted',
          acceptedBy: socket.id,
          acceptedAt: sqlNow,
        });
        return ok();
      });
      if (!ack.ok) return ack;
      cancel(ringKey(callId));
      await socket.join(videoCallRoom(callId));
      toUser(to).emit(E.callAccepted, { callId, signal } satisfies CallAcceptedEvent);
      callCancelled(me, callId, 'answeredElsewhere', socket.id);
      return ok();
    });

    /** The callee turns a ringing call down (declined, or busy when their tab is on another call). */
    async function decline(call: VideoCall, busy: boolean): Promise<boolean> {
      const ended = await end(call, ['ringing'], busy ? 'busy' : 'declined', busy ? 'busy' : 'declined');
      if (!ended) return false;
      callDeclined(call.callerId, call.id);
      callCancelled(me, call.id, 'declinedElsewhere', socket.id);
      return true;
    }

    /**
     * Reads the call and acts on it; when another change won the race in between (the conditional
     * update changed nothing), reads it again. `act` answers null to try again.
     */
    async function withCall(callId: string, act: (call: VideoCall) => Promise<Ack | null>): Promise<Ack> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const call = await findVideoCall(db, callId);
        if (!call) return refused(CALL_GONE_MESSAGE);
        if (!isParty(call)) return refused(NOT_YOUR_CALL_MESSAGE);
        const ack = await act(call);
        if (ack) return ack;
      }
      throw new Error(`video call ${callId} kept changing`);
    }

    handle(E.decline, declinePayloadSchema, async ({ callId, busy }) =>
      withCall(callId, async (call) => {
        if (call.calleeId !== me) return refused(NOT_YOUR_CALL_MESSAGE);
        if (isAnswered(call.state)) return refused(ANSWERED_ELSEWHERE_MESSAGE);
        if (isFinal(call.state)) return ok();
        if (call.rangOut) return ringOut(callId).then(ok);
        return (await decline(call, busy === true)) ? ok() : null;
      }),
    );

    handle(E.hangup, callIdPayloadSchema, async ({ callId }) =>
      withCall(callId, async (call) => {
        if (isFinal(call.state)) return ok(); // already over: hanging up again is fine
        if (call.state === 'ringing') {
          if (call.rangOut) return ringOut(callId).then(ok);
          // The callee hanging up a call that rings is declining it.
          if (call.calleeId === me) return (await decline(call, false)) ? ok() : null;
          if (!(await end(call, ['ringing'], 'cancelled', 'hangup'))) return null;
          callCancelled(call.calleeId, callId, 'cancelled');
          return ok();
        }
        if (!(await end(call, ['accepted', 'connected'], 'ended', 'hangup'))) return null;
        callEnded(otherParty(call), callId, 'hangup');
        return ok();
      }),
    );

    handle(E.connected, callIdPayloadSchema, async ({ callId }) =>
      withCall(callId, async (call) => {
        if (call.state === 'connected') return ok();
        if (call.state === 'ringing' && !call.rangOut) return refused(NOT_ANSWERED_YET_MESSAGE);
        if (call.state !== 'accepted') return refused(CALL_GONE_MESSAGE);
        const moved = await advanceVideoCall(db, callId, ['accepted'], {
          state: 'connected',
          connectedAt: sqlNow,
        });
        return moved ? ok() : null;
      }),
    );

    handle(E.signal, signalPayloadSchema, async ({ callId, signal }) => {
      if (!signalLimiter.hit(me)) return refused(VIDEO_SIGNAL_RATE_LIMITED_MESSAGE);
      const call = await findVideoCall(db, callId);
      if (!call) return refused(CALL_GONE_MESSAGE);
      if (!isParty(call)) return refused(NOT_YOUR_CALL_MESSAGE);
      if (isFinal(call.state) || (call.state === 'ringing' && call.rangOut))
        return refused(CALL_GONE_MESSAGE);
      // While it rings only the caller speaks (trickled candidates, to every tab of the callee); the
      // callee's first word is its answer, `answerCall`.
      if (call.state === 'ringing' && call.calleeId === me) return refused(NOT_ANSWERED_YET_MESSAGE);
      toUser(otherParty(call)).emit(E.signal, { callId, signal } satisfies SignalEvent);
      return ok();
    });

    handle(E.rejoin, callIdPayloadSchema, async ({ callId }) => {
      const call = await findVideoCall(db, callId);
      if (!call) return refused(CALL_GONE_MESSAGE);
      if (!isParty(call)) return refused(NOT_YOUR_CALL_MESSAGE);
      if (isFinal(call.state) || (call.state === 'ringing' && call.rangOut))
        return refused(CALL_GONE_MESSAGE);
      // A callee's tab that rings has nothing to rejoin: answering is what puts it in the call.
      if (call.state === 'ringing' && call.calleeId === me) return { ok: true, state: call.state };
      // A grace timer of the dropped socket (here or on another instance) finds this one in the room.
      await socket.join(videoCallRoom(callId));
      return { ok: true, state: call.state };
    });

    // The rooms are still there while the socket disconnects: each call it was in gets the grace.
    socket.on('disconnecting', () => {
      for (const room of socket.rooms)
        if (room.startsWith(ROOM_PREFIX)) watchPresence(room.slice(ROOM_PREFIX.length), me);
    });
  });

  return {
    settings,
    sweep,
    startSweeping() {
      if (closed || sweeper) return;
      track(sweep, 'the sweep');
      sweeper = setInterval(() => {
        if (!closed) track(sweep, 'the sweep');
      }, settings.sweepIntervalMs);
      sweeper.unref();
    },
    pending: () => ({ timers: [...timers.keys()], running: work.size }),
    async close() {
      closed = true;
      clearInterval(sweeper);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...work]);
    },
  };
}
