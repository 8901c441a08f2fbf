import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { iceServersFor } from './ice-servers';

const USER = '00000000-0000-4000-8000-000000000001';
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

describe('ICE servers for video calls', () => {
  it('are none by default: one machine or a LAN needs no STUN or TURN', () => {
    const config = loadConfig({});
    expect(iceServersFor(config, USER, NOW)).toEqual({ iceServers: [], expiresAt: null });
  });

  it('are served as ICE_SERVERS lists them when no TURN_SECRET is set', () => {
    const servers = [
      { urls: 'stun:stun.example.com:3478' },
      { urls: ['turns:turn.example.com:443?transport=tcp'], username: 'u', credential: 'p' },
    ];
    const config = loadConfig({ ICE_SERVERS: JSON.stringify(servers) });
    expect(iceServersFor(config, USER, NOW)).toEqual({ iceServers: servers, expiresAt: null });
  });

  it('get short-lived TURN credentials per user with TURN_SECRET (coturn use-auth-secret)', () => {
    const secret = 'a-turn-secret-of-some-length';
    const config = loadConfig({
      ICE_SERVERS: JSON.stringify([
        { urls: 'stun:stun.example.com:3478' },
        { urls: ['turn:turn.example.com:3478', 'turns:turn.example.com:443?transport=tcp'] },
      ]),
      TURN_SECRET: secret,
      TURN_CREDENTIAL_TTL_SECONDS: '600',
    });
    const { iceServers, expiresAt } = iceServersFor(config, USER, NOW);
    expect(expiresAt).toBe(NOW + 600_000);
    const username = `${(NOW + 600_000) / 1000}:${USER}`;
    expect(iceServers[0]).toEqual({ urls: 'stun:stun.example.com:3478' });
    expect(iceServers[1]).toMatchObject({
      username,
      credential: createHmac('sha1', secret).update(username).digest('base64'),
    });
  });

  it('refuses an ICE_SERVERS that is not a JSON list of ICE servers, naming the variable', () => {
    expect(() => loadConfig({ ICE_SERVERS: 'stun:stun.example.com' })).toThrow(/ICE_SERVERS/);
    expect(() => loadConfig({ ICE_SERVERS: JSON.stringify([{ urls: 'http://x' }]) })).toThrow(/ICE_SERVERS/);
  });
});
