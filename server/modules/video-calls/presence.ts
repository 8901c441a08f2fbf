// Live presence for the video-call people picker (issue 26): while the picker is open it watches the
// people on its page (`videoCall:watchPresence`), and hears `videoCall:presence` when one of them comes
// online (their first tab connects) or goes offline (their last tab closes), on any instance: the events
// go to the room `presence:{userId}`, which the Redis adapter relays like every other room.
//
// A watcher learns only what the picker's list (routes.ts) already tells them: the presence of active
// people they may call, never their own; and only with the calls permission, as the list needs.
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { userRoom } from '../../../contracts/socket-events';
import {
  VIDEO_CALL_EVENTS as E,
  type PresenceEvent,
  presenceRoom,
  type WatchPresenceAck,
  watchPresencePayloadSchema,
} from '../../../contracts/video-calls';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { Signalling } from '../../realtime/signalling';
import { onAcknowledged } from '../../realtime/socket-acks';
import { mayCall } from '../voice/call-policy';
import { mayMakeCalls, VIDEO_CALLS_NOT_ALLOWED_MESSAGE } from './signalling';

const PRESENCE_PREFIX = presenceRoom('');
export const PRESENCE_FAILED_MESSAGE = 'Could not follow who is online.';

export function attachPresence(deps: { signalling: Signalling; db: Db; log: FastifyBaseLogger }) {
  const { signalling, db, log } = deps;
  const { io } = signalling;
  const announce = (userId: string, online: boolean) =>
    io.to(presenceRoom(userId)).emit(E.presence, { userId, online } satisfies PresenceEvent);

  io.on('connection', (socket) => {
    const me = socket.data.user.id;
    // Said for every tab that connects: a watcher that already sees the person online changes nothing.
    announce(me, true);
    socket.on('disconnect', () => {
      // An instance that closes ends its sockets so that browsers reconnect to another one: that says
      // nothing of the user, and the Redis adapter's request would outlive its closed client.
      if (signalling.closing) return;
      // The socket has left its rooms by now: the user is offline when no tab of theirs is left anywhere.
      io.in(userRoom(me))
        .fetchSockets()
        .then((left) => {
          if (left.length === 0) announce(me, false);
        })
        .catch((error: unknown) => log.warn({ err: error }, 'presence: could not count the tabs left'));
    });

    onAcknowledged(
      socket,
      E.watchPresence,
      watchPresencePayloadSchema,
      async ({ userIds }): Promise<({ ok: true } & WatchPresenceAck) | { ok: false; message: string }> => {
        if (!(await mayMakeCalls(db, socket.data.user)))
          return { ok: false, message: VIDEO_CALLS_NOT_ALLOWED_MESSAGE };
        const wanted = [...new Set(userIds)].filter((id) => id !== me);
        const rows = wanted.length
          ? await db
              .select({ id: users.id, role: users.role })
              .from(users)
              .where(and(inArray(users.id, wanted), eq(users.isActive, true)))
          : [];
        const watched = rows.filter((row) => mayCall(socket.data.user.role, row.role)).map((row) => row.id);
        // The new page replaces the old one: a closed picker sends an empty list.
        for (const room of [...socket.rooms]) if (room.startsWith(PRESENCE_PREFIX)) await socket.leave(room);
        if (watched.length > 0) await socket.join(watched.map(presenceRoom));
        // Joined first, asked second: a change between the two is heard, not lost.
        const sockets = watched.length > 0 ? await io.in(watched.map(userRoom)).fetchSockets() : [];
        return { ok: true, online: [...new Set(sockets.map((found) => found.data.user.id))] };
      },
      { log, failedMessage: PRESENCE_FAILED_MESSAGE, logMessage: 'presence watch failed' },
    );
  });
}
