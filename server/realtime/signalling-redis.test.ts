import type { FastifyInstance } from 'fastify';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALLING_PATH } from '../../contracts/socket-events';
import { connectSignalling } from '../../src/services/signalling-socket';
import { buildApp } from '../app';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';

const REDIS_URL = process.env.TEST_REDIS_URL;
// Both instances sign and verify with the same key, as instances sharing one database would.
const JWT_SECRET = 'redis-signalling-secret-0123456789abcdefghijk';

function originOf(app: FastifyInstance): string {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe.skipIf(!REDIS_URL)('signalling across two instances through Redis (REDIS_URL)', () => {
  let a: TestApp;
  let b: { app: FastifyInstance };
  const sockets: Socket[] = [];

  beforeAll(async () => {
    a = await createTestApp({ env: { JWT_SECRET, REDIS_URL: REDIS_URL as string } });
    // Two instances on one database (sessions live there), as several servers would run.
    b = {
      app: await buildApp({
        config: a.config,
        database: a.database,
        rateLimits: { namespace: a.rateLimitNamespace },
      }),
    };
    await Promise.all([
      a.app.listen({ port: 0, host: '127.0.0.1' }),
      b.app.listen({ port: 0, host: '127.0.0.1' }),
    ]);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await b?.app.close();
    await a?.close();
  });

  it('delivers an event emitted on instance B to the user connected to instance A', async () => {
    const staff = await signInAs(a.app, demoEmails.Staff);
    const onA = await connected(
      connectSignalling({ url: originOf(a.app), getAccessToken: () => staff.token }),
    );
    sockets.push(onA);
    const received = new Promise<unknown[]>((resolve) => onA.once('callUser', (...args) => resolve(args)));
    b.app.signalling.emitToUser(staff.userId, 'callUser', { userToCall: staff.userId, name: 'From B' });
    expect(await received).toEqual([{ userToCall: staff.userId, name: 'From B' }]);
  });

  it('reaches the user on both instances at once, and nobody else', async () => {
    const staff = await signInAs(a.app, demoEmails.Staff);
    const admin = await signInAs(a.app, demoEmails.Admin);
    const options = (token: string) => ({
      path: SIGNALLING_PATH,
      auth: { token },
      transports: ['websocket'],
    });
    const onA = await connected(ioClient(originOf(a.app), options(staff.token)));
    const onB = await connected(ioClient(originOf(b.app), options(staff.token)));
    const adminOnB = await connected(ioClient(originOf(b.app), options(admin.token)));
    sockets.push(onA, onB, adminOnB);
    const stray: unknown[] = [];
    adminOnB.on('answerCall', (...args) => stray.push(args));
    const got = (socket: Socket) =>
      new Promise<unknown[]>((resolve) => socket.once('answerCall', (...args) => resolve(args)));
    const both = Promise.all([got(onA), got(onB)]);
    a.app.signalling.emitToUser(staff.userId, 'answerCall', { signal: 'x', to: staff.userId });
    expect(await both).toEqual([[{ signal: 'x', to: staff.userId }], [{ signal: 'x', to: staff.userId }]]);
    // A round trip to the admin afterwards: had the staff event leaked, it would have arrived first.
    const toAdmin = new Promise((resolve) => adminOnB.once('callAccepted', resolve));
    a.app.signalling.emitToUser(admin.userId, 'callAccepted', 'ok');
    expect(await toAdmin).toBe('ok');
    expect(stray).toEqual([]);
  });
});
