import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import mqtt from 'mqtt';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { reservedEventMessage, SIGNALLING_PATH } from '../../contracts/socket-events';
import { connectSignalling, emitSignal } from '../../src/services/signalling-socket';
import type { Db } from '../db/client';
import { createTokenService, type TokenUser } from '../modules/auth/tokens';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';
import { brokerPlugin } from './broker';
import { signallingPlugin } from './signalling';

const JWT_SECRET = 'signalling-test-secret-0123456789abcdefghijkl';
/** These tests run the realtime plugins without a database: every session counts as live. */
const everySessionLive = { isLive: async () => true };

function originOf(app: FastifyInstance): string {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** Resolves on connect, rejects with the server's reason on connect_error. */
function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function nextEvent<T extends unknown[]>(socket: Socket, event: string): Promise<T> {
  return new Promise((resolve) => socket.once(event, (...args: unknown[]) => resolve(args as T)));
}

describe('signalling (socket.io at /engine.io)', () => {
  let t: TestApp;
  let origin: string;
  const sockets: Socket[] = [];
  const open = (socket: Socket) => {
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { JWT_SECRET } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = originOf(t.app);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await t.close();
  });

  it('connects the browser adapter with a good token; emitToUser reaches every socket of that user only', async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    const admin = await signInAs(t.app, demoEmails.Admin);
    const first = await connected(
      open(connectSignalling({ url: origin, getAccessToken: () => staff.token })),
    );
    // A second tab on websocket only: rooms hold every socket of the user, whatever the transport.
    const second = await connected(
      open(
        ioClient(origin, { path: SIGNALLING_PATH, auth: { token: staff.token }, transports: ['websocket'] }),
      ),
    );
    const other = await connected(
      open(connectSignalling({ url: origin, getAccessToken: () => admin.token })),
    );
    const strayToAdmin: unknown[] = [];
    other.on('callUser', (...args) => strayToAdmin.push(args));

    const toFirst = nextEvent<[{ from: string }, string]>(first, 'callUser');
    const toSecond = nextEvent<[{ from: string }, string]>(second, 'callUser');
    t.app.signalling.emitToUser(staff.userId, 'callUser', { from: 'someone' }, 'Ann');
    expect(await toFirst).toEqual([{ from: 'someone' }, 'Ann']);
    expect(await toSecond).toEqual([{ from: 'someone' }, 'Ann']);
    // The admin's own event arrives; the staff member's never did.
    const toAdmin = nextEvent(other, 'answerCall');
    t.app.signalling.emitToUser(admin.userId, 'answerCall', { to: admin.userId });
    expect(await toAdmin).toEqual([{ to: admin.userId }]);
    expect(strayToAdmin).toEqual([]);
  });

  it('asks for the token again on every connection attempt', async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    let current = 'not-a-token';
    const socket = open(connectSignalling({ url: origin, getAccessToken: async () => current }));
    await expect(connected(socket)).rejects.toThrow('Invalid access token');
    current = staff.token;
    socket.connect();
    await connected(socket);
    expect(socket.connected).toBe(true);
  });

  it('refuses a missing, a bad and an expired token with the reason', async () => {
    const { token } = await signInAs(t.app, demoEmails.Staff);
    const user = await t.app.tokens.verify(token);
    const expired = await (
      await createTokenService(t.database.db, {
        secret: JWT_SECRET,
        ttlSeconds: -10,
        sessions: t.app.sessions,
      })
    ).sign(user);
    const attempt = (auth: Record<string, unknown>) =>
      connected(open(ioClient(origin, { path: SIGNALLING_PATH, auth, reconnection: false })));
    await expect(attempt({})).rejects.toThrow('Access token is missing');
    await expect(attempt({ token: 'nonsense' })).rejects.toThrow('Invalid access token');
    await expect(attempt({ token: expired })).rejects.toThrow('Access token expired');
    await expect(
      connected(open(connectSignalling({ url: origin, getAccessToken: () => expired }))),
    ).rejects.toThrow('Access token expired');
  });

  it('closes a connection when its access token expires; the browser comes back with its fresh one', async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    const user = await t.app.tokens.verify(staff.token);
    const shortToken = await (
      await createTokenService(t.database.db, { secret: JWT_SECRET, ttlSeconds: 2, sessions: t.app.sessions })
    ).sign(user);
    const { exp } = JSON.parse(Buffer.from(shortToken.split('.')[1] ?? '', 'base64url').toString());
    // The browser's adapter: its first connection uses the short token, later ones the fresh one.
    let current = shortToken;
    const socket = await connected(open(connectSignalling({ url: origin, getAccessToken: () => current })));
    const lasting = await connected(
      open(ioClient(origin, { path: SIGNALLING_PATH, auth: { token: staff.token }, reconnection: false })),
    );
    current = staff.token;
    const [reason] = await nextEvent<[string]>(socket, 'disconnect');
    // Closed because the token ran out, not before (a socket that outlived it leaves this test waiting).
    expect(Date.now()).toBeGreaterThanOrEqual((exp as number) * 1000);
    expect(reason).toBe('transport close');
    expect(lasting.connected).toBe(true);
    await nextEvent(socket, 'connect');
    // Back, with the fresh token: events reach it again.
    const heard = nextEvent<[string]>(socket, 'callUser');
    t.app.signalling.emitToUser(staff.userId, 'callUser', 'again');
    expect(await heard).toEqual(['again']);
  });

  it('refuses reserved event names on both sides', async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    const socket = await connected(
      open(connectSignalling({ url: origin, getAccessToken: () => staff.token })),
    );
    expect(() => emitSignal(socket, 'disconnect')).toThrow('"disconnect" is a reserved event name');
    expect(() => emitSignal(socket, 'reconnect_attempt')).toThrow(/reserved event name/);
    expect(() => t.app.signalling.emitToUser(staff.userId, 'connect')).toThrow(/reserved event name/);
    // A normal event goes out: the server hears it.
    const heard = new Promise<unknown[]>((resolve) => {
      for (const serverSocket of t.app.signalling.io.sockets.sockets.values()) {
        if (serverSocket.data.user.id === staff.userId)
          serverSocket.once('callAccepted', (...a) => resolve(a));
      }
    });
    emitSignal(socket, 'callAccepted', { signal: 'sdp' });
    expect(await heard).toEqual([{ signal: 'sdp' }]);
  });

  it('refuses reserved names a raw client sends, before any listener hears them', async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    // A plain socket.io client only stops six names itself (connect, disconnect, …): the rest go out.
    const socket = await connected(
      open(
        ioClient(origin, { path: SIGNALLING_PATH, auth: { token: staff.token }, transports: ['websocket'] }),
      ),
    );
    const [serverSocket] = await t.app.signalling.io.in(socket.id as string).fetchSockets();
    const heard: string[] = [];
    for (const local of t.app.signalling.io.sockets.sockets.values())
      if (local.id === serverSocket?.id)
        for (const name of ['error', 'connection', 'message', 'ping', 'upgrade'])
          local.on(name, () => heard.push(name));
    for (const name of ['error', 'connection', 'message', 'ping', 'upgrade'])
      expect(await socket.timeout(2000).emitWithAck(name, { any: 'thing' })).toEqual({
        ok: false,
        message: reservedEventMessage(name),
      });
    // Without an acknowledgement it is dropped all the same; the connection carries on.
    socket.emit('error', 'boom');
    const back = nextEvent(socket, 'pong:test');
    t.app.signalling.emitToUser(staff.userId, 'pong:test', 'still here');
    expect(await back).toEqual(['still here']);
    expect(heard).toEqual([]);
    expect(socket.connected).toBe(true);
  });

  it('shares the port with the MQTT broker: both upgrades work, an unknown path is refused', async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    const mqttClient = await mqtt.connectAsync(`${origin.replace('http', 'ws')}/mqtt`, {
      username: staff.userId,
      password: staff.token,
      reconnectPeriod: 0,
    });
    const socket = await connected(
      open(
        ioClient(origin, { path: SIGNALLING_PATH, auth: { token: staff.token }, transports: ['websocket'] }),
      ),
    );
    expect(mqttClient.connected).toBe(true);
    expect(socket.io.engine.transport.name).toBe('websocket');
    await mqttClient.endAsync();
    await expect(upgradeStatus(`${origin.replace('http', 'ws')}/elsewhere`)).resolves.toBe(404);
  });
});

