// An auction's public topic on the real embedded broker, spoken to by MQTT.js over WebSocket: a public
// page watches with the auction's signed link (and nothing else), a signed-in user may watch any
// auction, nobody but the server publishes there (a client's publish is acknowledged and dropped, its
// connection kept), an accepted bid reaches every watcher with the whole state, and the watchers'
// count follows connections.
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUCTION_WATCHER_USERNAME,
  type AuctionDetail,
  type AuctionMessage,
  auctionTopic,
} from '../../../contracts/auctions';
import { auctionBidders, auctions, products, users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  signInAs,
  type TestApp,
} from '../../test-support';

describe('auction topics on the embedded broker', () => {
  let t: TestApp;
  let as: ApiAs;
  let url: string;
  let auctionId: string;
  let token: string;
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
    as = await apiAs(t.app);
    const [seller] = await t.app.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    const [product] = await t.app.db
      .insert(products)
      .values({
        sellerId: seller!.sellerId!,
        title: 'Topic lamp',
        sku: 'TOPIC-1',
        priceMinor: 100,
        currency: 'EUR',
      })
      .returning({ id: products.id });
    const res = await as('Admin', 'POST', '/api/v1/auctions', {
      sellerId: seller!.sellerId,
      productId: product!.id,
      quantity: 1,
      title: 'Topic lamp',
      currency: 'EUR',
      startingPriceMinor: 1000,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      endsAt: new Date(Date.now() + 7_200_000).toISOString(),
      publish: true,
    });
    const detail = json<AuctionDetail>(res);
    auctionId = detail.id;
    token = detail.publicUrl!.split('/').pop()!;
    await t.app.db
      .update(auctions)
      .set({ startsAt: new Date(Date.now() - 60_000) })
      .where(eq(auctions.id, auctionId));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t.close();
  });

  const connect = async (username: string, password: string, clientId: string) => {
    const client = await mqtt.connectAsync(url, {
      username,
      password,
      clientId,
      reconnectPeriod: 0,
      connectTimeout: 4000,
    });
    clients.push(client);
    return client;
  };
  const watcher = (tab: string, link = token, auction = auctionId) =>
    connect(AUCTION_WATCHER_USERNAME, link, `auction-${auction}-${tab}`);
  const nextMessage = (client: mqtt.MqttClient, type: AuctionMessage['type']) =>
    new Promise<AuctionMessage>((resolve) => {
      const listener = (_topic: string, payload: Buffer) => {
        const message = JSON.parse(payload.toString()) as AuctionMessage;
        if (message.type !== type) return;
        client.off('message', listener);
        resolve(message);
      };
      client.on('message', listener);
    });

  /** The clients subscribed to the auction's topic and still connected. */
  const watching = new Set<mqtt.MqttClient>();
  const watch = async (client: mqtt.MqttClient) => {
    const [granted] = await client.subscribeAsync(auctionTopic(auctionId), { qos: 0 });
    watching.add(client);
    return granted;
  };

  /** Resolves when a watchers' message says `count`. */
  const watchersReach = (client: mqtt.MqttClient, count: number) =>
    new Promise<void>((resolve) => {
      const listener = (_topic: string, payload: Buffer) => {
        const message = JSON.parse(payload.toString()) as AuctionMessage;
        if (message.type !== 'watchers' || message.watchers !== count) return;
        client.off('message', listener);
        resolve();
      };
      client.on('message', listener);
    });

  it('lets a public page watch its auction with the signed link, and nothing else', async () => {
    await expect(watcher('forged', `${auctionId}.${'A'.repeat(43)}`)).rejects.toThrow(
      /Bad username or password/i,
    );
    const other = '00000000-0000-4000-8000-000000000000';
    await expect(watcher('mismatch', token, other)).rejects.toThrow(/Bad username or password/i);
    const page = await watcher('tab1');
    expect((await watch(page))?.qos).toBe(0);
    await expect(page.subscribeAsync(auctionTopic(other), { qos: 0 })).rejects.toThrow(/Subscribe error/);
    await expect(page.subscribeAsync('mp_settings', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    expect(page.connected).toBe(true);
  });

  it('refuses a client’s publish on the auction topic without dropping it, and delivers the server’s bids', async () => {
    const page = await watcher('tab2');
    await watch(page);
    const { token: access, userId } = await signInAs(t.app, demoEmails.Staff);
    const staff = await connect(userId, access, `test_${Math.random().toString(36).slice(2)}`);
    await watch(staff);
    const heard: string[] = [];
    page.on('message', (_topic, payload) => heard.push(payload.toString()));
    let closes = 0;
    staff.on('close', () => closes++);
    page.on('close', () => closes++);
    await staff.publishAsync(auctionTopic(auctionId), 'forged', { qos: 1 });
    await page.publishAsync(auctionTopic(auctionId), 'forged too', { qos: 1 });
    expect(staff.connected && page.connected).toBe(true);

    // A bid through the API reaches both watchers with the whole new state.
    const [bidder] = await t.app.db
      .insert(auctionBidders)
      .values({ auctionId, name: 'Asha Verma', email: 'asha@example.com', confirmedAt: new Date() })
      .returning();
    const seen = Promise.all([nextMessage(page, 'state'), nextMessage(staff, 'state')]);
    const bid = await as('Admin', 'POST', `/api/v1/auctions/${auctionId}/bids`, {
      bidderId: bidder!.id,
      maxMinor: 2500,
      currency: 'EUR',
    });
    expect(bid.statusCode, bid.body).toBe(200);
    for (const message of await seen) {
      expect(message).toMatchObject({
        type: 'state',
        state: { priceMinor: 1000, leaderName: 'A***a', bids: 1, status: 'live' },
        bids: [{ sequence: 1, bidder: 'A***a', priceMinor: 1000 }],
      });
      expect(JSON.stringify(message)).not.toContain('2500');
    }
    expect(heard.some((text) => text.startsWith('forged'))).toBe(false);
    expect(closes).toBe(0);
  });

  it('counts the watchers and tells them when it changes', async () => {
    // The expected count is what this file has subscribed and not ended, so the test holds whichever
    // tests ran before it.
    const audience = () => t.app.broker.audience?.(auctionTopic(auctionId));
    const first = await watcher('count1');
    await watch(first);
    const second = await watcher('count2');
    const more = watchersReach(first, watching.size + 1);
    await watch(second);
    await more;
    expect(audience()).toBe(watching.size);
    const fewer = watchersReach(first, watching.size - 1);
    watching.delete(second);
    await second.endAsync(true);
    await fewer;
    expect(audience()).toBe(watching.size);
  });
});
