// @vitest-environment node
// The shared signalling socket against a real socket.io server (on an ephemeral 127.0.0.1 port): two
// leases hold one engine.io connection, and when the server ends it (as it does when the access token it
// was opened with expires) the one socket comes back once, with the current token, for both leases.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNALLING_PATH } from '../../contracts/socket-events';
import { createSharedSignalling } from './shared-signalling';
import { connectSignalling } from './signalling-socket';

let http: HttpServer;
let io: Server;
let url: string;
/** The token of every handshake the server saw. */
let handshakes: string[];

beforeEach(async () => {
  handshakes = [];
  http = createServer();
  io = new Server(http, { path: SIGNALLING_PATH, transports: ['polling', 'websocket'] });
  io.use((socket, next) => {
    handshakes.push(String(socket.handshake.auth.token));
    next();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => io.close(resolve));
});

async function until(condition: () => boolean, what: string) {
  await expect.poll(condition, { timeout: 10_000, message: what }).toBe(true);
}

describe('shared signalling on a socket.io server', () => {
  it('two leases are one engine.io connection; a token refresh reconnects once with the new token', async () => {
    let token = 'first';
    const shared = createSharedSignalling(() => connectSignalling({ url, getAccessToken: () => token }));
    const voice = shared.acquire();
    const video = shared.acquire();
    const seen = { voice: [] as string[], video: [] as string[] };
    voice.socket
      .on('connect', () => seen.voice.push('connect'))
      .on('disconnect', () => seen.voice.push('disconnect'));
    video.socket
      .on('connect', () => seen.video.push('connect'))
      .on('disconnect', () => seen.video.push('disconnect'));

    await until(() => voice.socket.connected && video.socket.connected, 'both leases connected');
    expect(io.engine.clientsCount).toBe(1);
    expect(handshakes).toEqual(['first']);

    // The token was refreshed; the server ends the connection opened with the old one.
    token = 'second';
    for (const socket of io.sockets.sockets.values()) socket.conn.close();
    await until(() => handshakes.length === 2 && voice.socket.connected, 'reconnected');
    expect(handshakes).toEqual(['first', 'second']);
    expect(io.engine.clientsCount).toBe(1);
    expect(seen.voice).toEqual(['connect', 'disconnect', 'connect']);
    expect(seen.video).toEqual(['connect', 'disconnect', 'connect']);

    // Each feature's events reach it on the one connection.
    const heard: string[] = [];
    voice.socket.on('voice:incoming', (event: { from: string }) => heard.push(`voice ${event.from}`));
    video.socket.on('callUser', (event: { from: string }) => heard.push(`video ${event.from}`));
    io.emit('voice:incoming', { from: 'a' });
    io.emit('callUser', { from: 'b' });
    await until(() => heard.length === 2, 'both events heard');
    expect(heard.sort()).toEqual(['video b', 'voice a']);

    // Voice goes away: video keeps the connection; the last release closes it.
    voice.release();
    io.emit('callUser', { from: 'c' });
    await until(() => heard.length === 3, 'video still hears');
    expect(video.socket.connected).toBe(true);
    expect(io.engine.clientsCount).toBe(1);
    video.release();
    await until(() => io.engine.clientsCount === 0, 'the connection closed');
    expect(handshakes).toHaveLength(2);
  });
});
