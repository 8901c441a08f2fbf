// The embedded broker's session store: aedes-persistence's in-memory one, with one bug fixed that loses
// QoS 2 messages to non-clean sessions (the browsers' sessions, SPEC §9 "clean session false").
//
// The bug (aedes-persistence 11.0.0, `outgoingUpdate`): when a client answers PUBREC, aedes stores a
// PUBREL `{ cmd, messageId }` in place of the delivered PUBLISH. `outgoingUpdate` first matches stored
// packets by `brokerId` + `brokerCounter`, which a PUBREL does not have: with two QoS 2 deliveries in
// flight (any burst, or the queue replayed on reconnect), the second PUBREL "matches" the first stored
// PUBREL (undefined === undefined), overwrites its messageId, and the first message's PUBREL is sent
// with the second one's id. The client never completes the first message: it is lost (49 of 50 in a
// burst, 3 of 5 replayed after a reconnect, on this machine).
//
// The fix gives each PUBREL the identity the lookup expects: a broker id of its own and its message
// id as counter, so a PUBREL matches only the stored packet with its own message id.
//
// A second bug (aedes 1.2.0, `deliverQoS`): when `authorizeForward` refuses a message to a non-clean
// session (a topic its subscription matches but the user may not read), aedes drops the queued copy
// with `outgoingClearMessageId(client, packet)`, but that packet has no message id yet, and the store
// removes the first queued packet whose message id is also undefined: another message, on its way to
// that client. Its delivery then fails ("no such packet"), the connection is dropped and the message
// is gone (seen in the ACL property test, 1 run in a few hundred). The fix removes the refused
// packet's own copy, found by its broker identity, and only while it has not been sent.
import memoryPersistence from 'aedes-persistence';

const PUBREL_BROKER_ID = 'pubrel';

interface OutgoingPacket {
  cmd: string;
  messageId?: number;
  brokerId?: string;
  brokerCounter?: number;
}

type OutgoingUpdate = (client: unknown, packet: OutgoingPacket, callback?: unknown) => unknown;
type OutgoingClear = (
  client: unknown,
  packet: OutgoingPacket,
  callback?: (error: Error | null, packet?: unknown) => void,
) => unknown;

/** A message id no MQTT packet carries (they are 1–65535): marks a queued copy for removal. */
const NOT_SENT = -1;

/** A PUBREL carries no broker identity: give it one that only its own stored packet shares. */
export function identifyPubrel(packet: OutgoingPacket): void {
  if (packet.cmd === 'pubrel' && packet.brokerId === undefined && packet.messageId !== undefined) {
    packet.brokerId = PUBREL_BROKER_ID;
    packet.brokerCounter = packet.messageId;
  }
}

/** aedes-persistence's memory store with the PUBREL fix; pass it as Aedes' `persistence`. */
export function createBrokerPersistence() {
  const persistence = memoryPersistence();
  const update = (persistence.outgoingUpdate as OutgoingUpdate).bind(persistence);
  const outgoingUpdate: OutgoingUpdate = (client, packet, callback) => {
    identifyPubrel(packet);
    return update(client, packet, callback);
  };
  persistence.outgoingUpdate = outgoingUpdate as typeof persistence.outgoingUpdate;

  const clear = (persistence.outgoingClearMessageId as OutgoingClear).bind(persistence);
  const stream = persistence.outgoingStream.bind(persistence) as (
    client: unknown,
  ) => AsyncIterable<OutgoingPacket>;
  /** Removes the queued copy of a message that will not be sent to this client, if still unsent. */
  const dropUnsent = async (client: unknown, packet: OutgoingPacket): Promise<unknown> => {
    let unsent = false;
    for await (const queued of stream(client)) {
      if (queued.brokerId === packet.brokerId && queued.brokerCounter === packet.brokerCounter) {
        unsent = queued.messageId === undefined;
        break;
      }
    }
    if (!unsent) return undefined;
    // The store finds a packet by its broker identity only to give it a message id: give it one no
    // other packet has, then clear by that id.
    await (update(client, { ...packet, messageId: NOT_SENT }) as Promise<unknown>);
    return clear(client, { cmd: 'publish', messageId: NOT_SENT });
  };
  const outgoingClearMessageId: OutgoingClear = (client, packet, callback) => {
    if (packet.messageId !== undefined || packet.brokerId === undefined)
      return clear(client, packet, callback);
    const dropped = dropUnsent(client, packet);
    if (!callback) return dropped;
    dropped.then(
      (removed) => callback(null, removed),
      (error: Error) => callback(error),
    );
    return undefined;
  };
  persistence.outgoingClearMessageId = outgoingClearMessageId as typeof persistence.outgoingClearMessageId;
  return persistence;
}
