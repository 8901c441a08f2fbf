// A call's start on this tab (video-call-session.ts): the caller's camera, peer and `callUser` with its
// offer; the callee's camera, peer and `answerCall` with its answer; then the timeouts that give up.

import { VIDEO_CALL_EVENTS, VIDEO_RING_TIMEOUT_MS } from '../../../contracts/video-calls';
import type { VideoSignal } from '../../../contracts/video-signal';
import { callTimer, release, resourcesFor } from './call-resources';
import { acquire } from './local-media';
import {
  CONNECT_FAILED_MESSAGE,
  createPeer,
  flushOutbox,
  loadPeerParts,
  markConnectedIfUp,
} from './peer-link';
import { type CallResources, emitAck, emitQuiet, type Session, send, snapshot } from './session-state';

/** Peers that have not connected this long after the call was accepted give up. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** The caller's own limit, past the server's ring time, should the server's `noAnswer` be lost. */
const OUTGOING_GRACE_MS = 5_000;

export async function prepareCall(session: Session, callId: string, peerId: string, audioOnly: boolean) {
  const call = resourcesFor(session, callId);
  const parts = loadPeerParts(session);
  const stream = await acquire(session, call, audioOnly);
  if (!stream) return;
  const offer = new Promise<VideoSignal>((resolve) => {
    session.offerReady = resolve;
  });
  const peer = await createPeer(session, call, true, stream, parts);
  if (!peer) return;
  const signalData = await offer;
  session.offerReady = null;
  if (call.aborted) return;
  call.outbox.shift(); // the offer itself
  const answer = await emitAck(session, VIDEO_CALL_EVENTS.callUser, {
    callId,
    userToCall: peerId,
    signalData,
  });
  if (call.aborted) {
    if (answer.ok) emitQuiet(session, VIDEO_CALL_EVENTS.hangup, { callId });
    return;
  }
  if (!answer.ok) {
    release(session, call);
    send(session, { type: 'videoCall.refused', reason: answer.reason ?? 'refused', message: answer.message });
    return;
  }
  flushOutbox(session, call);
  send(session, { type: 'videoCall.ringing' });
  callTimer(session, call, VIDEO_RING_TIMEOUT_MS + OUTGOING_GRACE_MS, () => {
    if (snapshot(session).value === 'outgoing')
      send(session, { type: 'videoCall.remoteEnded', reason: 'noAnswer', at: session.now() });
  });
}

export async function prepareAnswer(session: Session, callId: string, callerId: string, audioOnly: boolean) {
  const call = resourcesFor(session, callId);
  const parts = loadPeerParts(session);
  const stream = await acquire(session, call, audioOnly);
  if (!stream) return;
  const answerSignal = new Promise<VideoSignal>((resolve) => {
    session.answerReady = resolve;
  });
  const peer = await createPeer(session, call, false, stream, parts);
  if (!peer) return;
  for (const signal of call.inbox.splice(0)) peer.signal(signal);
  const signal = await answerSignal;
  session.answerReady = null;
  if (call.aborted) return;
  const answer = await emitAck(session, VIDEO_CALL_EVENTS.answerCall, { callId, to: callerId, signal });
  if (call.aborted) {
    // Cancelled while the answer was on its way: the server took it, so end the call it started.
    if (answer.ok) emitQuiet(session, VIDEO_CALL_EVENTS.hangup, { callId });
    return;
  }
  if (!answer.ok) {
    send(session, { type: 'videoCall.failed', message: answer.message, at: session.now() });
    return;
  }
  flushOutbox(session, call);
  send(session, { type: 'videoCall.answered' });
  armConnectTimeout(session, call);
  markConnectedIfUp(session, call);
}

export function armConnectTimeout(session: Session, call: CallResources) {
  callTimer(session, call, CONNECT_TIMEOUT_MS, () => {
    if (snapshot(session).value === 'connecting')
      send(session, { type: 'videoCall.failed', message: CONNECT_FAILED_MESSAGE, at: session.now() });
  });
}
