// The events of a call once placed (signalling.ts): answer, decline, hang up, connected, the peers'
// signals, a rejoin after a reconnect, and the grace of a socket that drops. Every change is a
// conditional update: when another change won the race, the call is read again.
import type { z } from 'zod';
import {
  ALREADY_IN_CALL_MESSAGE,
  ANSWERED_ELSEWHERE_MESSAGE,
  type answerCallPayloadSchema,
  CALL_GONE_MESSAGE,
  type CallAcceptedEvent,
  type callIdPayloadSchema,
  type declinePayloadSchema,
  VIDEO_CALL_EVENTS as E,
  NOT_YOUR_CALL_MESSAGE,
  type SignalEvent,
  type signalPayloadSchema,
  videoCallRoom,
} from '../../../../contracts/video-calls';
import {
  advanceVideoCall,
  findVideoCall,
  isAnswered,
  isFinal,
  liveCallsOf,
  lockUsers,
  ringingCallBetween,
  type VideoCall,
} from '../repository';
import { end, ringOut, watchPresence } from './ending';
import { callCancelled, callDeclined, callEnded, toUser } from './notices';
import {
  type Ack,
  NOT_ANSWERED_YET_MESSAGE,
  ok,
  ROOM_PREFIX,
  refused,
  type SocketContext,
  sqlNow,
  VIDEO_SIGNAL_RATE_LIMITED_MESSAGE,
} from './state';
import { cancel, ringKey } from './timers';

const isParty = ({ me }: SocketContext, call: VideoCall) => call.callerId === me || call.calleeId === me;
const otherParty = ({ me }: SocketContext, call: VideoCall) =>
  call.callerId === me ? call.calleeId : call.callerId;

export async function answerCall(
  side: SocketContext,
  { callId: sentId, to, signal }: z.output<typeof answerCallPayloadSchema>,
): Promise<Ack> {
  const { calls, socket, me } = side;
  let callId = sentId ?? '';
  const ack = await calls.db.transaction(async (tx): Promise<Ack> => {
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
  cancel(calls, ringKey(callId));
  await socket.join(videoCallRoom(callId));
  toUser(calls, to).emit(E.callAccepted, { callId, signal } satisfies CallAcceptedEvent);
  callCancelled(calls, me, callId, 'answeredElsewhere', socket.id);
  return ok();
}

/** The callee turns a ringing call down (declined, or busy when their tab is on another call). */
async function turnDown(side: SocketContext, call: VideoCall, busy: boolean): Promise<boolean> {
  const { calls, socket, me } = side;
  const ended = await end(calls, call, ['ringing'], busy ? 'busy' : 'declined', busy ? 'busy' : 'declined');
  if (!ended) return false;
  callDeclined(calls, call.callerId, call.id);
  callCancelled(calls, me, call.id, 'declinedElsewhere', socket.id);
  return true;
}

/**
 * Reads the call and acts on it; when another change won the race in between (the conditional
 * update changed nothing), reads it again. `act` answers null to try again.
 */
async function withCall(
  side: SocketContext,
  callId: string,
  act: (call: VideoCall) => Promise<Ack | null>,
): Promise<Ack> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const call = await findVideoCall(side.calls.db, callId);
    if (!call) return refused(CALL_GONE_MESSAGE);
    if (!isParty(side, call)) return refused(NOT_YOUR_CALL_MESSAGE);
    const ack = await act(call);
    if (ack) return ack;
  }
  throw new Error(`video call ${callId} kept changing`);
}

export function decline(side: SocketContext, { callId, busy }: z.output<typeof declinePayloadSchema>) {
  return withCall(side, callId, async (call) => {
    if (call.calleeId !== side.me) return refused(NOT_YOUR_CALL_MESSAGE);
    if (isAnswered(call.state)) return refused(ANSWERED_ELSEWHERE_MESSAGE);
    if (isFinal(call.state)) return ok();
    if (call.rangOut) return ringOut(side.calls, callId).then(ok);
    return (await turnDown(side, call, busy === true)) ? ok() : null;
  });
}

