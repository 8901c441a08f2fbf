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
import memoryPersistence from 'aedes-persistence';

const PUBREL_BROKER_ID = 'pubrel';

interface OutgoingPacket {
  cmd: string;
  messageId?: number;
  brokerId?: string;
  brokerCounter?: number;
}

type OutgoingUpdate = (client: unknown, packet: OutgoingPacket, callback?: unknown) => unknown;

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
  return persistence;
}
