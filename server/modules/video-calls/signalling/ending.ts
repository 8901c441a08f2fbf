// How calls end on this instance (signalling.ts): the conditional end that one racer wins, the ring
// timeout, the grace a party gets after their socket drops, and the sweep for calls nobody ends.
import type { VideoCallState } from '../../../../contracts/video-calls';
import { videoCallRoom } from '../../../../contracts/video-calls';
import type { NotificationRow } from '../../notifications/repository';
import {
  answeredCalls,
  endVideoCallIn,
  type FinalState,
  findVideoCall,
  isFinal,
  partiesOf,
  rangOutCalls,
  type VideoCallRow,
} from '../repository';
import { callCancelled, callEnded } from './notices';
import { type CallsState, ROOM_PREFIX } from './state';
import { cancel, graceKey, later, ringKey, track } from './timers';

/** How long past its deadline a ringing row waits for its own instance's timer before the sweep ends it. */
const SWEEP_SLACK_MS = 2000;
const SWEEP_BATCH = 200;

type CallParties = { id: string; callerId: string; calleeId: string };

/** After a call's final state is committed: its timers stop, its room empties, the notice goes out. */
export function afterEnd(calls: CallsState, callId: string, notice: NotificationRow | null) {
  cancel(calls, ringKey(callId));
  calls.io.in(videoCallRoom(callId)).socketsLeave(videoCallRoom(callId));
  if (notice) publishNotice(calls, notice);
}

export function publishNotice(calls: CallsState, notice: NotificationRow) {
  track(calls, () => calls.notifications.publish(notice), 'publishing a missed-call notification');
}

/**
 * Ends a call that is in one of `from` and records it (logs, notification) in one transaction. Null
 * when the call had already left those states: someone else's change won.
 */
export async function end(
  calls: CallsState,
  call: CallParties,
  from: readonly VideoCallState[],
  state: FinalState,
  endReason: string,
): Promise<VideoCallRow | null> {
  const parties = await partiesOf(calls.db, call);
  const ended = await calls.db.transaction((tx) =>
    endVideoCallIn(tx, call.id, from, { state, endReason }, parties),
  );
  if (!ended) return null;
  afterEnd(calls, call.id, ended.notice);
  return ended.row;
}

/** Nobody answered in time: missed. The caller hears noAnswer, the callee's tabs stop ringing. */
export async function ringOut(calls: CallsState, callId: string) {
  const call = await findVideoCall(calls.db, callId);
  if (call?.state !== 'ringing') return;
  if (!(await end(calls, call, ['ringing'], 'missed', 'timeout'))) return;
  callEnded(calls, call.callerId, callId, 'noAnswer');
  callCancelled(calls, call.calleeId, callId, 'missed');
}

/**
 * A party's socket in the call's room went away: if after the grace no socket of theirs is back in the
 * room (on any instance), the call is over — cancelled while it rang, ended as lost once answered.
 */
export function watchPresence(calls: CallsState, callId: string, userId: string) {
  later(calls, graceKey(callId, userId), calls.settings.rejoinGraceMs, async () => {
    const sockets = await calls.io.in(videoCallRoom(callId)).fetchSockets();
    if (sockets.some((socket) => socket.data.user.id === userId)) return;
    const call = await findVideoCall(calls.db, callId);
    if (!call || isFinal(call.state)) return;
    if (call.state === 'ringing') {
      if (call.rangOut) return ringOut(calls, callId);
      if (call.callerId !== userId) return; // a callee is never in the room while it rings
      if (await end(calls, call, ['ringing'], 'cancelled', 'lost'))
        callCancelled(calls, call.calleeId, callId, 'cancelled');
      return;
    }
    if (await end(calls, call, ['accepted', 'connected'], 'ended', 'lost'))
      callEnded(calls, userId === call.callerId ? call.calleeId : call.callerId, callId, 'lost');
  });
}

/** The grace for a party, unless a grace timer already watches them. */
function watchParty(calls: CallsState, callId: string, party: string) {
  if (!calls.timers.has(graceKey(callId, party))) watchPresence(calls, callId, party);
}

/** Both parties of each call get the grace. */
export function watchParties(calls: CallsState, absent: CallParties[]) {
  for (const call of absent)
    for (const party of [call.callerId, call.calleeId]) watchParty(calls, call.id, party);
}

/** Answered calls where a party has no socket in the room get the same grace as a dropped socket. */
async function watchAbsentParties(calls: CallsState, answered: CallParties[]) {
  if (answered.length === 0) return;
  const sockets = await calls.io.in(answered.map((call) => videoCallRoom(call.id))).fetchSockets();
  const present = new Set<string>();
  for (const socket of sockets)
    for (const room of socket.rooms)
      if (room.startsWith(ROOM_PREFIX)) present.add(`${room}|${socket.data.user.id}`);
  for (const call of answered)
    for (const party of [call.callerId, call.calleeId])
      if (!present.has(`${videoCallRoom(call.id)}|${party}`)) watchParty(calls, call.id, party);
}

/** Ends what rang out with nobody's timer, and watches answered calls a party is missing from. */
export async function sweep(calls: CallsState) {
  for (const id of await rangOutCalls(calls.db, SWEEP_SLACK_MS, SWEEP_BATCH)) await ringOut(calls, id);
  await watchAbsentParties(calls, await answeredCalls(calls.db, SWEEP_BATCH));
}