describe('signalling shutdown', () => {
  it('closes the app promptly while clients (and an MQTT client) are connected, and lets them reconnect', async () => {
    const t = await createTestApp({ env: { JWT_SECRET } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { token, userId } = await signInAs(t.app, demoEmails.Staff);
    const origin = originOf(t.app);
    const mqttClient = await mqtt.connectAsync(`${origin.replace('http', 'ws')}/mqtt`, {
      username: userId,
      password: token,
      reconnectPeriod: 0,
    });
    const clients = (['polling', 'websocket'] as const).map((transport) =>
      ioClient(origin, { path: SIGNALLING_PATH, auth: { token }, transports: [transport] }),
    );
    try {
      await Promise.all(clients.map(connected));
      const reasons = Promise.all(
        clients.map((socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve))),
      );
      // A close that waited for the pending long-poll (25 s) would run past this test's time limit.
      await t.close();
      // Not "io server disconnect", after which socket.io-client would stay away for good.
      for (const reason of await reasons) expect(reason).toMatch(/^transport (close|error)$/);
      for (const socket of clients) expect(socket.active).toBe(true);
      expect(mqttClient.connected).toBe(false);
    } finally {
      for (const socket of clients) socket.disconnect();
      await mqttClient.endAsync(true);
    }
  });
});

describe('signalling with an unreachable REDIS_URL', () => {
  it('stops the start with a message naming the variable, without its password', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const tokens = await createTokenService({} as Db, {
      secret: JWT_SECRET,
      ttlSeconds: 300,
      sessions: everySessionLive,
    });
    const app = Fastify();
    try {
      await app.register(fp(async () => {}, { name: 'auth' }));
      const failure = await app
        .register(signallingPlugin, { tokens, redisUrl: `redis://user:s3cret@127.0.0.1:${port}` })
        .then(
          () => new Error('started'),
          (error: Error) => error,
        );
      expect(failure.message).toMatch(/^Cannot connect to Redis at redis:\/\/127\.0\.0\.1:\d+ \(REDIS_URL\)/);
      expect(failure.message).not.toContain('s3cret');
    } finally {
      await app.close().catch(() => {});
    }
  });
});

