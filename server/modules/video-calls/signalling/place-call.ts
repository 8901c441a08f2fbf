// `callUser` (signalling.ts): checks who may call whom, then places the call in one transaction —
// refused, ended at once (busy, missed), or ringing with its ring timer here.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { userRoom } from '../../../../contracts/socket-events';
import {
  ALREADY_IN_CALL_MESSAGE,
  BLOCKED_SELLER_CALL_MESSAGE,
  BUSY_MESSAGE,
  CALL_IN_USE_MESSAGE,
  CALL_SELF_MESSAGE,
  type CallUserEvent,
  type callUserPayloadSchema,
  VIDEO_CALL_EVENTS as E,
  GLARE_MESSAGE,
  NO_SUCH_PERSON_MESSAGE,
  UNAVAILABLE_MESSAGE,
  VIDEO_RATE_LIMITED_MESSAGE,
  type VideoCallState,
  videoCallRoom,
} from '../../../../contracts/video-calls';
import type { Tx } from '../../../db/client';
import { isUniqueViolation } from '../../../lib/pg-errors';
import type { NotificationRow } from '../../notifications/repository';
import { mayCall } from '../../voice/call-policy';
import {
  endVideoCallIn,
  findParties,
  insertVideoCall,
  isAnswered,
  liveCallsOf,
  lockUsers,
  type Parties,
  recordEnd,
  type VideoCall,
  type VideoCallRow,
  videoCallExists,
  withNumbers,
} from '../repository';
import { afterEnd, publishNotice, ringOut, watchParties } from './ending';
import { isBlockedCallee, mayMakeCalls } from './may-call';
import { callCancelled, callEnded, toUser } from './notices';
import { type Ack, refused, type SocketContext, VIDEO_CALLS_NOT_ALLOWED_MESSAGE } from './state';
import { later, ringKey } from './timers';

type Placed =
  | { ack: Ack; check?: VideoCall[] }
  | {
      state: VideoCallState;
      glareEnded: VideoCallRow | null;
      notices: NotificationRow[];
      check: VideoCall[];
    };

/** What the transaction needs to know, read before it. */
interface CallAttempt {
  callId: string;
  me: string;
  callee: { id: string; name: string };
  parties: Parties;
  /** The callee has a socket on some instance. */
  online: boolean;
  /** One of the callee's sockets is on a voice call. */
  onVoiceCall: boolean;
}

export async function callUser(
  side: SocketContext,
  { callId: sentId, userToCall, signalData }: z.output<typeof callUserPayloadSchema>,
): Promise<Ack> {
  const { calls, socket, me } = side;
  const { db, io } = calls;
  // A client speaking only the SPEC's fields sends no id: the server makes it (and acknowledges it).
  const callId = sentId ?? randomUUID();
  if (!(await calls.callLimiter.hit(me))) return refused(VIDEO_RATE_LIMITED_MESSAGE);
  if (userToCall === me) return refused(CALL_SELF_MESSAGE);
  if (!(await mayMakeCalls(db, socket.data.user))) return refused(VIDEO_CALLS_NOT_ALLOWED_MESSAGE, 'refused');
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
  const attempt: CallAttempt = {
    callId,
    me,
    callee,
    parties,
    online: calleeSockets.length > 0,
    onVoiceCall: calleeSockets.some((found) => (found.data.voiceCallsInProgress ?? 0) > 0),
  };

  let outcome: Placed;
  try {
    outcome = await db.transaction((tx) => placeCall(tx, side, attempt));
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
  watchParties(calls, absent);
  if ('ack' in outcome) return outcome.ack;

  if (outcome.glareEnded) {
    const glare = outcome.glareEnded;
    afterEnd(calls, glare.id, null);
    callEnded(calls, glare.callerId, glare.id, 'glare');
    callCancelled(calls, glare.calleeId, glare.id, 'cancelled');
  }
  for (const notice of outcome.notices) publishNotice(calls, notice);
  if (outcome.state === 'busy') return refused(BUSY_MESSAGE(callee.name), 'busy');
  if (outcome.state === 'missed') return refused(UNAVAILABLE_MESSAGE(callee.name), 'unavailable');

  await socket.join(videoCallRoom(callId));
  // `from` and `name` are the server's: whatever the payload said is ignored.
  toUser(calls, callee.id).emit(E.callUser, {
    callId,
    userToCall: callee.id,
    signalData,
    from: me,
    name: caller.name,
    avatarUrl: caller.avatarUrl,
  } satisfies CallUserEvent);
  later(calls, ringKey(callId), calls.settings.ringTimeoutMs, () => ringOut(calls, callId));
  return { ok: true, callId };
}

/** The call's row, decided under both users' locks: refused, busy, missed, or ringing. */
async function placeCall(tx: Tx, side: SocketContext, attempt: CallAttempt): Promise<Placed> {
  const { callId, me, callee, parties } = attempt;
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
  const state: VideoCallState = !attempt.online
    ? 'missed'
    : calleeInCall.length > 0 || attempt.onVoiceCall
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
    side.calls.settings.ringTimeoutMs,
  );
  if (state !== 'ringing') {
    const notice = await recordEnd(tx, row, parties);
    if (notice) notices.push(notice);
  }
  return { state, glareEnded, notices, check: calleeInCall };
}
