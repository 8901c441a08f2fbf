// What the parties are told (signalling.ts): every event goes to a user's room, so it reaches all
// their tabs on any instance.
import { userRoom } from '../../../../contracts/socket-events';
import {
  type CallCancelledEvent,
  type CallDeclinedEvent,
  type CallEndedEvent,
  type CancelReason,
  VIDEO_CALL_EVENTS as E,
  type EndReason,
} from '../../../../contracts/video-calls';
import type { CallsState } from './state';

export const toUser = (calls: CallsState, userId: string) => calls.io.to(userRoom(userId));

export function callEnded(calls: CallsState, userId: string, callId: string, reason: EndReason) {
  toUser(calls, userId).emit(E.callEnded, { callId, reason } satisfies CallEndedEvent);
}

export function callCancelled(
  calls: CallsState,
  userId: string,
  callId: string,
  reason: CancelReason,
  exceptSocket?: string,
) {
  const target = exceptSocket ? toUser(calls, userId).except(exceptSocket) : toUser(calls, userId);
  target.emit(E.callCancelled, { callId, reason } satisfies CallCancelledEvent);
}

export function callDeclined(calls: CallsState, userId: string, callId: string) {
  toUser(calls, userId).emit(E.callDeclined, { callId } satisfies CallDeclinedEvent);
}
