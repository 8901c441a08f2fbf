import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallList,
  type CallLog,
  type CallLogDetail,
  type GenerateCallBody,
  INVALID_PHONE_MESSAGE,
} from '../../../contracts/calls';
import { callLogs } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { COUNT_CAP } from './repository';

const API = '/api/v1/callHistory/method';
const ended = (status: 'Connected' | 'Not Picked', seconds = 0) => ({
  callStatus: status,
  callDuration: seconds,
  callStartedAt: seconds ? '2026-01-05T10:00:00.000Z' : null,
  callEndedAt: seconds
    ? new Date(Date.parse('2026-01-05T10:00:00.000Z') + seconds * 1000).toISOString()
    : null,
});

describe.each(testBackends)('call history on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  async function generate(who: DemoRole, body: Partial<GenerateCallBody> = {}) {
    const response = await as(who, 'POST', `${API}/generateCall`, {
      phoneNumber: '+91 77777 12345',
      referenceType: 'OUTGOING',
      source: 'LOCAL',
      callDetails: { callStatus: 'Not Picked' },
      ...body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ data: { callId: string } }>(response).data.callId;
  }
  const search = async (who: DemoRole, query: string) => {
    const response = await as(who, 'GET', `${API}/searchCallHistory?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<CallList>(response);
  };
  const details = async (who: DemoRole, id: string) => as(who, 'GET', `${API}/getCallDetails/${id}`);
  const rowOf = async (id: string) => {
    const [row] = await t.database.db.select().from(callLogs).where(eq(callLogs.id, id));
    return row;
  };

  it('seeds a demo call history between the demo accounts, newest first', async () => {
    const seller = json<CallList>(await as('Seller', 'GET', `${API}/listCallHistory`));
    expect(seller.count).toBeGreaterThanOrEqual(5);
    expect(seller.result.every((entry) => entry.owner.id === as.ids.Seller)).toBe(true);
    const times = seller.result.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // A call between two demo accounts names the other party.
    expect(seller.result.some((entry) => entry.peerName === 'Sam Staff')).toBe(true);
    const admin = json<CallList>(await as('Admin', 'GET', `${API}/listCallHistory?limit=100`));
    expect(new Set(admin.result.map((entry) => entry.owner.name))).toEqual(
      new Set(['Asha Admin', 'Sam Staff', 'Sunil Seller']),
    );
  });

  it('logs a call, resolving the number to the user who owns it, and shows it with its timeline', async () => {
    const callId = await generate('Staff', {
      phoneNumber: '+91 (90000) 000-03',
      referenceType: 'OUTGOING',
      callDetails: { callStatus: 'Not Picked' },
    });
    const response = await details('Staff', callId);
    expect(response.statusCode).toBe(200);
    const call = json<CallLogDetail>(response);
    expect(call).toMatchObject({
      callId,
      phoneNumber: '+919000000003',
      peerName: 'Sunil Seller',
      referenceType: 'OUTGOING',
      source: 'LOCAL',
      feedbackData: null,
      owner: { id: as.ids.Staff, name: 'Sam Staff' },
      callDetails: { callStatus: 'Not Picked', callDuration: 0, callStartedAt: null, callEndedAt: null },
    });
    expect(call.timeline.map((entry) => entry.event)).toEqual(['created', 'status']);
    expect(call.timeline[1]?.callStatus).toBe('Not Picked');

    // A number nobody here owns has no peer.
    const external = json<CallLogDetail>(
      await details('Staff', await generate('Staff', { phoneNumber: '022 555 0101' })),
    );
    expect(external).toMatchObject({ phoneNumber: '0225550101', peerName: null });
  });

  it('names the other party only where the call could have happened (no directory of names by number)', async () => {
    const peerOf = async (who: DemoRole, body: Partial<GenerateCallBody>) =>
      json<CallLogDetail>(await details(who, await generate(who, body))).peerName;
    // A seller may call the marketplace's people, and be called by them…
    expect(await peerOf('Seller', { phoneNumber: '+91 90000 00002' })).toBe('Sam Staff');
    expect(
      await peerOf('Seller', { phoneNumber: '+91 90000 00001', referenceType: 'INCOMING' }),
    ).not.toBeNull();
    // …but not another seller: logging a made-up call to (or from) one tells no name.
    expect(await peerOf('Seller', { phoneNumber: '+91 90000 00005' })).toBeNull();
    expect(await peerOf('Seller', { phoneNumber: '+91 90000 00004', referenceType: 'INCOMING' })).toBeNull();
    // Staff may call anyone.
    expect(await peerOf('Staff', { phoneNumber: '+91 90000 00005' })).toBe('Kavya Kesar');
  });

  it('updates the status and the feedback, appending to the timeline', async () => {
    const callId = await generate('Seller', { phoneNumber: '+91 66666 10001', referenceType: 'INCOMING' });
    const connected = await as('Seller', 'PUT', `${API}/updateHistory/${callId}`, {
      callDetails: ended('Connected', 125),
    });
    expect(connected.statusCode, connected.body).toBe(200);
    expect(json<{ data: CallLog }>(connected).data.callDetails).toEqual(ended('Connected', 125));

    const rated = await as('Seller', 'PUT', `${API}/updateHistory/${callId}`, {
      callDetails: ended('Connected', 125),
      feedbackData: { rating: 4, text: '  Good line  ' },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    expect(json<{ data: CallLog }>(rated).data.feedbackData).toEqual({ rating: 4, text: 'Good line' });

    const call = json<CallLogDetail>(await details('Seller', callId));
    // The status was unchanged by the second update: only the feedback was added.
    expect(call.timeline.map((entry) => [entry.event, entry.callStatus ?? entry.note])).toEqual([
      ['created', 'Incoming call (LOCAL)'],
      ['status', 'Not Picked'],
      ['status', 'Connected'],
      ['feedback', 'Rated 4/5: Good line'],
    ]);
    expect(call.callDetails.callDuration).toBe(125);
  });

  it('searches by digits of the number, status, direction and date range', async () => {
    const a = await generate('Staff', { phoneNumber: '+91 55512 34001', referenceType: 'INCOMING' });
    const b = await generate('Staff', {
      phoneNumber: '+91 55512 34002',
      referenceType: 'OUTGOING',
      callDetails: { callStatus: 'Rejected' },
    });
    const ids = (list: CallList) => list.result.map((entry) => entry.callId);

    const byNumber = await search('Staff', 'number=5512%2034');
    expect(ids(byNumber)).toEqual([b, a]);
    expect(byNumber.count).toBe(2);
    expect(ids(await search('Staff', 'number=34001'))).toEqual([a]);
    expect(ids(await search('Staff', 'number=55512&status=Rejected'))).toEqual([b]);
    expect(ids(await search('Staff', 'number=55512&direction=INCOMING'))).toEqual([a]);

    const rejected = await search('Staff', 'status=Rejected');
    expect(rejected.result.every((entry) => entry.callDetails.callStatus === 'Rejected')).toBe(true);
    expect(ids(rejected)).toContain(b);
    const incoming = await search('Staff', 'direction=INCOMING&limit=100');
    expect(incoming.result.every((entry) => entry.referenceType === 'INCOMING')).toBe(true);

    // The demo calls are days old: a range of the last minute holds only the new ones.
    const from = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const recent = await search('Staff', `from=${from}&to=${to}&limit=100`);
    expect(ids(recent)).toEqual(expect.arrayContaining([a, b]));
    const all = await search('Staff', 'limit=100');
    expect(recent.count).toBeLessThan(all.count);
    const old = await search(
      'Staff',
      `to=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&limit=100`,
    );
    expect(old.count).toBeGreaterThan(0);
    expect(ids(old)).not.toContain(a);
    expect(
      old.count +
        (await search('Staff', `from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`))
          .count,
    ).toBe(all.count);
  });

  it('pages newest first without gaps or repeats', async () => {
    for (let i = 0; i < 5; i++) await generate('Admin', { phoneNumber: `+91 44400 0000${i}` });
    const all = await search('Admin', 'number=4440000&limit=100');
    expect(all.count).toBe(5);
    const pages = [];
    for (let skip = 0; skip < 5; skip += 2)
      pages.push(...(await search('Admin', `number=4440000&skip=${skip}&limit=2`)).result);
    expect(pages.map((entry) => entry.callId)).toEqual(all.result.map((entry) => entry.callId));
    // A page past the middle is read from the other end: same rows as reading from the top.
    const list = json<CallList>(await as('Admin', 'GET', `${API}/listCallHistory?limit=100`));
    const deep = json<CallList>(
      await as('Admin', 'GET', `${API}/listCallHistory?skip=${list.count - 3}&limit=2`),
    );
    expect(deep.result.map((e) => e.callId)).toEqual(
      list.result.slice(list.count - 3, list.count - 1).map((e) => e.callId),
    );
    expect(
      json<CallList>(await as('Admin', 'GET', `${API}/listCallHistory?skip=${list.count}`)).result,
    ).toEqual([]);
  });

  it('shows each user only their own logs; admins read everyone’s but update only their own', async () => {
    const staffCall = await generate('Staff', { phoneNumber: '+91 33333 00777' });
    expect((await details('Seller', staffCall)).statusCode).toBe(404);
    expect((await search('Seller', 'number=3333300777')).count).toBe(0);
    const sellerList = json<CallList>(await as('Seller', 'GET', `${API}/listCallHistory?limit=100`));
    expect(sellerList.result.every((entry) => entry.owner.id === as.ids.Seller)).toBe(true);

    expect((await details('Admin', staffCall)).statusCode).toBe(200);
    const adminSearch = await search('Admin', 'number=3333300777');
    expect(adminSearch.result.map((entry) => entry.owner)).toEqual([{ id: as.ids.Staff, name: 'Sam Staff' }]);

    const before = await rowOf(staffCall);
    for (const who of ['Admin', 'Seller'] as const) {
      const response = await as(who, 'PUT', `${API}/updateHistory/${staffCall}`, {
        feedbackData: { rating: 1, text: 'not mine' },
      });
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ message: 'Call not found', code: 'CALL_NOT_FOUND' });
    }
    expect(await rowOf(staffCall)).toEqual(before);
  });

  it('needs the Call History view permission to read, only a sign-in to log calls', async () => {
    await t.database.db.execute(
      sql`UPDATE role_permissions SET actions = '[]'::jsonb WHERE role = 'Seller' AND route = '/calls/call-history'`,
    );
    t.app.permissionCache.forget();
    try {
      const list = await as('Seller', 'GET', `${API}/listCallHistory`);
      expect(list.statusCode).toBe(403);
      expect(json(list)).toMatchObject({ code: 'FORBIDDEN' });
      const callId = await generate('Seller');
      expect((await details('Seller', callId)).statusCode).toBe(403);
      const update = await as('Seller', 'PUT', `${API}/updateHistory/${callId}`, {
        callDetails: ended('Not Picked'),
      });
      expect(update.statusCode).toBe(200);
    } finally {
      await t.database.db.execute(
        sql`UPDATE role_permissions SET actions = '["view","edit"]'::jsonb WHERE role = 'Seller' AND route = '/calls/call-history'`,
      );
      t.app.permissionCache.forget();
    }
    expect((await as('Seller', 'GET', `${API}/listCallHistory`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${API}/listCallHistory` })).statusCode).toBe(401);
  });

  it('refuses bad input with clear errors and leaves the log as it was', async () => {
    for (const phoneNumber of ['12345', 'call me', '+91 90000 00000 00000 1', '']) {
      const response = await as('Staff', 'POST', `${API}/generateCall`, {
        phoneNumber,
        referenceType: 'OUTGOING',
        source: 'LOCAL',
        callDetails: { callStatus: 'Not Picked' },
      });
      expect(response.statusCode, phoneNumber).toBe(400);
      expect(json<{ message: string }>(response).message).toContain(INVALID_PHONE_MESSAGE);
    }
    const callId = await generate('Staff', { phoneNumber: '+91 22222 00888' });
    const before = await rowOf(callId);
    const bad = [
      { feedbackData: { rating: 6, text: 'too good' } },
      { feedbackData: { rating: 0, text: 'too bad' } },
      {},
      { callDetails: { callStatus: 'Lost' } },
      { callDetails: { callStatus: 'Connected', callDuration: -1 } },
      { callDetails: { callStatus: 'Connected', callStartedAt: 'yesterday' } },
    ];
    for (const body of bad) {
      const response = await as('Staff', 'PUT', `${API}/updateHistory/${callId}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(response)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect(
      json<{ message: string }>(
        await as('Staff', 'PUT', `${API}/updateHistory/${callId}`, { feedbackData: { rating: 6, text: '' } }),
      ).message,
    ).toContain('Rate the call from 1 to 5');
    expect(await rowOf(callId)).toEqual(before);

    // Feedback for an unknown call: 404, nothing written anywhere.
    const [{ total }] = (await t.database.db
      .select({ total: sql<number>`count(*)::int` })
      .from(callLogs)) as [{ total: number }];
    const unknown = await as('Staff', 'PUT', `${API}/updateHistory/00000000-0000-4000-8000-000000000000`, {
      feedbackData: { rating: 3, text: 'who?' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({ message: 'Call not found', code: 'CALL_NOT_FOUND' });
    const [{ total: after }] = (await t.database.db
      .select({ total: sql<number>`count(*)::int` })
      .from(callLogs)) as [{ total: number }];
    expect(after).toBe(total);

    expect((await details('Staff', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await details('Staff', 'not-a-uuid')).statusCode).toBe(400);
    expect(
      (await as('Staff', 'PUT', `${API}/updateHistory/not-a-uuid`, { feedbackData: { rating: 3, text: '' } }))
        .statusCode,
    ).toBe(400);
    for (const query of [
      'number=abc',
      'status=Lost',
      'direction=SIDEWAYS',
      'from=yesterday',
      'limit=0',
      'limit=101',
      'skip=-1',
    ]) {
      expect((await as('Staff', 'GET', `${API}/searchCallHistory?${query}`)).statusCode, query).toBe(400);
    }
    const backwards = await as(
      'Staff',
      'GET',
      `${API}/searchCallHistory?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
    );
    expect(backwards.statusCode).toBe(400);
  });

  it('documents every route in the OpenAPI spec from the zod schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = json<{ paths: Record<string, Record<string, unknown>> }>(response);
    for (const [path, method] of [
      ['listCallHistory', 'get'],
      ['searchCallHistory', 'get'],
      ['getCallDetails/{id}', 'get'],
      ['generateCall', 'post'],
      ['updateHistory/{id}', 'put'],
    ] as const) {
      expect(spec.paths[`${API}/${path}`]?.[method], path).toBeDefined();
    }
    expect(JSON.stringify(spec.paths[`${API}/generateCall`])).toContain('referenceType');
    expect(JSON.stringify(spec.paths[`${API}/searchCallHistory`])).toContain('direction');
  });

  it('caps the count past COUNT_CAP matches and says so', async () => {
    // Bulk rows straight into the table: the count stops at the cap, the pages still come.
    await t.database.db.execute(sql`
      INSERT INTO call_logs (owner_id, phone_number, phone_digits, reference_type, source, call_status, created_at)
      SELECT ${as.ids.Kyc}::uuid, '+9188800' || lpad(n::text, 5, '0'), '9188800' || lpad(n::text, 5, '0'),
        'OUTGOING', 'TWILIO', 'Not Picked', now() - n * interval '1 minute'
      FROM generate_series(1, ${COUNT_CAP + 5}) AS n`);
    const list = json<CallList>(await as('Kyc', 'GET', `${API}/listCallHistory`));
    expect(list).toMatchObject({ count: COUNT_CAP, countCapped: true });
    expect(list.result).toHaveLength(20);
    const pastCap = json<CallList>(
      await as('Kyc', 'GET', `${API}/listCallHistory?skip=${COUNT_CAP}&limit=10`),
    );
    expect(pastCap.result.map((entry) => entry.phoneNumber)).toEqual(
      Array.from({ length: 5 }, (_, k) => `+9188800${String(COUNT_CAP + 1 + k).padStart(5, '0')}`),
    );
    const narrow = await search('Kyc', 'number=888000000');
    expect(narrow.count).toBe(9);
    expect(narrow.countCapped).toBeUndefined();
  });
});
