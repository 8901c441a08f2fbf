// The call's peer connection (video-call-session.ts): the peer made with the ICE servers, the signals
// it trades through the server (held back until the server knows the call), the media-state message
// on its data channel, its quality samples, and ICE restarts while the connection is down.

import { VIDEO_CALL_EVENTS } from '../../../contracts/video-calls';
import type { VideoSignal } from '../../../contracts/video-signal';
import { qualityFromStats } from './call-quality';
import { callTimer, cancelCallTimer } from './call-resources';
import type { PeerFactory, PeerHandlers } from './peer-types';
import { type CallResources, emitQuiet, type Session, send, setMedia, snapshot } from './session-state';

/** ICE down this long (restarts included) ends the call. */
export const RECONNECT_DEADLINE_MS = 30_000;
/** ICE `disconnected` often heals by itself within a couple of seconds; restart after this. */
export const ICE_RESTART_DELAY_MS = 2_000;
const STATS_INTERVAL_MS = 2_000;
/** The ICE servers are asked once per few minutes (minted TURN credentials last an hour by default). */
const ICE_CACHE_MS = 5 * 60_000;

export const CONNECT_FAILED_MESSAGE =
  'Could not connect the call. A firewall may block it: ask your administrator about a TURN server.';
export const CONNECTION_LOST_MESSAGE = 'The call ended: the connection was lost.';
export const PEER_LOAD_FAILED_MESSAGE = 'The video call could not start. Reload the page and try again.';

/** The data-channel message that tells the other side our microphone and camera. */
interface MediaStateMessage {
  type: 'media';
  muted: boolean;
  cameraOff: boolean;
}

export type PeerParts = Promise<[PeerFactory, RTCIceServer[]]>;

export function sendSignal(session: Session, call: CallResources, signal: VideoSignal) {
  if (!call.canSend) {
    call.outbox.push(signal);
    return;
  }
  emitQuiet(session, VIDEO_CALL_EVENTS.signal, { callId: call.callId, signal });
}

/** The server knows the call now: what waited goes out, and what follows goes at once. */
export function flushOutbox(session: Session, call: CallResources) {
  call.canSend = true;
  const waiting = call.outbox;
  call.outbox = [];
  for (const signal of waiting) sendSignal(session, call, signal);
}

export function tellMediaState(session: Session, call: CallResources) {
  const { muted, cameraOff } = snapshot(session).context;
  call.peer?.send(JSON.stringify({ type: 'media', muted, cameraOff } satisfies MediaStateMessage));
}

function startStats(session: Session, call: CallResources) {
  const sample = () => {
    call.statsTimer = session.setTimer(async () => {
      if (call.aborted || !call.peer) return;
      try {
        const report = await call.peer.getStats();
        const { quality, sample: next } = qualityFromStats(report, call.lastStats);
        call.lastStats = next;
        if (!call.aborted && quality !== snapshot(session).context.quality)
          send(session, { type: 'videoCall.quality', quality });
      } catch {
        // A peer closing under getStats: the next sample (if any) tries again.
      }
      if (!call.aborted) sample();
    }, STATS_INTERVAL_MS);
  };
  sample();
}

export function markConnectedIfUp(session: Session, call: CallResources) {
  if (!call.peerConnected || call.aborted || snapshot(session).value !== 'connecting') return;
  send(session, { type: 'videoCall.connected', at: session.now() });
  startStats(session, call);
}

function currentIceServers(session: Session): Promise<RTCIceServer[]> {
  if (!session.iceCache || session.now() - session.iceCache.at > ICE_CACHE_MS) {
    const servers = session.iceServers().catch(() => {
      session.iceCache = null; // a failed fetch is tried again on the next call
      return [] as RTCIceServer[];
    });
    session.iceCache = { at: session.now(), servers };
  }
  return session.iceCache.servers;
}

