// The broker connection of an auction's live view (issue 32). The public page and the staff page both
// watch as the auction's public page does: username `auction-watcher`, the auction's signed public token
// as password, a client id naming the auction, a clean session, and the one read-only topic. (Staff
// could use their own session, but the watcher's connection needs no token refresh and is the same
// path the customers use, so what staff see is what bidders see.) MQTT.js loads on the first connect.
import type { MqttClient } from 'mqtt';
import { AUCTION_WATCHER_USERNAME, auctionTopic } from '../../../../contracts/auctions';
import { brokerUrlFor } from '../../../services/broker-adapter';

export interface AuctionSocket {
  /** The deps `startAuctionLive` takes: the topic's messages and the connection's state (told at once). */
  subscribe(topic: string, onMessage: (payload: unknown) => void): () => void;
  onConnection(listener: (connected: boolean) => void): () => void;
  close(): void;
}

const randomTab = () => Math.random().toString(36).slice(2, 12);

export function openAuctionSocket(options: {
  auctionId: string;
  publicToken: string;
  /** Runtime config `mqttUrl` (MQTT_WS_URL), or null for /mqtt on this origin. */
  mqttUrl: string | null;
}): AuctionSocket {
  const handlers = new Set<(payload: unknown) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let client: MqttClient | null = null;
  let closed = false;
  const topic = auctionTopic(options.auctionId);

  let connected = false;
  const tell = (now: boolean) => {
    connected = now;
    for (const listener of connectionListeners) listener(now);
  };
  void import('mqtt').then(({ default: mqtt }) => {
    if (closed) return;
    client = mqtt.connect(brokerUrlFor(window.location, options.mqttUrl), {
      username: AUCTION_WATCHER_USERNAME,
      password: options.publicToken,
      clientId: `auction-${options.auctionId}-${randomTab()}`,
      clean: true,
      protocolVersion: 4,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
    });
    client.on('connect', () => {
      client?.subscribe(topic, { qos: 0 }, (error) => {
        if (!error) tell(true);
      });
    });
    client.on('close', () => tell(false));
    client.on('offline', () => tell(false));
    client.on('message', (_topic, payload) => {
      let message: unknown;
      try {
        message = JSON.parse(payload.toString());
      } catch {
        return;
      }
      for (const handler of handlers) handler(message);
    });
  });

  return {
    subscribe(_topic, onMessage) {
      handlers.add(onMessage);
      return () => handlers.delete(onMessage);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      // The live view needs the state now, not only its changes (a bid before the subscription).
      listener(connected);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closed = true;
      client?.end(true);
      handlers.clear();
      connectionListeners.clear();
    },
  };
}
