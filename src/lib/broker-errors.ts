// The broker client's error texts (SPEC §5 and §8 "Broker messages"), in one place: the statechart, the
// adapter and the tests all use these constants. Most are MQTT.js's own wording, kept as they are so
// that a message from the library and one raised by our own checks read the same.
import { INVALID_TOPIC_MESSAGE } from '../../contracts/broker-topics';

/** Subscribe, unsubscribe or publish with a topic that is not a valid MQTT topic (SPEC §5). */
export { INVALID_TOPIC_MESSAGE };
/** Publish, subscribe or unsubscribe while the client is not connected. */
export const NOT_CONNECTED_MESSAGE = 'MQTT client not connected';
/** Unsubscribe from a topic this client has not subscribed to. */
export const TOPIC_NOT_FOUND_MESSAGE = 'Topic not found.';
/** An operation that was in flight when the connection dropped (MQTT.js's wording). */
export const CONNECTION_CLOSED_MESSAGE = 'Connection closed';
/** An operation that was in flight, or started, while the client was being ended (MQTT.js's wording). */
export const CLIENT_DISCONNECTING_MESSAGE = 'client disconnecting';
/** Connecting without an access token, or every connection attempt failed. */
export const NO_CONNECTION_MESSAGE = 'No connection to broker';
/** MQTT.js: authentication data without an authentication method (MQTT 5). */
export const NO_AUTHENTICATION_METHOD_MESSAGE = 'Packet has no Authentication Method';
/** MQTT.js: the broker sent a packet larger than the advertised maximum packet size (MQTT 5). */
export const EXCEEDING_PACKET_SIZE_MESSAGE = 'exceeding packets size';
/** SPEC §5: a non-clean session needs a client id (MQTT.js's wording). */
export const MISSING_CLIENT_ID_MESSAGE = 'Missing clientId for unclean clients';
/** SPEC §5: MQTT 5 topic aliases are 16-bit; a larger maximum is refused before connecting. */
export const TOPIC_ALIAS_MAXIMUM_MESSAGE = 'Topic alias maximum must not exceed 65535';
/** The broker's own refusal text: a browser publishes only on its own topics. */
export const PUBLISH_NOT_ALLOWED_MESSAGE = 'Publishing on this topic is not allowed';

/** The broker refused the connection (CONNACK): a bad or expired access token, a foreign client id. */
export function connectionRefusedMessage(reason: string): string {
  return `Connection refused: ${reason}`;
}

export const MAX_TOPIC_ALIAS = 0xffff;

/** Every fixed text of SPEC §8 "Broker messages" (the test checks the list against the SPEC). */
export const BROKER_ERROR_MESSAGES = [
  NOT_CONNECTED_MESSAGE,
  TOPIC_NOT_FOUND_MESSAGE,
  CONNECTION_CLOSED_MESSAGE,
  CLIENT_DISCONNECTING_MESSAGE,
  NO_CONNECTION_MESSAGE,
  INVALID_TOPIC_MESSAGE,
  NO_AUTHENTICATION_METHOD_MESSAGE,
  EXCEEDING_PACKET_SIZE_MESSAGE,
  MISSING_CLIENT_ID_MESSAGE,
] as const;

/**
 * Whether an error MQTT.js reports ends the client (SPEC §4: "on error the client is ended"): the broker
 * refused the connection, or broke the protocol. Retrying those cannot help; a new client with a new
 * token can. Everything else (a refused socket, a connack or keepalive timeout, a dropped websocket) is
 * a failed or lost connection: the `close` that follows it schedules the next attempt.
 */
export function isFatalBrokerError(message: string): boolean {
  return (
    message.startsWith(connectionRefusedMessage('')) ||
    message.startsWith(EXCEEDING_PACKET_SIZE_MESSAGE) ||
    message === NO_AUTHENTICATION_METHOD_MESSAGE ||
    message.startsWith('Protocol error') ||
    message === 'topicAliasMaximum from broker is out of range'
  );
}
