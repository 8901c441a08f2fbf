// The server's events for this tab's calls (video-call-session.ts; contracts/video-calls.ts): a ring,
// the callee's answer, the peers' signals, a decline, a cancel, an end, and a reconnect of the socket.
import type {
  CallAcceptedEvent,
  CallCancelledEvent,
  CallDeclinedEvent,
  CallEndedEvent,
  CallUserEvent,
  SignalEvent,
} from '../../../contracts/video-calls';
import { VIDEO_CALL_EVENTS } from '../../../contracts/video-calls';
import { DECLINED_MESSAGE, NO_ANSWER_MESSAGE, type VideoPeer } from '../../machines/video-call.machine';
import { armConnectTimeout } from './call-setup';
import { emitAck, emitQuiet, isCurrent, type Session, send, snapshot } from './session-state';

function onCallUser(session: Session, event: CallUserEvent) {
  if (event.userToCall !== session.selfId) return;
  const peer: VideoPeer = { id: event.from, name: event.name, avatarUrl: event.avatarUrl };
  if (session.isOnOtherCall()) {
    emitQuiet(session, VIDEO_CALL_EVENTS.decline, { callId: event.callId, busy: true });
    return;
  }
  session.rings.set(event.callId, [event.signalData]);
  send(session, { type: 'videoCall.incoming', callId: event.callId, peer });
  // Declined as busy (or ignored in glare): its signals are not kept.
  if (!isCurrent(session, event.callId)) session.rings.delete(event.callId);
}

function onCallAccepted(session: Session, event: CallAcceptedEvent) {
  if (!isCurrent(session, event.callId) || snapshot(session).value !== 'outgoing') return;
  session.current?.peer?.signal(event.signal);
  send(session, { type: 'videoCall.accepted' });
  if (session.current) armConnectTimeout(session, session.current);
}

function onSignal(session: Session, event: SignalEvent) {
  const ring = session.rings.get(event.callId);
  if (ring) {
    ring.push(event.signal);
    return;
  }
  const { current } = session;
  if (!current || current.callId !== event.callId) return;
  if (current.peer) current.peer.signal(event.signal);
  else current.inbox.push(event.signal);
}

function onDeclined(session: Session, event: CallDeclinedEvent) {
  if (!isCurrent(session, event.callId)) return;
  send(session, {
    type: 'videoCall.declined',
    message: DECLINED_MESSAGE(snapshot(session).context.peer?.name ?? ''),
  });
}

function onCancelled(session: Session, event: CallCancelledEvent) {
  session.rings.delete(event.callId);
  if (isCurrent(session, event.callId)) send(session, { type: 'videoCall.cancelled', reason: event.reason });
}

function onEnded(session: Session, event: CallEndedEvent) {
  if (!isCurrent(session, event.callId)) return;
  const name = snapshot(session).context.peer?.name ?? '';
  send(session, {
    type: 'videoCall.remoteEnded',
    reason: event.reason,
    at: session.now(),
    ...(event.reason === 'noAnswer' ? { message: NO_ANSWER_MESSAGE(name) } : {}),
  });
}

/** After a reconnect of the signalling socket: tell the server this tab still holds its call. */
function onConnect(session: Session) {
  const { value, context } = snapshot(session);
  if (!context.callId || !['outgoing', 'connecting', 'inCall'].includes(String(value))) return;
  const callId = context.callId;
  void emitAck(session, VIDEO_CALL_EVENTS.rejoin, { callId }).then((answer) => {
    if (!answer.ok && isCurrent(session, callId))
      send(session, {
        type: 'videoCall.remoteEnded',
        reason: 'lost',
        at: session.now(),
        message: answer.message,
      });
  });
}

/** Listens to the socket's call events; returns the function that stops listening. */
export function listenToSocket(session: Session): () => void {
  const listeners: [string, (...args: never[]) => void][] = [
    [VIDEO_CALL_EVENTS.callUser, (event: CallUserEvent) => onCallUser(session, event)],
    [VIDEO_CALL_EVENTS.callAccepted, (event: CallAcceptedEvent) => onCallAccepted(session, event)],
    [VIDEO_CALL_EVENTS.signal, (event: SignalEvent) => onSignal(session, event)],
    [VIDEO_CALL_EVENTS.callDeclined, (event: CallDeclinedEvent) => onDeclined(session, event)],
    [VIDEO_CALL_EVENTS.callCancelled, (event: CallCancelledEvent) => onCancelled(session, event)],
    [VIDEO_CALL_EVENTS.callEnded, (event: CallEndedEvent) => onEnded(session, event)],
    ['connect', () => onConnect(session)],
  ];
  const { socket } = session;
  for (const [event, listener] of listeners) socket.on(event, listener as (...args: unknown[]) => void);
  return () => {
    for (const [event, listener] of listeners) socket.off(event, listener as (...args: unknown[]) => void);
  };
}