export function hangup(side: SocketContext, { callId }: z.output<typeof callIdPayloadSchema>) {
  const { calls } = side;
  return withCall(side, callId, async (call) => {
    if (isFinal(call.state)) return ok(); // already over: hanging up again is fine
    if (call.state === 'ringing') {
      if (call.rangOut) return ringOut(calls, callId).then(ok);
      // The callee hanging up a call that rings is declining it.
      if (call.calleeId === side.me) return (await turnDown(side, call, false)) ? ok() : null;
      if (!(await end(calls, call, ['ringing'], 'cancelled', 'hangup'))) return null;
      callCancelled(calls, call.calleeId, callId, 'cancelled');
      return ok();
    }
    if (!(await end(calls, call, ['accepted', 'connected'], 'ended', 'hangup'))) return null;
    callEnded(calls, otherParty(side, call), callId, 'hangup');
    return ok();
  });
}

export function connected(side: SocketContext, { callId }: z.output<typeof callIdPayloadSchema>) {
  return withCall(side, callId, async (call) => {
    if (call.state === 'connected') return ok();
    if (call.state === 'ringing' && !call.rangOut) return refused(NOT_ANSWERED_YET_MESSAGE);
    if (call.state !== 'accepted') return refused(CALL_GONE_MESSAGE);
    const moved = await advanceVideoCall(side.calls.db, callId, ['accepted'], {
      state: 'connected',
      connectedAt: sqlNow,
    });
    return moved ? ok() : null;
  });
}

/** The call for a signal or a rejoin: this user's, and not over; else the refusal. */
async function liveCallOf(side: SocketContext, callId: string): Promise<VideoCall | Ack> {
  const call = await findVideoCall(side.calls.db, callId);
  if (!call) return refused(CALL_GONE_MESSAGE);
  if (!isParty(side, call)) return refused(NOT_YOUR_CALL_MESSAGE);
  if (isFinal(call.state) || (call.state === 'ringing' && call.rangOut)) return refused(CALL_GONE_MESSAGE);
  return call;
}

export async function relaySignal(
  side: SocketContext,
  { callId, signal }: z.output<typeof signalPayloadSchema>,
): Promise<Ack> {
  if (!(await side.calls.signalLimiter.hit(side.me))) return refused(VIDEO_SIGNAL_RATE_LIMITED_MESSAGE);
  const call = await liveCallOf(side, callId);
  if ('ok' in call) return call;
  // While it rings only the caller speaks (trickled candidates, to every tab of the callee); the
  // callee's first word is its answer, `answerCall`.
  if (call.state === 'ringing' && call.calleeId === side.me) return refused(NOT_ANSWERED_YET_MESSAGE);
  toUser(side.calls, otherParty(side, call)).emit(E.signal, { callId, signal } satisfies SignalEvent);
  return ok();
}

export async function rejoin(
  side: SocketContext,
  { callId }: z.output<typeof callIdPayloadSchema>,
): Promise<Ack> {
  const call = await liveCallOf(side, callId);
  if ('ok' in call) return call;
  // A callee's tab that rings has nothing to rejoin: answering is what puts it in the call.
  if (call.state === 'ringing' && call.calleeId === side.me) return { ok: true, state: call.state };
  // A grace timer of the dropped socket (here or on another instance) finds this one in the room.
  await side.socket.join(videoCallRoom(callId));
  return { ok: true, state: call.state };
}

/** The rooms are still there while the socket disconnects: each call it was in gets the grace. */
export function disconnecting({ calls, socket, me }: SocketContext) {
  for (const room of socket.rooms)
    if (room.startsWith(ROOM_PREFIX)) watchPresence(calls, room.slice(ROOM_PREFIX.length), me);
}
