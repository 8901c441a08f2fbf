import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryDetail, QueryList } from '../../../contracts/queries';
import { loadConfig } from '../../config';
import { rowsOf } from '../../db/rows';
import { callLogs, chatSessions, contacts, customerQueries, sellers, users } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { readOutbox } from '../campaigns/test-helpers';
import { dueReminders } from './follow-ups';

const API = '/api/v1/helperQuery';

describe.each(testBackends)('customer queries on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let demoSellerId: string;
  let otherQueryId: string;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false }, env: { E2E_TEST_HOOKS: 'true' } });
    as = await apiAs(t.app);
    const db = t.database.db;
    demoSellerId = (
      await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.sellerCode, 'SEL-0001'))
    )[0]!.id;
    const [other] = await db
      .select({ id: customerQueries.id })
      .from(customerQueries)
      .where(sql`${customerQueries.sellerId} <> ${demoSellerId}`)
      .limit(1);
    otherQueryId = other!.id;
  });
  afterAll(() => t.close());

  const create = async (
    payload: Record<string, unknown> = {},
    who: 'Admin' | 'Staff' | 'Seller' = 'Seller',
  ) => {
    const response = await as(who, 'POST', API, {
      customerName: 'Ada Lovelace',
      email: 'ada.queries@example.com',
      subject: 'Bulk order of saris',
      message: 'Can you ship 40 saris to Pune by Friday?',
      ...payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<QueryDetail>(response);
  };

  it('lists what each role may see, with tab counts from the counters', async () => {
    const admin = json<QueryList>(await as('Admin', 'GET', API));
    const seller = json<QueryList>(await as('Seller', 'GET', API));
    const staff = await as('Staff', 'GET', API);
    expect(staff.statusCode).toBe(200);
    expect(seller.result.every((q) => q.sellerId === demoSellerId)).toBe(true);
    expect(admin.result.some((q) => q.sellerId !== demoSellerId)).toBe(true);
    // SPEC §2: the demo seller counts 3 not yet resolved.
    expect(seller.tabs.new + seller.tabs.open + seller.tabs.waiting).toBe(3);
    const [counted] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`SELECT count(*)::integer AS n FROM customer_queries`),
    );
    expect(Object.values(admin.tabs).reduce((a, b) => a + b, 0)).toBe(counted!.n);
    expect(seller.total).toBe(Object.values(seller.tabs).reduce((a, b) => a + b, 0));
    // A seller cannot widen the scope with a query parameter.
    const widened = json<QueryList>(await as('Seller', 'GET', `${API}?sellerId=${otherQueryId}`));
    expect(widened.result.every((q) => q.sellerId === demoSellerId)).toBe(true);
  });

  it("answers 404 for another seller's query, and 400 for bad input", async () => {
    expect((await as('Seller', 'GET', `${API}/${otherQueryId}`)).statusCode).toBe(404);
    expect(
      (await as('Seller', 'POST', `${API}/${otherQueryId}/status`, { status: 'resolved' })).statusCode,
    ).toBe(404);
    expect((await as('Admin', 'GET', `${API}/${otherQueryId}`)).statusCode).toBe(200);
    expect((await as('Admin', 'GET', `${API}/not-a-uuid`)).statusCode).toBe(400);
    const bad = await as('Seller', 'POST', API, {
      customerName: '',
      email: 'nope',
      subject: 'x',
      message: 'y',
    });
    expect(bad.statusCode).toBe(400);
    expect(json<{ message: string }>(bad).message).toMatch(/name|e-mail/i);
    expect((await as('Admin', 'GET', `${API}?status=pending`)).statusCode).toBe(400);
    // A product of another shop cannot be attached.
    const [foreign] = rowsOf<{ id: string }>(
      await t.database.db.execute(sql`SELECT id FROM products WHERE seller_id <> ${demoSellerId} LIMIT 1`),
    );
    if (foreign) {
      const refused = await as('Seller', 'POST', API, {
        customerName: 'A',
        email: 'a@example.com',
        subject: 's',
        message: 'm',
        productId: foreign.id,
      });
      expect(refused.statusCode).toBe(400);
    }
  });

  it('enters a query by hand, linked to the marketing contact of the address', async () => {
    const query = await create();
    expect(query).toMatchObject({
      status: 'new',
      channel: 'manual',
      sellerId: demoSellerId,
      priority: 'normal',
    });
    expect(query.events.result[0]).toMatchObject({
      kind: 'message_in',
      body: 'Can you ship 40 saris to Pune by Friday?',
    });
    const [contact] = await t.database.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(eq(contacts.email, 'ada.queries@example.com'));
    expect(query.contactId).toBe(contact!.id);
    expect(query.sla.firstResponse.state).toMatch(/running|breached/);
    // The shop's people hear of it (not the seller who typed it in).
    const told = rowsOf<{ user_id: string }>(
      await t.database.db.execute(
        sql`SELECT user_id FROM notifications WHERE link = ${`/queries/query?id=${query.id}`}`,
      ),
    );
    expect(told.map((row) => row.user_id)).not.toContain(as.ids.Seller);
    const byStaff = await create({ email: 'told@example.com', sellerId: demoSellerId }, 'Staff');
    const toldSeller = rowsOf<{ user_id: string; title: string }>(
      await t.database.db.execute(
        sql`SELECT user_id, title FROM notifications WHERE link = ${`/queries/query?id=${byStaff.id}`}`,
      ),
    );
    expect(toldSeller.map((row) => row.user_id)).toContain(as.ids.Seller);
    expect(toldSeller[0]!.title).toBe(`New query Q-${byStaff.number}: Bulk order of saris`);
    // On the contact's one timeline, with a way to the query.
    const history = await as('Admin', 'GET', `${API}/method/getContactHistory/${query.contactId}`);
    const entry = json<{ result: { note: string | null; link: string | null }[] }>(history).result.find((e) =>
      e.link?.endsWith(query.id),
    );
    expect(entry?.note).toBe(`Q-${query.number} Bulk order of saris (new, manual)`);
    // Staff choose the seller; found by search, by words and by number.
    const found = json<QueryList>(
      await as('Staff', 'GET', `${API}/method/searchQueries?query=saris%20to%20pune`),
    );
    expect(found.result.map((q) => q.id)).toContain(query.id);
    const byNumber = json<QueryList>(
      await as('Staff', 'GET', `${API}/method/searchQueries?query=Q-${query.number}`),
    );
    expect(byNumber.result.map((q) => q.id)).toContain(query.id);
  });

  it("says whether the phone can be rung: a back-office user's number yes, an outside one not without Twilio", async () => {
    const [staff] = await t.database.db
      .select({ phone: users.phone })
      .from(users)
      .where(sql`${users.phone} <> ''`)
      .limit(1);
    const inside = await create({ phone: staff!.phone });
    expect(inside.phoneCallable).toBe(true);
    expect((await create({ phone: '+49 30 1234567' })).phoneCallable).toBe(false);
    expect((await create({ phone: '' })).phoneCallable).toBe(false);
  });

  it('enforces the status moves and says why one is refused', async () => {
    const query = await create({ email: 'moves@example.com' });
    expect(query.nextStatuses).toEqual(['open', 'waiting', 'resolved', 'closed']);
    const resolved = json<QueryDetail>(
      await as('Seller', 'POST', `${API}/${query.id}/status`, { status: 'resolved' }),
    );
    expect(resolved.status).toBe('resolved');
    expect(resolved.sla.resolution.state).toMatch(/met|breached/);
    const back = await as('Seller', 'POST', `${API}/${query.id}/status`, { status: 'new' });
    expect(back.statusCode).toBe(409);
    expect(json<{ message: string }>(back).message).toBe(
      'A query cannot go back to new once someone has looked at it.',
    );
    await as('Seller', 'POST', `${API}/${query.id}/status`, { status: 'closed' });
    const closed = await as('Seller', 'POST', `${API}/${query.id}/status`, { status: 'open' });
    expect(closed.statusCode).toBe(409);
    expect(json<{ message: string }>(closed).message).toMatch(/closed query cannot change/);
    const statuses = json<QueryDetail>(await as('Seller', 'GET', `${API}/${query.id}`)).events.result.filter(
      (e) => e.kind === 'status',
    );
    expect(statuses.map((e) => e.data.to)).toEqual(['closed', 'resolved']);
  });

  it('logs connect data: a call answers the customer, opens the query and sets the follow-up', async () => {
    const query = await create({ email: 'connect@example.com' });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const logged = await as('Seller', 'POST', `${API}/method/addConnectData/${query.id}`, {
      kind: 'call',
      body: 'Called back about the saris',
      outcome: 'Will confirm tomorrow',
      nextFollowUpAt: at,
      followUpNote: 'Ask for the final count',
    });
    expect(logged.statusCode, logged.body).toBe(200);
    const after = json<QueryDetail>(logged);
    expect(after).toMatchObject({ status: 'open', followUpNote: 'Ask for the final count', overdue: false });
    expect(after.nextFollowUpAt).toBe(at);
    expect(after.firstResponseAt).not.toBeNull();
    expect(after.sla.firstResponse.state).toMatch(/met|breached/);
    expect(after.events.result.map((e) => e.kind).slice(0, 3)).toEqual(['follow_up', 'call', 'status']);
    const note = await as('Seller', 'POST', `${API}/method/addConnectData/${query.id}`, {
      kind: 'note',
      body: 'x'.repeat(3000),
    });
    const event = json<QueryDetail>(note).events.result.find((e) => e.kind === 'note')!;
    expect(event.truncated).toBe(true);
    const whole = await as('Seller', 'GET', `${API}/${query.id}/events/${event.id}`);
    expect(json<{ body: string }>(whole).body).toHaveLength(3000);
    expect(
      (await as('Seller', 'POST', `${API}/method/addConnectData/${query.id}`, { kind: 'fax' })).statusCode,
    ).toBe(400);
  });

  it('reminds the current assignee once, never after a resolve, again after a date change', async () => {
    const db = t.database.db;
    const query = await create({ email: 'follow@example.com' }, 'Admin');
    const due = new Date('2030-01-06T09:00:00Z');
    await as('Admin', 'POST', `${API}/${query.id}/assign`, { assigneeId: as.ids.Staff });
    await as('Admin', 'POST', `${API}/${query.id}/follow-up`, { at: due.toISOString(), note: 'Call back' });
    // Reassigned before it falls due: the reminder goes to the new owner (Zammad #1223).
    await as('Admin', 'POST', `${API}/${query.id}/assign`, { assigneeId: as.ids.Admin });
    const mine = (reminders: Awaited<ReturnType<typeof dueReminders>>) =>
      reminders.filter((r) => r.input.link?.endsWith(query.id));
    expect(mine(await dueReminders(db, new Date('2030-01-06T08:59:00Z')))).toEqual([]);
    const first = mine(await dueReminders(db, new Date('2030-01-06T09:00:00Z')));
    expect(first.map((r) => r.userId)).toEqual([as.ids.Admin]);
    expect(first[0]!.input).toMatchObject({
      type: 'customer-query',
      title: expect.stringContaining('Follow-up due'),
    });
    // Exactly once.
    expect(mine(await dueReminders(db, new Date('2030-01-06T10:00:00Z')))).toEqual([]);
    // A new date is a new reminder.
    await as('Admin', 'POST', `${API}/${query.id}/follow-up`, { at: '2030-01-07T09:00:00Z', note: 'Again' });
    expect(mine(await dueReminders(db, new Date('2030-01-07T09:00:01Z')))).toHaveLength(1);
    // Resolved: the date is cleared and nothing fires (Zammad #5051).
    await as('Admin', 'POST', `${API}/${query.id}/follow-up`, { at: '2030-01-08T09:00:00Z', note: 'Third' });
    const resolved = json<QueryDetail>(
      await as('Admin', 'POST', `${API}/${query.id}/status`, { status: 'resolved' }),
    );
    expect(resolved.nextFollowUpAt).toBeNull();
    expect(mine(await dueReminders(db, new Date('2030-01-09T00:00:00Z')))).toEqual([]);
    const refused = await as('Admin', 'POST', `${API}/${query.id}/follow-up`, { at: '2030-01-10T09:00:00Z' });
    expect(refused.statusCode).toBe(409);
  });

  it('wakes a snoozed query at its time and reminds the shop when nobody is assigned', async () => {
    const db = t.database.db;
    const query = await create({ email: 'snooze@example.com' });
    const snoozed = json<QueryDetail>(
      await as('Seller', 'POST', `${API}/${query.id}/snooze`, {
        until: '2031-03-02T10:00:00Z',
        reopenOnReply: false,
      }),
    );
    expect(snoozed).toMatchObject({ status: 'waiting', snoozeReopenOnReply: false });
    expect(snoozed.sla.firstResponse.state).toMatch(/paused|breached/);
    const reminders = (await dueReminders(db, new Date('2031-03-02T10:00:00Z'))).filter((r) =>
      r.input.link?.endsWith(query.id),
    );
    expect(reminders.map((r) => r.userId)).toContain(as.ids.Seller);
    expect(reminders[0]!.input.title).toMatch(/Snooze ended/);
    const woken = json<QueryDetail>(await as('Seller', 'GET', `${API}/${query.id}`));
    expect(woken).toMatchObject({ status: 'open', snoozedUntil: null });
  });

  it('filters by assignee, priority, overdue and date, and keeps the counters equal to the rows', async () => {
    const query = await create({ email: 'filters@example.com', priority: 'urgent' }, 'Admin');
    await as('Admin', 'POST', `${API}/${query.id}/assign`, { assigneeId: as.ids.Staff });
    await as('Admin', 'POST', `${API}/${query.id}/follow-up`, { at: '2020-01-01T00:00:00Z' });
    const overdue = json<QueryList>(
      await as('Staff', 'GET', `${API}?assigneeId=me&overdue=true&priority=urgent`),
    );
    expect(overdue.result.map((q) => q.id)).toEqual([query.id]);
    expect(overdue.result[0]).toMatchObject({ overdue: true, assigneeName: expect.any(String) });
    const today = new Date().toISOString().slice(0, 10);
    const dated = json<QueryList>(
      await as('Admin', 'GET', `${API}?from=${today}&to=${today}&priority=urgent`),
    );
    expect(dated.result.map((q) => q.id)).toContain(query.id);
    const [row] = rowsOf<{ mismatched: number }>(
      await t.database.db.execute(sql`
        SELECT count(*)::integer AS mismatched FROM (
          SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid) AS k, status, count(*)::integer AS n
          FROM customer_queries GROUP BY 1, 2
        ) real FULL JOIN query_status_counts c ON c.seller_key = real.k AND c.status = real.status
        WHERE coalesce(real.n, 0) <> coalesce(c.queries, 0)`),
    );
    expect(row!.mismatched).toBe(0);
    // A seller cannot assign to someone of another shop.
    const mine = await create({ email: 'assign@example.com' });
    expect(
      (await as('Seller', 'POST', `${API}/${mine.id}/assign`, { assigneeId: as.ids.Kyc })).statusCode,
    ).toBe(400);
  });

  it('turns a help chat and a call into a query, once each, for whoever may see them', async () => {
    const db = t.database.db;
    const [chat] = await db
      .select({ id: chatSessions.id, email: chatSessions.email })
      .from(chatSessions)
      .where(eq(chatSessions.sellerId, demoSellerId))
      .limit(1);
    const made = await as('Seller', 'POST', `${API}/method/fromChat/${chat!.id}`, { priority: 'high' });
    expect(made.statusCode, made.body).toBe(201);
    const query = json<QueryDetail>(made);
    expect(query).toMatchObject({
      channel: 'chat',
      priority: 'high',
      email: chat!.email,
      sellerId: demoSellerId,
    });
    const again = await as('Admin', 'POST', `${API}/method/fromChat/${chat!.id}`, {});
    expect(again.statusCode).toBe(200);
    expect(json<QueryDetail>(again).id).toBe(query.id);
    const [foreignChat] = await db
      .select({ id: chatSessions.id })
      .from(chatSessions)
      .where(sql`${chatSessions.sellerId} <> ${demoSellerId}`)
      .limit(1);
    if (foreignChat) {
      expect((await as('Seller', 'POST', `${API}/method/fromChat/${foreignChat.id}`, {})).statusCode).toBe(
        404,
      );
    }

    const [call] = await db
      .insert(callLogs)
      .values({
        ownerId: as.ids.Seller,
        phoneNumber: '+919800000001',
        phoneDigits: '919800000001',
        referenceType: 'INCOMING',
        source: 'LOCAL',
        callStatus: 'COMPLETED',
        feedbackText: 'Wants a quote for 40 saris',
      })
      .returning({ id: callLogs.id });
    const body = { customerName: 'Ravi Kumar', email: 'ravi.call@example.com', subject: 'Quote for saris' };
    expect((await as('Admin', 'POST', `${API}/method/fromCall/${call!.id}`, body)).statusCode).toBe(404);
    const logged = json<QueryDetail>(await as('Seller', 'POST', `${API}/method/fromCall/${call!.id}`, body));
    expect(logged).toMatchObject({ channel: 'call', phone: '+919800000001', sellerId: demoSellerId });
    expect(logged.message).toContain('Call feedback: Wants a quote for 40 saris');
  });

  it("shows the customer's timeline on a query's page: a seller only their shop's, staff everything", async () => {
    const db = t.database.db;
    const email = 'timeline.customer@example.com';
    const own = await create({ email, subject: 'Own shop question' });
    const [otherSeller] = await db
      .select({ id: sellers.id })
      .from(sellers)
      .where(sql`${sellers.id} <> ${demoSellerId}`)
      .limit(1);
    await create({ email, subject: 'Another shop question', sellerId: otherSeller!.id }, 'Admin');
    const [call] = await db
      .insert(callLogs)
      .values({
        ownerId: as.ids.Seller,
        phoneNumber: '+919800000077',
        phoneDigits: '919800000077',
        referenceType: 'OUTGOING',
        source: 'LOCAL',
        callStatus: 'COMPLETED',
        durationSeconds: 150,
        feedbackRating: 4,
        feedbackText: 'Happy with the answer',
      })
      .returning({ id: callLogs.id });
    await as('Seller', 'POST', `${API}/method/fromCall/${call!.id}`, {
      customerName: 'Timeline Customer',
      email,
      subject: 'Called about delivery',
    });

    type Timeline = { result: { action: string; note: string | null; link: string | null }[]; count: number };
    const sellerResponse = await as('Seller', 'GET', `${API}/${own.id}/contactHistory`);
    expect(sellerResponse.statusCode, sellerResponse.body).toBe(200);
    const seller = json<Timeline>(sellerResponse);
    const notes = seller.result.map((entry) => entry.note ?? '');
    expect(notes.some((note) => note.includes('Own shop question'))).toBe(true);
    expect(notes.some((note) => note.includes('Another shop question'))).toBe(false);
    // The marketplace's own marketing trail (the contact's creation) is not the shop's to see.
    expect(seller.result.some((entry) => entry.action === 'created')).toBe(false);
    const callEntry = seller.result.find((entry) => entry.action === 'call');
    expect(callEntry?.note).toBe(
      'Call +919800000077: COMPLETED, 3 min — feedback 4/5: Happy with the answer',
    );
    expect(callEntry?.link).toBe(`/calls/call-history?callId=${call!.id}`);
    expect(seller.result.find((entry) => entry.note?.includes('Own shop question'))?.link).toBe(
      `/queries/query?id=${own.id}`,
    );

    const staff = json<Timeline>(await as('Staff', 'GET', `${API}/${own.id}/contactHistory`));
    expect(staff.result.some((entry) => entry.note?.includes('Another shop question'))).toBe(true);
    expect(staff.count).toBeGreaterThan(seller.count);
    expect((await as('Seller', 'GET', `${API}/${otherQueryId}/contactHistory`)).statusCode).toBe(404);
  });

  it('runs the follow-up sweep at a chosen time through the e2e test hook, which is off by default', async () => {
    expect(loadConfig({}).E2E_TEST_HOOKS).toBe(false);
    const query = await create({ email: 'hook@example.com' });
    await as('Seller', 'POST', `${API}/${query.id}/follow-up`, { at: '2032-05-05T05:00:00Z', note: 'Hook' });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test-hooks/run-follow-ups',
      payload: { now: '2032-05-05T05:00:00Z' },
    });
    expect(hook.statusCode).toBe(200);
    expect(json<{ reminders: number }>(hook).reminders).toBeGreaterThanOrEqual(1);
    const [notification] = rowsOf<{ title: string }>(
      await t.database.db.execute(
        sql`SELECT title FROM notifications WHERE user_id = ${as.ids.Seller} AND title LIKE ${`%Q-${query.number}%`}`,
      ),
    );
    expect(notification?.title).toMatch(/^Follow-up due: Q-/);
  });

  it('replies from a template with a signed link; the answer lands in the thread and reopens the query', async () => {
    const [template] = rowsOf<{ id: string }>(
      await t.database.db.execute(sql`SELECT id FROM mail_templates LIMIT 1`),
    );
    const query = await create({ email: 'reply.link@example.com', customerName: 'Mira Shah' });
    const replied = await as('Seller', 'POST', `${API}/${query.id}/reply`, {
      templateId: template!.id,
      note: 'Thanks for writing, Mira.',
    });
    expect(replied.statusCode, replied.body).toBe(200);
    const after = json<QueryDetail>(replied);
    expect(after.status).toBe('waiting');
    expect(after.firstResponseAt).not.toBeNull();
    expect(after.events.result[0]).toMatchObject({ kind: 'message_out' });
    const mail = (await readOutbox(t.dataDir)).find((m) =>
      m.headers.get('to')?.includes('reply.link@example.com'),
    );
    expect(mail?.headers.get('subject')).toContain(`[Q-${query.number}]`);
    const link = /\/query-reply\?query=([0-9a-f-]+)&token=([\w-]+)/.exec(mail!.body);
    expect(link?.[1]).toBe(query.id);
    const token = link![2]!;
    const page = await t.app.inject({ url: `${API}/method/customerReply?query=${query.id}&token=${token}` });
    expect(json<{ subject: string; open: boolean }>(page)).toMatchObject({
      subject: 'Bulk order of saris',
      open: true,
    });
    // A forged or borrowed token answers nothing.
    const forged = await t.app.inject({
      url: `${API}/method/customerReply?query=${otherQueryId}&token=${token}`,
    });
    expect(forged.statusCode).toBe(404);
    const answer = await t.app.inject({
      method: 'POST',
      url: `${API}/method/customerReply`,
      payload: { query: query.id, token, message: 'We need 40, delivered by Friday.' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const reopened = json<QueryDetail>(await as('Seller', 'GET', `${API}/${query.id}`));
    expect(reopened.status).toBe('open');
    expect(reopened.events.result[0]).toMatchObject({
      kind: 'message_in',
      body: 'We need 40, delivered by Friday.',
      actorName: 'Mira Shah',
    });
    // Snoozed with "stay snoozed": the answer is kept, the query sleeps on.
    await as('Seller', 'POST', `${API}/${query.id}/snooze`, {
      until: '2033-01-01T09:00:00Z',
      reopenOnReply: false,
    });
    await t.app.inject({
      method: 'POST',
      url: `${API}/method/customerReply`,
      payload: { query: query.id, token, message: 'Thanks, confirmed.' },
    });
    const sleeping = json<QueryDetail>(await as('Seller', 'GET', `${API}/${query.id}`));
    expect(sleeping).toMatchObject({ status: 'waiting', snoozedUntil: '2033-01-01T09:00:00.000Z' });
    expect(sleeping.events.result[0]!.body).toBe('Thanks, confirmed.');
  });

  it('reports the % of SLA targets met per assignee and per seller, as JSON and CSV', async () => {
    const query = await create({ email: 'report@example.com' }, 'Admin');
    await as('Admin', 'POST', `${API}/${query.id}/assign`, { assigneeId: as.ids.Staff });
    await as('Staff', 'POST', `${API}/method/addConnectData/${query.id}`, {
      kind: 'call',
      outcome: 'Solved',
    });
    await as('Staff', 'POST', `${API}/${query.id}/status`, { status: 'resolved' });
    const today = new Date().toISOString().slice(0, 10);
    const report = await as('Staff', 'GET', `${API}/method/slaReport?from=${today}&to=${today}`);
    expect(report.statusCode, report.body).toBe(200);
    const body = json<{
      byAssignee: {
        id: string | null;
        resolved: number;
        firstResponseCounted: number;
        resolutionRate: number | null;
      }[];
      bySeller: { id: string | null }[];
    }>(report);
    const staff = body.byAssignee.find((row) => row.id === as.ids.Staff);
    expect(staff).toMatchObject({ resolved: 1, firstResponseCounted: 1 });
    expect(staff!.resolutionRate).toBeGreaterThanOrEqual(0);
    expect(body.bySeller.map((row) => row.id)).toContain(demoSellerId);
    // A seller's report covers their own shop only.
    const own = json<{ bySeller: { id: string | null }[] }>(
      await as('Seller', 'GET', `${API}/method/slaReport?from=${today}&to=${today}`),
    );
    expect(own.bySeller.every((row) => row.id === demoSellerId)).toBe(true);
    const csv = await as('Staff', 'GET', `${API}/method/slaReport.csv?from=${today}&to=${today}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('"Grouping","Name","Resolved"');
    expect(csv.body).toMatch(/"Assignee","[^"]+",1,1,1,/);
    expect((await as('Staff', 'GET', `${API}/method/slaReport?from=yesterday&to=${today}`)).statusCode).toBe(
      400,
    );
  });
});