/** The peer library and the ICE servers, loaded while the camera starts (not after it). */
export function loadPeerParts(session: Session): PeerParts {
  const parts = Promise.all([session.peerFactory(), currentIceServers(session)]);
  parts.catch(() => {}); // awaited (and reported) only once the camera is there
  return parts;
}

export async function createPeer(
  session: Session,
  call: CallResources,
  initiator: boolean,
  stream: MediaStream,
  parts: PeerParts,
) {
  let factory: PeerFactory;
  let servers: RTCIceServer[];
  try {
    [factory, servers] = await parts;
  } catch (error) {
    // The peer's chunk did not load (a deploy replaced it, the network dropped).
    console.error('video call: the peer could not be loaded', error);
    if (!call.aborted)
      send(session, { type: 'videoCall.failed', message: PEER_LOAD_FAILED_MESSAGE, at: session.now() });
    return null;
  }
  if (call.aborted) return null;
  const peer = factory({ initiator, stream, iceServers: servers }, peerHandlers(session, call, initiator));
  call.peer = peer;
  return peer;
}

function peerHandlers(session: Session, call: CallResources, initiator: boolean): PeerHandlers {
  return {
    onSignal: (signal) => {
      if (call.aborted) return;
      if (initiator && signal.type === 'offer' && !call.canSend && call.outbox.length === 0) {
        call.outbox.push(signal); // the first offer: callUser carries it
        session.offerReady?.(signal);
        return;
      }
      if (!initiator && signal.type === 'answer' && !call.canSend && session.answerReady) {
        session.answerReady(signal);
        return;
      }
      sendSignal(session, call, signal);
    },
    onStream: (remote) => {
      if (!call.aborted) setMedia(session, { remote });
    },
    onConnect: () => {
      if (call.aborted) return;
      call.peerConnected = true;
      tellMediaState(session, call);
      // The callee's peer may connect before the server's answer to answerCall arrives: the
      // call counts as connected once it is accepted (markConnectedIfUp after `answered`).
      markConnectedIfUp(session, call);
    },
    onData: (text) => {
      try {
        const message = JSON.parse(text) as Partial<MediaStateMessage>;
        if (message.type === 'media')
          setMedia(session, {
            remoteMuted: message.muted === true,
            remoteCameraOff: message.cameraOff === true,
          });
      } catch {
        // Not ours: ignored.
      }
    },
    onIceState: (ice) => {
      if (!call.aborted) followIce(session, call, ice);
    },
    onError: (message) => {
      if (call.aborted) return;
      console.error('video call: peer error', message);
      send(session, { type: 'videoCall.failed', message: CONNECT_FAILED_MESSAGE, at: session.now() });
    },
    onClose: () => {
      // The other side's peer closed: its `callEnded` (or its loss) ends the call here.
    },
  };
}

/** ICE down in a call: reconnecting, a restart soon (at once when failed) and a deadline; up again: reconnected. */
function followIce(session: Session, call: CallResources, ice: RTCIceConnectionState) {
  if (ice === 'disconnected' || ice === 'failed') {
    if (snapshot(session).value !== 'inCall') return;
    if (!call.reconnect) {
      send(session, { type: 'videoCall.reconnecting' });
      call.reconnect = {
        restart: callTimer(session, call, ice === 'failed' ? 0 : ICE_RESTART_DELAY_MS, () =>
          call.peer?.restartIce(),
        ),
        deadline: callTimer(session, call, RECONNECT_DEADLINE_MS, () =>
          send(session, { type: 'videoCall.failed', message: CONNECTION_LOST_MESSAGE, at: session.now() }),
        ),
      };
    } else if (ice === 'failed') {
      call.peer?.restartIce();
    }
  } else if ((ice === 'connected' || ice === 'completed') && call.reconnect) {
    cancelCallTimer(session, call, call.reconnect.restart);
    cancelCallTimer(session, call, call.reconnect.deadline);
    call.reconnect = null;
    send(session, { type: 'videoCall.reconnected' });
  }
}
