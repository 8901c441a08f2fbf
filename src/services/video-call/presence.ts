// Live presence for the people picker (issue 26; server/modules/video-calls/presence.ts): while the
// picker is open it watches the people on its page and hears when one comes online or goes offline, so
// a person who signs in turns "online" without the picker being reopened.
import {
  VIDEO_CALL_EVENTS as E,
  type PresenceEvent,
  type VideoAck,
  type WatchPresenceAck,
} from '../../../contracts/video-calls';
import type { LeasedSocket } from '../shared-signalling';
import { emitSignal } from '../signalling-socket';

/** What watching presence uses of the signalling socket (the session's socket, or a fake in tests). */
export type PresenceSocket = Pick<LeasedSocket, 'on' | 'off' | 'emit' | 'connected'>;

export type PresenceListener = (userId: string, online: boolean) => void;

/**
 * Watches these people's presence on the signalling socket: the listener hears each one's state as the
 * server acknowledges the watch (and again after a reconnect: the server forgets a dropped socket's
 * rooms), then every change. Returns the function that stops watching.
 */
export function watchPresence(
  socket: PresenceSocket,
  userIds: readonly string[],
  listener: PresenceListener,
): () => void {
  const watched = new Set(userIds);
  let stopped = false;
  const onPresence = (event: PresenceEvent) => {
    if (!stopped && watched.has(event.userId)) listener(event.userId, event.online);
  };
  const ask = () => {
    emitSignal(socket, E.watchPresence, { userIds: [...watched] }, (answer: VideoAck<WatchPresenceAck>) => {
      if (stopped || !answer.ok) return;
      const online = new Set(answer.online);
      for (const userId of watched) listener(userId, online.has(userId));
    });
  };
  socket.on(E.presence, onPresence);
  socket.on('connect', ask);
  if (socket.connected) ask();
  return () => {
    stopped = true;
    socket.off(E.presence, onPresence);
    socket.off('connect', ask);
    // Nobody is watched any more: the server stops telling this socket.
    if (socket.connected) emitSignal(socket, E.watchPresence, { userIds: [] });
  };
}
