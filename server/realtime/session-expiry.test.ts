import { describe, expect, it } from 'vitest';
import { createBrokerPersistence } from './broker-persistence';
import { createSessionSweeper, type SessionStore } from './session-expiry';

const TOPIC = 'mp_u1_message';

async function storeWithSession(clientId: string) {
  const persistence = createBrokerPersistence() as unknown as SessionStore & {
    addSubscriptions(client: { id: string }, subs: { topic: string; qos: number }[]): Promise<unknown>;
    outgoingEnqueue(sub: { clientId: string; topic: string; qos: number }, packet: object): Promise<unknown>;
    subscriptionsByClient(client: { id: string }): Promise<unknown[] | null>;
  };
  await persistence.addSubscriptions({ id: clientId }, [{ topic: TOPIC, qos: 2 }]);
  await persistence.outgoingEnqueue(
    { clientId, topic: TOPIC, qos: 2 },
    { cmd: 'publish', topic: TOPIC, payload: Buffer.from('{}'), qos: 2, messageId: 7, brokerCounter: 1 },
  );
  const queued = async () => {
    const packets: unknown[] = [];
    for await (const packet of persistence.outgoingStream({ id: clientId })) packets.push(packet);
    return packets.length;
  };
  const subscriptions = async () => (await persistence.subscriptionsByClient({ id: clientId }))?.length ?? 0;
  return { persistence, queued, subscriptions };
}

describe('the broker forgets sessions nobody came back to', () => {
  it('keeps a session away for less than the TTL, then drops its subscriptions and queue', async () => {
    const { persistence, queued, subscriptions } = await storeWithSession('bo_u1_tab');
    let clock = 0;
    const forgotten: string[] = [];
    const sweeper = createSessionSweeper(persistence, {
      ttlMs: 1000,
      now: () => clock,
      forgotten: (id) => forgotten.push(id),
    });
    expect(await subscriptions()).toBe(1);
    expect(await queued()).toBe(1);

    sweeper.disconnected('bo_u1_tab', false);
    clock = 999;
    expect(await sweeper.sweep()).toBe(0);
    expect(await queued()).toBe(1);

    clock = 1000;
    expect(await sweeper.sweep()).toBe(1);
    expect(await subscriptions()).toBe(0);
    expect(await queued()).toBe(0);
    expect(forgotten).toEqual(['bo_u1_tab']);
  });

  it('keeps a session whose client came back, and never tracks clean sessions', async () => {
    const { persistence, queued } = await storeWithSession('bo_u1_tab');
    let clock = 0;
    const sweeper = createSessionSweeper(persistence, { ttlMs: 10, now: () => clock });
    sweeper.disconnected('bo_u1_tab', false);
    sweeper.connected('bo_u1_tab');
    sweeper.disconnected('clean-one', true);
    clock = 100;
    expect(await sweeper.sweep()).toBe(0);
    expect(await queued()).toBe(1);
  });
});
