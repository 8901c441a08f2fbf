import { eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NotificationList, NotificationMessage } from '../../../contracts/notifications';
import { notifications } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { createNotifications } from './service';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testBackends)('notifications on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.app.db.delete(notifications);
  });

  /** Stores `n` notifications for a user, one minute apart, the last one newest. */
  async function store(userId: string, n: number, prefix = 'Note') {
    await t.app.db.insert(notifications).values(
      Array.from({ length: n }, (_, index) => ({
        userId,
        title: `${prefix} ${index + 1}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)),
      })),
    );
  }
  const list = async (who: 'Admin' | 'Staff' | 'Seller' | 'Blocked', query = '') => {
    const response = await as(who, 'GET', `/api/v1/localEventMessage/listEventMessages${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<NotificationList>(response).data;
  };

  it("lists only the caller's notifications, newest first, paged on the server", async () => {
    await store(as.ids.Admin, 25);
    await store(as.ids.Staff, 2, 'Staff note');
    const first = await list('Admin');
    expect(first.count).toBe(25);
    expect(first.unreadCount).toBe(25);
    expect(first.result).toHaveLength(20); // the default page size
    expect(first.result[0]).toMatchObject({ title: 'Note 25', read: false, link: null, taskId: null });
    const second = await list('Admin', '?skip=20&limit=20');
    expect(second.result.map((n) => n.title)).toEqual(['Note 5', 'Note 4', 'Note 3', 'Note 2', 'Note 1']);
    expect((await list('Admin', '?skip=2&limit=2')).result.map((n) => n.title)).toEqual([
      'Note 23',
      'Note 22',
    ]);
    expect((await list('Admin', '?skip=100')).result).toEqual([]);
    const staff = await list('Staff');
    expect(staff.count).toBe(2);
    expect(staff.result.every((n) => n.title.startsWith('Staff note'))).toBe(true);
    expect((await list('Seller')).count).toBe(0);
  });

  it('validates paging and needs a signed-in user', async () => {
    for (const query of ['limit=0', 'limit=101', 'skip=-1', 'skip=x']) {
      const response = await as('Admin', 'GET', `/api/v1/localEventMessage/listEventMessages?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/api/v1/localEventMessage/listEventMessages',
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('marks own notifications read; ids of others are not touched', async () => {
    await store(as.ids.Admin, 3);
    await store(as.ids.Staff, 1, 'Staff note');
    const adminIds = (await list('Admin')).result.map((n) => n.id);
    const staffId = (await list('Staff')).result[0]?.id as string;

    const marked = await as('Admin', 'POST', '/api/v1/localEventMessage/markRead', {
      ids: [adminIds[0], staffId, UNKNOWN_ID],
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(json(marked)).toEqual({ unreadCount: 2 });
    const after = await list('Admin');
    expect(after.result.map((n) => n.read)).toEqual([true, false, false]);
    expect(after.unreadCount).toBe(2);
    expect(after.count).toBe(3);
    // The staff member's notification is still unread.
    expect((await list('Staff')).unreadCount).toBe(1);

    // Marking again changes nothing (and answers the same count).
    expect(
      json(await as('Admin', 'POST', '/api/v1/localEventMessage/markRead', { ids: [adminIds[0]] })),
    ).toEqual({
      unreadCount: 2,
    });
    for (const body of [{}, { ids: [] }, { ids: ['not-a-uuid'] }]) {
      expect((await as('Admin', 'POST', '/api/v1/localEventMessage/markRead', body)).statusCode).toBe(400);
    }
  });

  it('marks all of the caller’s notifications read, and only theirs', async () => {
    await store(as.ids.Admin, 4);
    await store(as.ids.Staff, 2, 'Staff note');
    const response = await as('Admin', 'POST', '/api/v1/localEventMessage/markAllRead');
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({ unreadCount: 0 });
    expect((await list('Admin')).result.every((n) => n.read)).toBe(true);
    expect((await list('Staff')).unreadCount).toBe(2);
  });

  it('is open to every role, a blocked seller included', async () => {
    await store(as.ids.Blocked, 1, 'Renewal');
    expect((await list('Blocked')).result[0]?.title).toBe('Renewal 1');
    expect((await list('Seller')).count).toBe(0);
    expect(json(await as('Blocked', 'POST', '/api/v1/localEventMessage/markAllRead'))).toEqual({
      unreadCount: 0,
    });
  });

  it('stores a notification first, then publishes it to the owner', async () => {
    const seenAtPublish: number[] = [];
    const publish = vi.spyOn(t.app.broker, 'publishToUser').mockImplementation(async (userId) => {
      const rows = await t.app.db.select().from(notifications).where(eq(notifications.userId, userId));
      seenAtPublish.push(rows.length);
    });
    const stored = await t.app.notifications.notify(as.ids.Staff, {
      title: 'Catalogue ready',
      body: 'All 12 products are live',
      link: '/products',
    });
    expect(stored).toMatchObject({ title: 'Catalogue ready', read: false, link: '/products', taskId: null });
    expect(seenAtPublish).toEqual([1]); // the row was there when the message went out
    expect(publish).toHaveBeenCalledTimes(1);
    expect(publish).toHaveBeenCalledWith(as.ids.Staff, {
      type: 'NOTIFICATION',
      notificationId: stored?.id,
      title: 'Catalogue ready',
      body: 'All 12 products are live',
      link: '/products',
    } satisfies NotificationMessage);
  });

  it('keeps the notification when publishing fails (the browser refetches it)', async () => {
    vi.spyOn(t.app.broker, 'publishToUser').mockRejectedValue(new Error('broker down'));
    const stored = await t.app.notifications.notify(as.ids.Admin, { title: 'Still here' });
    expect(stored?.title).toBe('Still here');
    expect((await list('Admin')).result.map((n) => n.title)).toEqual(['Still here']);
  });

  it('stops waiting for a broker that does not answer (the notification is stored)', async () => {
    const warnings: unknown[] = [];
    const log = { ...t.app.log, warn: (...args: unknown[]) => warnings.push(args) } as typeof t.app.log;
    const hanging = createNotifications({
      db: t.app.db,
      broker: { publishToUser: () => new Promise(() => undefined) },
      log,
      publishTimeoutMs: 50,
    });
    // A notify that waited for this broker would never return: the test would run out of time.
    expect(await hanging.notify(as.ids.Admin, { title: 'Queued at the broker' })).toMatchObject({
      title: 'Queued at the broker',
    });
    expect(warnings).toHaveLength(1);
    expect((await list('Admin')).result.map((n) => n.title)).toEqual(['Queued at the broker']);
  });

  it('notifies a task at most once', async () => {
    const publish = vi.spyOn(t.app.broker, 'publishToUser').mockResolvedValue();
    const taskId = '11111111-1111-4111-8111-111111111111';
    const input = { title: 'Import is ready', taskId, taskName: 'Import', status: 'Completed' };
    const first = await t.app.notifications.notify(as.ids.Admin, input);
    expect(first?.taskId).toBe(taskId);
    expect(await t.app.notifications.notify(as.ids.Admin, input)).toBeNull();
    expect(publish).toHaveBeenCalledTimes(1);
    expect(publish.mock.calls[0]?.[1]).toMatchObject({ taskId, taskName: 'Import', status: 'Completed' });
    const [{ n } = { n: 0 }] = await t.app.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(notifications)
      .where(eq(notifications.taskId, taskId));
    expect(n).toBe(1);
  });
});

// The real embedded broker, a real MQTT.js subscriber: what notify() publishes reaches the owner only.
describe('notifications over the embedded broker', () => {
  let t: TestApp;
  let as: ApiAs;
  let url: string;
  const clients: mqtt.MqttClient[] = [];
  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
    as = await apiAs(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t.close();
  });

  async function subscriber(who: 'Admin' | 'Staff') {
    const client = await mqtt.connectAsync(url, {
      username: as.ids[who],
      password: as.tokens[who],
      reconnectPeriod: 0,
      clientId: `test_${Math.random().toString(36).slice(2)}`,
    });
    clients.push(client);
    await client.subscribeAsync(`mp_${as.ids[who]}_message`, { qos: 2 });
    const messages: NotificationMessage[] = [];
    client.on('message', (_topic, payload) => messages.push(JSON.parse(payload.toString())));
    return messages;
  }

  it('delivers the stored notification to its owner and nobody else', async () => {
    const staffMessages = await subscriber('Staff');
    const adminMessages = await subscriber('Admin');
    const stored = await t.app.notifications.notify(as.ids.Staff, {
      title: 'Hello',
      body: 'from the server',
    });
    await expect.poll(() => staffMessages.length).toBe(1);
    expect(staffMessages[0]).toEqual({
      type: 'NOTIFICATION',
      notificationId: stored?.id,
      title: 'Hello',
      body: 'from the server',
      link: null,
    });
    // A round trip to the admin afterwards: had the staff message leaked, it would have come first.
    await t.app.notifications.notify(as.ids.Admin, { title: 'Barrier' });
    await expect.poll(() => adminMessages.length).toBe(1);
    expect(adminMessages.map((message) => message.title)).toEqual(['Barrier']);
  });
});
