// The ICE servers a user's video calls use (ICE_SERVERS), with TURN credentials minted per user when
// TURN_SECRET is set: the "TURN REST API" scheme coturn implements with `use-auth-secret` —
// username `{expiry epoch seconds}:{userId}`, credential base64(HMAC-SHA1(secret, username)). The
// TURN server checks the signature and the expiry itself, so a leaked credential dies within the TTL
// and no TURN password sits in the browser's bundle or in a public route.
import { createHmac } from 'node:crypto';
import type { IceServer, IceServersResponse } from '../../../contracts/video-calls';
import type { Config } from '../../config';

const isTurn = (server: IceServer) =>
  (Array.isArray(server.urls) ? server.urls : [server.urls]).some((url) => /^turns?:/.test(url));

export function iceServersFor(
  config: Pick<Config, 'ICE_SERVERS' | 'TURN_SECRET' | 'TURN_CREDENTIAL_TTL_SECONDS'>,
  userId: string,
  now = Date.now(),
): IceServersResponse {
  const secret = config.TURN_SECRET;
  const mints =
    secret !== undefined && config.ICE_SERVERS.some((server) => isTurn(server) && !server.username);
  if (!mints) return { iceServers: config.ICE_SERVERS, expiresAt: null };
  const expiresAt = now + config.TURN_CREDENTIAL_TTL_SECONDS * 1000;
  const username = `${Math.floor(expiresAt / 1000)}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return {
    iceServers: config.ICE_SERVERS.map((server) =>
      isTurn(server) && !server.username ? { ...server, username, credential } : server,
    ),
    expiresAt,
  };
}