/** The HTTP status an upgrade request gets instead of 101 (or 101 when it opens). */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', reject);
  });
}

// The broker and signalling both listen for upgrades on the same http server: whichever registers
// first, neither may take or destroy the other's.
describe.each([
  ['broker first', ['broker', 'signalling']],
  ['signalling first', ['signalling', 'broker']],
] as const)('upgrades on one port, %s', (_name, order) => {
  let app: FastifyInstance;
  let origin: string;
  const user: TokenUser = {
    id: '22222222-2222-4222-8222-222222222222',
    role: 'Staff',
    sellerId: null,
    sessionId: '33333333-3333-4333-8333-333333333333',
  };
  let token: string;

  beforeAll(async () => {
    const tokens = await createTokenService({} as Db, {
      secret: JWT_SECRET,
      ttlSeconds: 300,
      sessions: everySessionLive,
    });
    token = await tokens.sign(user);
    app = Fastify();
    // The realtime plugins take the token service as an option; they only need 'auth' to be there.
    await app.register(fp(async () => {}, { name: 'auth' }));
    for (const plugin of order) {
      if (plugin === 'broker')
        await app.register(brokerPlugin, { tokens, prefix: 'mp', readsAllChats: async () => false });
      else await app.register(signallingPlugin, { tokens });
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = originOf(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves MQTT at /mqtt and socket.io over websocket, and refuses other paths', async () => {
    const mqttClient = await mqtt.connectAsync(`${origin.replace('http', 'ws')}/mqtt`, {
      username: user.id,
      password: token,
      reconnectPeriod: 0,
    });
    const socket = ioClient(origin, { path: SIGNALLING_PATH, auth: { token }, transports: ['websocket'] });
    try {
      await connected(socket);
      await expect(upgradeStatus(`${origin.replace('http', 'ws')}/nowhere`)).resolves.toBe(404);
      expect(mqttClient.connected).toBe(true);
      expect(socket.connected).toBe(true);
      const granted = await mqttClient.subscribeAsync(`mp_${user.id}_message`, { qos: 2 });
      expect(granted[0]?.qos).toBe(2);
      const received = nextEvent(socket, 'ping-test');
      app.signalling.emitToUser(user.id, 'ping-test', 1);
      expect(await received).toEqual([1]);
    } finally {
      socket.disconnect();
      await mqttClient.endAsync();
    }
  });
});
