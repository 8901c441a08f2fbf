// Test helpers: real socket.io clients acting as voice devices against a listening test app.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { io as ioClient, type Socket } from 'socket.io-client';
import { SIGNALLING_PATH } from '../../../contracts/socket-events';
import { type Ack, VOICE_EVENTS } from '../../../contracts/voice-signalling';

export const OFFER = { type: 'offer' as const, sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=offer\r\n' };
export const ANSWER = { type: 'answer' as const, sdp: 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\ns=answer\r\n' };
export const CANDIDATE = { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0' };

export function originOf(app: FastifyInstance): string {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

export interface Session {
  token: string;
  userId: string;
}

export interface Device {
  socket: Socket;
  userId: string;
  voiceToken: string;
  phoneNumber: string;
  /** Every event the server sent this device, in order. */
  events: [string, unknown][];
  send<T extends object = object>(event: string, payload?: unknown): Promise<Ack<T>>;
  /** The next `event` (or one already received and not yet taken), within 2 s. */
  next<T = unknown>(event: string): Promise<T>;
}

async function voiceToken(app: FastifyInstance, token: string) {
  const response = await app.inject({
    method: 'GET',
    url: '/api/v1/voice/method/getAccessToken',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.statusCode !== 200) throw new Error(`voice token: ${response.body}`);
  return (response.json() as { data: { token: string; phoneNumber: string } }).data;
}

/** A connected socket for the session (not registered yet). */
export async function openDevice(app: FastifyInstance, session: Session, tokenApp = app): Promise<Device> {
  const socket = ioClient(originOf(app), {
    path: SIGNALLING_PATH,
    auth: { token: session.token },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const voice = await voiceToken(tokenApp, session.token);
  const events: [string, unknown][] = [];
  const taken = new Set<number>();
  socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
  return {
    socket,
    userId: session.userId,
    voiceToken: voice.token,
    phoneNumber: voice.phoneNumber,
    events,
    send: (event, payload) =>
      (payload === undefined
        ? socket.timeout(2000).emitWithAck(event)
        : socket.timeout(2000).emitWithAck(event, payload)) as Promise<never>,
    async next<T>(event: string) {
      const deadline = Date.now() + 2000;
      while (Date.now() < deadline) {
        const index = events.findIndex(([name], i) => name === event && !taken.has(i));
        if (index >= 0) {
          taken.add(index);
          return events[index]?.[1] as T;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`no ${event} within 2 s (got ${events.map(([name]) => name).join(', ') || 'nothing'})`);
    },
  };
}

/** A connected and registered voice device. */
export async function registeredDevice(
  app: FastifyInstance,
  session: Session,
  tokenApp = app,
): Promise<Device> {
  const device = await openDevice(app, session, tokenApp);
  const ack = await device.send(VOICE_EVENTS.register, { token: device.voiceToken });
  if (!ack.ok) throw new Error(`register failed: ${ack.message}`);
  return device;
}

export function dialPayload(to: string) {
  return { callSid: randomUUID(), to, offer: OFFER };
}
