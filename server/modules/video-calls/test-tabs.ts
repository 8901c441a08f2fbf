// Test helpers: real socket.io clients acting as a user's browser tabs against a listening test app.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { io as ioClient, type Socket } from 'socket.io-client';
import { SIGNALLING_PATH } from '../../../contracts/socket-events';
import type { CallUserPayload, VideoAck } from '../../../contracts/video-calls';
import { originOf } from '../voice/test-devices';

export const OFFER = { type: 'offer' as const, sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=video offer\r\n' };
export const ANSWER = {
  type: 'answer' as const,
  sdp: 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\ns=video answer\r\n',
};
export const CANDIDATE = {
  type: 'candidate' as const,
  candidate: {
    candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
    sdpMid: '0',
    sdpMLineIndex: 0,
  },
};
export const RESTART_OFFER = {
  type: 'offer' as const,
  sdp: 'v=0\r\no=- 1 3 IN IP4 127.0.0.1\r\ns=ice restart\r\n',
};

/** How long a test waits for an event before it fails. */
const WAIT_MS = 5000;
/** A server-side event that marks "everything sent before this has arrived". */
const BARRIER = 'test:barrier';

export interface Session {
  token: string;
  userId: string;
}

export interface Tab {
  socket: Socket;
  userId: string;
  /** Every event the server sent this tab, in order. */
  events: [string, unknown][];
  send<T extends object = object>(event: string, payload?: unknown): Promise<VideoAck<T>>;
  /** The next `event` not taken yet (or one already received), as soon as it arrives. */
  next<T = unknown>(event: string): Promise<T>;
  /** The names of the events received and not taken by `next`, once everything sent before now arrived. */
  untaken(app: FastifyInstance): Promise<string[]>;
}

export function callPayload(
  userToCall: string,
  extra: Partial<CallUserPayload> = {},
): CallUserPayload & { callId: string } {
  return { callId: randomUUID(), userToCall, signalData: OFFER, ...extra };
}

/** A connected socket of the session, like a signed-in browser tab. */
export async function openTab(app: FastifyInstance, session: Session): Promise<Tab> {
  const socket = ioClient(originOf(app), {
    path: SIGNALLING_PATH,
    auth: { token: session.token },
    transports: ['websocket'],
    reconnection: false,
  });
  const events: [string, unknown][] = [];
  const taken = new Set<number>();
  const waiters: { event: string; resolve: (payload: unknown) => void }[] = [];
  const take = (event: string): { found: boolean; payload?: unknown } => {
    const index = events.findIndex(([name], i) => name === event && !taken.has(i));
    if (index < 0) return { found: false };
    taken.add(index);
    return { found: true, payload: events[index]?.[1] };
  };
  socket.onAny((event: string, payload: unknown) => {
    events.push([event, payload]);
    for (const waiter of [...waiters]) {
      if (waiter.event !== event) continue;
      const got = take(event);
      if (!got.found) break;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(got.payload);
      break;
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const tab: Tab = {
    socket,
    userId: session.userId,
    events,
    send: (event, payload) =>
      (payload === undefined
        ? socket.timeout(WAIT_MS).emitWithAck(event)
        : socket.timeout(WAIT_MS).emitWithAck(event, payload)) as Promise<never>,
    next<T>(event: string) {
      const got = take(event);
      if (got.found) return Promise.resolve(got.payload as T);
      return new Promise<T>((resolve, reject) => {
        const waiter = { event, resolve: resolve as (payload: unknown) => void };
        waiters.push(waiter);
        setTimeout(() => {
          const at = waiters.indexOf(waiter);
          if (at < 0) return;
          waiters.splice(at, 1);
          const got = events.map(([name]) => name).join(', ') || 'nothing';
          reject(new Error(`no ${event} within ${WAIT_MS} ms (got ${got})`));
        }, WAIT_MS);
      });
    },
    async untaken(app) {
      // Emitted after everything else the server sent this socket, so it arrives after all of it.
      const marker = randomUUID();
      const arrived = new Promise<void>((resolve) => {
        const listener = (value: string) => {
          if (value !== marker) return;
          socket.off(BARRIER, listener);
          resolve();
        };
        socket.on(BARRIER, listener);
      });
      app.signalling.io.to(socket.id as string).emit(BARRIER, marker);
      await arrived;
      return events.filter(([name], i) => name !== BARRIER && !taken.has(i)).map(([name]) => name);
    },
  };
  return tab;
}
