import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallList } from '../../../contracts/calls';
import {
  ALREADY_IN_CALL_MESSAGE,
  ANSWERED_ELSEWHERE_MESSAGE,
  BLOCKED_SELLER_CALL_MESSAGE,
  BUSY_MESSAGE,
  CALL_GONE_MESSAGE,
  CALL_IN_USE_MESSAGE,
  CALL_SELF_MESSAGE,
  type CallUserEvent,
  VIDEO_CALL_EVENTS as E,
  GLARE_MESSAGE,
  MISSED_VIDEO_CALL_TITLE,
  NO_SUCH_PERSON_MESSAGE,
  NOT_YOUR_CALL_MESSAGE,
  UNAVAILABLE_MESSAGE,
  VIDEO_RATE_LIMITED_MESSAGE,
  VIDEO_RING_TIMEOUT_MS,
} from '../../../contracts/video-calls';
import { SIGNAL_TOO_LARGE_MESSAGE } from '../../../contracts/video-signal';
import { type IncomingCallEvent, VOICE_EVENTS as V } from '../../../contracts/voice-signalling';
import { buildApp } from '../../app';
import { callLogs, notifications, users, videoCalls } from '../../db/schema';
import { createTestApp, demoEmails, json, signInAs, type TestApp, testBackends } from '../../test-support';
import { replaceUserOverrides } from '../permissions/service';
import { type Device, dialPayload, registeredDevice, ANSWER as VOICE_ANSWER } from '../voice/test-devices';
import { NOT_ANSWERED_YET_MESSAGE, VIDEO_CALLS_NOT_ALLOWED_MESSAGE } from './signalling';
import {
  ANSWER,
  CANDIDATE,
  callPayload,
  OFFER,
  openTab,
  RESTART_OFFER,
  type Session,
  type Tab,
} from './test-tabs';

type Who = 'Admin' | 'Staff' | 'Seller' | 'Kyc' | 'Blocked';
const NAMES: Record<Who, string> = {
  Admin: 'Asha Admin',
  Staff: 'Sam Staff',
  Seller: 'Sunil Seller',
  Kyc: 'Kavya Kesar',
  Blocked: 'Bela Blocked',
};

/** Short enough for a test to wait for; each test that needs the real length sets its own. */
const GRACE_MS = 150;

describe.each(testBackends)('video calls (%s)', (backend) => {
  let t: TestApp;
  const sessions = {} as Record<Who, Session>;
  const tabs: Tab[] = [];
  const devices: Device[] = [];
  const tab = async (who: Who) => {
    const opened = await openTab(t.app, sessions[who]);
    tabs.push(opened);
    return opened;
  };
  const rowOf = async (callId: string) => {
    const [row] = await t.database.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    return row;
  };
  const logsOf = async (callId: string) => {
    const row = await rowOf(callId);
    if (!row) throw new Error(`no call ${callId}`);
    return t.database.db
      .select()
      .from(callLogs)
      .where(
        and(inArray(callLogs.ownerId, [row.callerId, row.calleeId]), eq(callLogs.createdAt, row.createdAt)),
      )
      .orderBy(callLogs.referenceType);
  };
  /** `caller` calls `callee`'s tabs, which all ring: the payload and what the first tab saw. */
  const ring = async (caller: Tab, callee: Tab[], extra = {}) => {
    const payload = callPayload(callee[0]?.userId as string, extra);
    expect(await caller.send(E.callUser, payload)).toEqual({ ok: true, callId: payload.callId });
    const rung = await Promise.all(callee.map((each) => each.next<CallUserEvent>(E.callUser)));
    return { callId: payload.callId, rung: rung[0] as CallUserEvent };
  };
  /** A call `caller` made and `callee` answered. */
  const answered = async (caller: Tab, callee: Tab) => {
    const call = await ring(caller, [callee]);
    expect(
      await callee.send(E.answerCall, { callId: call.callId, to: caller.userId, signal: ANSWER }),
    ).toEqual({
      ok: true,
    });
    await caller.next(E.callAccepted);
    return call.callId;
  };
  const settle = () =>
    vi.waitFor(
      () => {
        const pending = t.app.videoCalls.pending();
        expect(pending.timers.filter((key) => key.startsWith('grace:'))).toEqual([]);
        expect(pending.running).toBe(0);
      },
      { timeout: 5000, interval: 10 },
    );

  beforeAll(async () => {
    t = await createTestApp({
      backend,
      jobs: { enabled: false },
      videoCalls: { rejoinGraceMs: GRACE_MS, callLimit: { limit: 10_000, windowMs: 10_000 } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const who of Object.keys(NAMES) as Who[]) sessions[who] = await signInAs(t.app, demoEmails[who]);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const each of tabs.splice(0)) each.socket.disconnect();
    for (const each of devices.splice(0)) each.socket.disconnect();
    await settle();
    t.app.videoCalls.settings.ringTimeoutMs = VIDEO_RING_TIMEOUT_MS;
    t.app.videoCalls.settings.rejoinGraceMs = GRACE_MS;
    // Whatever a test left live would make the next one's callers "already in a call".
    await t.database.db
      .update(videoCalls)
      .set({ state: 'ended', endedAt: new Date() })
      .where(sql`${videoCalls.state} in ('ringing', 'accepted', 'connected')`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('rings every tab of the callee with the caller the server knows, whatever the payload says', async () => {
    const staff = await tab('Staff');
    const sellerTabs = [await tab('Seller'), await tab('Seller')];
    const admin = await tab('Admin');
    const payload = callPayload(sessions.Seller.userId, { from: sessions.Admin.userId, name: 'Mallory' });
    expect(await staff.send(E.callUser, payload)).toEqual({ ok: true, callId: payload.callId });
    for (const sellerTab of sellerTabs)
      expect(await sellerTab.next(E.callUser)).toEqual({
        callId: payload.callId,
        userToCall: sessions.Seller.userId,
        signalData: OFFER,
        from: sessions.Staff.userId,
        name: NAMES.Staff,
        avatarUrl: null,
      } satisfies CallUserEvent);
    expect(await rowOf(payload.callId)).toMatchObject({ state: 'ringing', callerId: sessions.Staff.userId });
    // Nobody else heard of it.
    expect(await admin.untaken(t.app)).toEqual([]);
    expect(await staff.untaken(t.app)).toEqual([]);
  });

  it('serves a client that sends exactly the SPEC’s fields: the server makes the call id', async () => {
    const staff = await tab('Staff');
    const seller = await tab('Seller');
    // SPEC §7: callUser {userToCall, signalData, from, name}; answerCall {signal, to}. No callId.
    const ack = await staff.send<{ callId: string }>(E.callUser, {
      userToCall: sessions.Seller.userId,
      signalData: OFFER,
      from: sessions.Staff.userId,
      name: NAMES.Staff,
    });
    expect(ack).toEqual({ ok: true, callId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const callId = ack.ok ? ack.callId : '';
    expect(await seller.next<CallUserEvent>(E.callUser)).toMatchObject({
      callId,
      from: sessions.Staff.userId,
    });
    expect(await seller.send(E.answerCall, { to: sessions.Staff.userId, signal: ANSWER })).toEqual({
      ok: true,
    });
    expect(await staff.next(E.callAccepted)).toEqual({ callId, signal: ANSWER });
    expect(await rowOf(callId)).toMatchObject({ state: 'accepted', callerId: sessions.Staff.userId });
    // Nothing rings from this caller any more: a second SPEC answer finds no call.
    expect(await seller.send(E.answerCall, { to: sessions.Staff.userId, signal: ANSWER })).toMatchObject({
      ok: false,
    });
    expect(await staff.send(E.hangup, { callId })).toEqual({ ok: true });
  });

  it('puts the first tab that answers through; the others stop ringing and cannot answer', async () => {
    const staff = await tab('Staff');
    const [first, second] = [await tab('Seller'), await tab('Seller')] as [Tab, Tab];
    const { callId } = await ring(staff, [first, second]);
    // Trickled while it rings: every tab of the callee gets the caller's candidates.
    expect(await staff.send(E.signal, { callId, signal: CANDIDATE })).toEqual({ ok: true });
    for (const each of [first, second])
      expect(await each.next(E.signal)).toEqual({ callId, signal: CANDIDATE });
    // The callee's first word is its answer.
    expect(await first.send(E.signal, { callId, signal: CANDIDATE })).toEqual({
      ok: false,
      message: NOT_ANSWERED_YET_MESSAGE,
    });

    const answer = { callId, to: sessions.Staff.userId, signal: ANSWER };
    expect(await first.send(E.answerCall, answer)).toEqual({ ok: true });
    expect(await staff.next(E.callAccepted)).toEqual({ callId, signal: ANSWER });
    expect(await second.next(E.callCancelled)).toEqual({ callId, reason: 'answeredElsewhere' });
    expect(await second.send(E.answerCall, answer)).toEqual({
      ok: false,
      message: ANSWERED_ELSEWHERE_MESSAGE,
    });
    expect(await rowOf(callId)).toMatchObject({ state: 'accepted', acceptedBy: first.socket.id });

    // Signals both ways, an ICE restart's offer included.
    expect(await first.send(E.signal, { callId, signal: CANDIDATE })).toEqual({ ok: true });
    expect(await staff.next(E.signal)).toEqual({ callId, signal: CANDIDATE });
    expect(await staff.send(E.signal, { callId, signal: RESTART_OFFER })).toEqual({ ok: true });
    expect(await first.next(E.signal)).toEqual({ callId, signal: RESTART_OFFER });

    expect(await first.send(E.connected, { callId })).toEqual({ ok: true });
    expect(await staff.send(E.connected, { callId })).toEqual({ ok: true });
    const connected = await rowOf(callId);
    expect(connected).toMatchObject({ state: 'connected' });
    expect(connected?.connectedAt).toBeInstanceOf(Date);

    expect(await staff.send(E.hangup, { callId })).toEqual({ ok: true });
    expect(await first.next(E.callEnded)).toEqual({ callId, reason: 'hangup' });
    expect(await rowOf(callId)).toMatchObject({ state: 'ended', endReason: 'hangup' });
    // Hanging up again, or from the other side, is fine; the call is over for signals and answers.
    expect(await staff.send(E.hangup, { callId })).toEqual({ ok: true });
    expect(await first.send(E.hangup, { callId })).toEqual({ ok: true });
    expect(await first.send(E.signal, { callId, signal: CANDIDATE })).toEqual({
      ok: false,
      message: CALL_GONE_MESSAGE,
    });
    expect(await staff.untaken(t.app)).toEqual([]);

    const logs = await logsOf(callId);
    expect(
      logs.map((log) => [log.ownerId, log.referenceType, log.peerUserId, log.media, log.source]),
    ).toEqual([
      [sessions.Seller.userId, 'INCOMING', sessions.Staff.userId, 'video', 'LOCAL'],
      [sessions.Staff.userId, 'OUTGOING', sessions.Seller.userId, 'video', 'LOCAL'],
    ]);
    expect(logs.map((log) => log.callStatus)).toEqual(['Connected', 'Connected']);
    expect(logs[1]?.phoneNumber).toBe('+919000000003');
    expect(logs[0]?.phoneNumber).toBe('+919000000002');
    expect(logs[1]?.timeline[0]).toMatchObject({ event: 'created', note: 'Outgoing video call' });
    expect(logs[0]?.timeline[0]).toMatchObject({ event: 'created', note: 'Incoming video call' });
    expect(logs[1]?.startedAt?.getTime()).toBe(connected?.connectedAt?.getTime());

    // Call History shows it, marked as video.
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/v1/callHistory/method/listCallHistory',
      headers: { authorization: `Bearer ${sessions.Staff.token}` },
    });
    const video = json<CallList>(history).result.find((call) => call.media === 'video');
    expect(video).toMatchObject({
      media: 'video',
      referenceType: 'OUTGOING',
      peerName: NAMES.Seller,
      callDetails: { callStatus: 'Connected' },
    });
  });

  it('tells the caller of a decline, and the other tabs; a busy decline is recorded as busy', async () => {
    const admin = await tab('Admin');
    const [first, second] = [await tab('Staff'), await tab('Staff')] as [Tab, Tab];
    const declined = await ring(admin, [first, second]);
    // Only the callee declines.
    expect(await admin.send(E.decline, { callId: declined.callId })).toEqual({
      ok: false,
      message: NOT_YOUR_CALL_MESSAGE,
    });
    expect(await first.send(E.decline, { callId: declined.callId })).toEqual({ ok: true });
    expect(await admin.next(E.callDeclined)).toEqual({ callId: declined.callId });
    expect(await second.next(E.callCancelled)).toEqual({
      callId: declined.callId,
      reason: 'declinedElsewhere',
    });
    expect(await rowOf(declined.callId)).toMatchObject({ state: 'declined' });
    expect((await logsOf(declined.callId)).map((log) => log.callStatus)).toEqual(['Rejected', 'Rejected']);
    expect(
      await first.send(E.answerCall, { callId: declined.callId, to: admin.userId, signal: ANSWER }),
    ).toEqual({
      ok: false,
      message: CALL_GONE_MESSAGE,
    });
    expect(await first.untaken(t.app)).toEqual([]);

    const busy = await ring(admin, [first, second]);
    expect(await second.send(E.decline, { callId: busy.callId, busy: true })).toEqual({ ok: true });
    expect(await admin.next(E.callDeclined)).toEqual({ callId: busy.callId });
    expect(await first.next(E.callCancelled)).toEqual({ callId: busy.callId, reason: 'declinedElsewhere' });
    expect(await rowOf(busy.callId)).toMatchObject({ state: 'busy' });
    expect((await logsOf(busy.callId)).map((log) => log.callStatus)).toEqual(['Not Picked', 'Not Picked']);

    // The callee hanging up a call that rings declines it too.
    const hungUp = await ring(admin, [first]);
    expect(await first.send(E.hangup, { callId: hungUp.callId })).toEqual({ ok: true });
    expect(await admin.next(E.callDeclined)).toEqual({ callId: hungUp.callId });
    expect(await second.next(E.callCancelled)).toEqual({
      callId: hungUp.callId,
      reason: 'declinedElsewhere',
    });
  });

  it('cancels when the caller hangs up first', async () => {
    const staff = await tab('Staff');
    const [first, second] = [await tab('Seller'), await tab('Seller')] as [Tab, Tab];
    const { callId } = await ring(staff, [first, second]);
    expect(await staff.send(E.hangup, { callId })).toEqual({ ok: true });
    for (const each of [first, second])
      expect(await each.next(E.callCancelled)).toEqual({ callId, reason: 'cancelled' });
    expect(await rowOf(callId)).toMatchObject({ state: 'cancelled', endReason: 'hangup' });
    const logs = await logsOf(callId);
    expect(logs.map((log) => [log.callStatus, log.media])).toEqual([
      ['Call Cancelled', 'video'],
      ['Call Cancelled', 'video'],
    ]);
    expect(await first.send(E.answerCall, { callId, to: staff.userId, signal: ANSWER })).toEqual({
      ok: false,
      message: CALL_GONE_MESSAGE,
    });
    // The caller may call again at once: the call is over.
    await ring(staff, [first, second]);
  });

  it('ends a call nobody answers as missed: noAnswer to the caller, a notification for the callee', async () => {
    const published = vi.spyOn(t.app.broker, 'publishToUser');
    t.app.videoCalls.settings.ringTimeoutMs = 300;
    const staff = await tab('Staff');
    const [first, second] = [await tab('Seller'), await tab('Seller')] as [Tab, Tab];
    const { callId } = await ring(staff, [first, second]);
    expect(await staff.next(E.callEnded)).toEqual({ callId, reason: 'noAnswer' });
    for (const each of [first, second])
      expect(await each.next(E.callCancelled)).toEqual({ callId, reason: 'missed' });
    expect(await rowOf(callId)).toMatchObject({ state: 'missed', endReason: 'timeout' });
    expect((await logsOf(callId)).map((log) => log.callStatus)).toEqual(['Not Picked', 'Not Picked']);
    const [notice] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, sessions.Seller.userId))
      .orderBy(sql`${notifications.createdAt} desc`)
      .limit(1);
    expect(notice).toMatchObject({ title: MISSED_VIDEO_CALL_TITLE, link: '/calls/call-history' });
    expect(notice?.body).toMatch(/^Sam Staff tried to video call you at \d\d:\d\d UTC\.$/);
    await vi.waitFor(() =>
      expect(published).toHaveBeenCalledWith(
        sessions.Seller.userId,
        expect.objectContaining({
          type: 'NOTIFICATION',
          notificationId: notice?.id,
          title: MISSED_VIDEO_CALL_TITLE,
        }),
      ),
    );
    // Too late to answer.
    expect(await first.send(E.answerCall, { callId, to: staff.userId, signal: ANSWER })).toEqual({
      ok: false,
      message: CALL_GONE_MESSAGE,
    });
  });

  it('answers busy when the callee is in a video call or a voice call', async () => {
    const staff = await tab('Staff');
    const seller = await tab('Seller');
    const admin = await tab('Admin');
    const callId = await answered(staff, seller);
    const busy = callPayload(sessions.Seller.userId);
    expect(await admin.send(E.callUser, busy)).toEqual({
      ok: false,
      reason: 'busy',
      message: BUSY_MESSAGE(NAMES.Seller),
    });
    expect(await rowOf(busy.callId)).toMatchObject({ state: 'busy', endReason: 'busy' });
    expect((await logsOf(busy.callId)).map((log) => log.callStatus)).toEqual(['Not Picked', 'Not Picked']);
    // Calling either party of the call is busy, from either side; and they cannot start another call.
    expect(await admin.send(E.callUser, callPayload(sessions.Staff.userId))).toMatchObject({
      reason: 'busy',
    });
    expect(await seller.send(E.callUser, callPayload(sessions.Admin.userId))).toEqual({
      ok: false,
      message: ALREADY_IN_CALL_MESSAGE,
    });
    expect(await seller.untaken(t.app)).toEqual([]);
    await staff.send(E.hangup, { callId });
    await seller.next(E.callEnded);

    // A local voice call between the seller and the admin (any instance: the count is on socket.data).
    const adminPhone = await registeredDevice(t.app, sessions.Admin);
    const sellerPhone = await registeredDevice(t.app, sessions.Seller);
    devices.push(adminPhone, sellerPhone);
    const dial = dialPayload('+91 90000 00003');
    await adminPhone.send(V.dial, dial);
    const incoming = await sellerPhone.next<IncomingCallEvent>(V.incoming);
    // Ringing is not busy yet.
    const whileRinging = callPayload(sessions.Seller.userId);
    expect(await staff.send(E.callUser, whileRinging)).toEqual({ ok: true, callId: whileRinging.callId });
    await seller.next(E.callUser);
    await staff.send(E.hangup, { callId: whileRinging.callId });
    await seller.next(E.callCancelled);
    expect(await sellerPhone.send(V.accept, { ticket: incoming.ticket, answer: VOICE_ANSWER })).toEqual({
      ok: true,
    });
    await adminPhone.next(V.accepted);
    expect(await staff.send(E.callUser, callPayload(sessions.Seller.userId))).toEqual({
      ok: false,
      reason: 'busy',
      message: BUSY_MESSAGE(NAMES.Seller),
    });
    // Both ends of the voice call are busy.
    expect(await staff.send(E.callUser, callPayload(sessions.Admin.userId))).toMatchObject({
      reason: 'busy',
    });
    await adminPhone.send(V.hangup, { ticket: incoming.ticket });
    await sellerPhone.next(V.ended);
    await ring(staff, [seller]);
  });

  it('records a call to someone with no tab open as missed and leaves them a notification', async () => {
    const staff = await tab('Staff');
    const payload = callPayload(sessions.Kyc.userId);
    expect(await staff.send(E.callUser, payload)).toEqual({
      ok: false,
      reason: 'unavailable',
      message: UNAVAILABLE_MESSAGE(NAMES.Kyc),
    });
    expect(await rowOf(payload.callId)).toMatchObject({ state: 'missed', endReason: 'offline' });
    const logs = await logsOf(payload.callId);
    expect(logs.map((log) => [log.ownerId, log.callStatus])).toEqual([
      [sessions.Kyc.userId, 'Not Picked'],
      [sessions.Staff.userId, 'Not Picked'],
    ]);
    const stored = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, sessions.Kyc.userId));
    expect(stored.map((notice) => notice.title)).toEqual([MISSED_VIDEO_CALL_TITLE]);
    expect(stored[0]?.body).toContain('Sam Staff tried to video call you');
    await t.database.db.delete(notifications).where(eq(notifications.userId, sessions.Kyc.userId));
  });

  it('resolves glare: the lower user id takes the other call, whichever called first', async () => {
    const [lowWho, highWho] = (
      sessions.Staff.userId < sessions.Admin.userId ? ['Staff', 'Admin'] : ['Admin', 'Staff']
    ) as [Who, Who];
    const low = await tab(lowWho);
    const high = await tab(highWho);

    // The higher id called first: the lower one's call is refused and the first keeps ringing.
    const first = await ring(high, [low]);
    expect(await low.send(E.callUser, callPayload(high.userId))).toEqual({
      ok: false,
      reason: 'glare',
      message: GLARE_MESSAGE(NAMES[highWho]),
    });
    expect(await low.send(E.answerCall, { callId: first.callId, to: high.userId, signal: ANSWER })).toEqual({
      ok: true,
    });
    await high.next(E.callAccepted);
    await low.send(E.hangup, { callId: first.callId });
    await high.next(E.callEnded);

    // The lower id called first: its call gives way to the higher one's, which rings.
    const second = await ring(low, [high]);
    const theirs = callPayload(low.userId);
    expect(await high.send(E.callUser, theirs)).toEqual({ ok: true, callId: theirs.callId });
    expect(await low.next(E.callEnded)).toEqual({ callId: second.callId, reason: 'glare' });
    expect(await high.next(E.callCancelled)).toEqual({ callId: second.callId, reason: 'cancelled' });
    expect(await low.next<CallUserEvent>(E.callUser)).toMatchObject({
      callId: theirs.callId,
      from: high.userId,
    });
    expect(await rowOf(second.callId)).toMatchObject({ state: 'cancelled', endReason: 'glare' });
    expect((await logsOf(second.callId)).map((log) => log.callStatus)).toEqual([
      'Call Cancelled',
      'Call Cancelled',
    ]);
    expect(await low.send(E.answerCall, { callId: theirs.callId, to: high.userId, signal: ANSWER })).toEqual({
      ok: true,
    });
    expect(await high.next(E.callAccepted)).toEqual({ callId: theirs.callId, signal: ANSWER });
  });

  it('refuses calls nobody may make: yourself, another seller, a stranger, a reused callId', async () => {
    const seller = await tab('Seller');
    const kyc = await tab('Kyc');
    const staff = await tab('Staff');
    const refusedPerson = { ok: false, reason: 'refused', message: NO_SUCH_PERSON_MESSAGE };
    expect(await seller.send(E.callUser, callPayload(sessions.Kyc.userId))).toEqual(refusedPerson);
    expect(await seller.send(E.callUser, callPayload(randomUUID()))).toEqual(refusedPerson);
    expect(await seller.send(E.callUser, callPayload(sessions.Seller.userId))).toEqual({
      ok: false,
      message: CALL_SELF_MESSAGE,
    });
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, sessions.Admin.userId));
    try {
      expect(await staff.send(E.callUser, callPayload(sessions.Admin.userId))).toEqual(refusedPerson);
    } finally {
      await t.database.db.update(users).set({ isActive: true }).where(eq(users.id, sessions.Admin.userId));
    }
    // Staff may call sellers.
    const { callId } = await ring(staff, [kyc]);
    expect(await seller.send(E.callUser, callPayload(sessions.Staff.userId, { callId }))).toEqual({
      ok: false,
      message: CALL_IN_USE_MESSAGE,
    });
    // A caller whose call rings is in a call.
    expect(await staff.send(E.callUser, callPayload(sessions.Seller.userId))).toEqual({
      ok: false,
      message: ALREADY_IN_CALL_MESSAGE,
    });
    // Nobody but the parties touches the call.
    expect(await seller.send(E.answerCall, { callId, to: staff.userId, signal: ANSWER })).toEqual({
      ok: false,
      message: NOT_YOUR_CALL_MESSAGE,
    });
    for (const event of [E.hangup, E.connected, E.rejoin])
      expect(await seller.send(event, { callId })).toEqual({ ok: false, message: NOT_YOUR_CALL_MESSAGE });
    expect(await seller.send(E.signal, { callId, signal: CANDIDATE })).toEqual({
      ok: false,
      message: NOT_YOUR_CALL_MESSAGE,
    });
    expect(await staff.send(E.connected, { callId })).toEqual({
      ok: false,
      message: NOT_ANSWERED_YET_MESSAGE,
    });
    expect(await seller.untaken(t.app)).toEqual([]);
    expect(await kyc.untaken(t.app)).toEqual([]);
  });

  it('refuses callers without the calls permission, and blocked sellers', async () => {
    const staff = await tab('Staff');
    await tab('Seller');
    await replaceUserOverrides(t.database.db, sessions.Staff.userId, { '/calls/call-history': [] });
    t.app.permissionCache.forget();
    try {
      expect(await staff.send(E.callUser, callPayload(sessions.Seller.userId))).toEqual({
        ok: false,
        reason: 'refused',
        message: VIDEO_CALLS_NOT_ALLOWED_MESSAGE,
      });
    } finally {
      await replaceUserOverrides(t.database.db, sessions.Staff.userId, {});
      t.app.permissionCache.forget();
    }
    const blocked = await tab('Blocked');
    expect(await blocked.send(E.callUser, callPayload(sessions.Staff.userId))).toEqual({
      ok: false,
      reason: 'refused',
      message: VIDEO_CALLS_NOT_ALLOWED_MESSAGE,
    });
  });

  it('refuses a call to a seller whose subscription is blocked, rings nobody, and records no call', async () => {
    const staff = await tab('Staff');
    const blocked = await tab('Blocked');
    const payload = callPayload(sessions.Blocked.userId);
    expect(await staff.send(E.callUser, payload)).toEqual({
      ok: false,
      reason: 'refused',
      message: BLOCKED_SELLER_CALL_MESSAGE(NAMES.Blocked),
    });
    expect(await rowOf(payload.callId)).toBeUndefined();
    expect(await blocked.untaken(t.app)).toEqual([]);
    // A seller in good standing is called as before.
    await ring(staff, [await tab('Seller')]);
  });

  it('refuses malformed and oversized payloads with the reason', async () => {
    const staff = await tab('Staff');
    const seller = await tab('Seller');
    const wide = { type: 'offer' as const, sdp: 'é'.repeat(16_000) };
    const refusal = (message: string) => ({ ok: false, message });
    const to = sessions.Seller.userId;
    expect(await staff.send(E.callUser, callPayload(to, { signalData: wide }))).toEqual(
      refusal(SIGNAL_TOO_LARGE_MESSAGE),
    );
    expect(await staff.send(E.callUser, callPayload(to, { signalData: ANSWER }))).toEqual(
      refusal('signalData: a call starts with an offer'),
    );
    expect(await staff.send(E.callUser, callPayload(to, { callId: 'call-1' }))).toEqual(
      refusal('callId must be a UUID'),
    );
    expect(await staff.send(E.callUser, callPayload('seller'))).toEqual(
      refusal('userToCall must be a user id'),
    );
    expect(
      await staff.send(E.callUser, { ...callPayload(to), signalData: { ...OFFER, extra: 'x' } }),
    ).toMatchObject({
      ok: false,
      message: expect.stringMatching(/extra|Unrecognized/i),
    });
    for (const junk of [undefined, null, 'callUser', 42, []])
      expect(await staff.send(E.callUser, junk)).toMatchObject({ ok: false, message: expect.any(String) });
    const { callId } = await ring(staff, [seller]);
    expect(
      await staff.send(E.signal, {
        callId,
        signal: { type: 'candidate', candidate: { candidate: 'x'.repeat(2001) } },
      }),
    ).toMatchObject({
      ok: false,
    });
    expect(await staff.send(E.signal, { callId, signal: wide })).toEqual(refusal(SIGNAL_TOO_LARGE_MESSAGE));
    expect(await staff.send(E.signal, { callId, signal: { type: 'hello' } })).toMatchObject({ ok: false });
    expect(await staff.send(E.decline, { callId, busy: 'yes' })).toMatchObject({ ok: false });
    expect(await staff.send(E.hangup, {})).toMatchObject({ ok: false, message: expect.any(String) });
    // Nothing of it reached the callee but the call itself.
    expect(await seller.untaken(t.app)).toEqual([]);
    // Events without an acknowledgement are handled all the same (and answer nobody).
    staff.socket.emit(E.hangup, { callId });
    expect(await seller.next(E.callCancelled)).toEqual({ callId, reason: 'cancelled' });
  });

  it('ends an answered call as lost when a party does not come back; a rejoin within the grace keeps it', async () => {
    const staff = await tab('Staff');
    const seller = await tab('Seller');
    const lost = await answered(staff, seller);
    seller.socket.disconnect();
    expect(await staff.next(E.callEnded)).toEqual({ callId: lost, reason: 'lost' });
    expect(await rowOf(lost)).toMatchObject({ state: 'ended', endReason: 'lost' });
    expect((await logsOf(lost)).map((log) => log.callStatus)).toEqual([
      'Call Disconnected',
      'Call Disconnected',
    ]);

    // The caller's socket drops and a new one (the same tab, reconnected) rejoins within the grace.
    t.app.videoCalls.settings.rejoinGraceMs = 1000;
    const sellerAgain = await tab('Seller');
    const kept = await answered(staff, sellerAgain);
    staff.socket.disconnect();
    const staffAgain = await tab('Staff');
    expect(await staffAgain.send(E.rejoin, { callId: kept })).toEqual({ ok: true, state: 'accepted' });
    await settle(); // the grace ran out and found the caller back in the call
    expect(await rowOf(kept)).toMatchObject({ state: 'accepted' });
    expect(await sellerAgain.untaken(t.app)).toEqual([]);
    expect(await sellerAgain.send(E.signal, { callId: kept, signal: CANDIDATE })).toEqual({ ok: true });
    expect(await staffAgain.next(E.signal)).toEqual({ callId: kept, signal: CANDIDATE });
    // And a later drop of the new socket still ends it.
    t.app.videoCalls.settings.rejoinGraceMs = GRACE_MS;
    staffAgain.socket.disconnect();
    expect(await sellerAgain.next(E.callEnded)).toEqual({ callId: kept, reason: 'lost' });
    expect(await sellerAgain.send(E.rejoin, { callId: kept })).toEqual({
      ok: false,
      message: CALL_GONE_MESSAGE,
    });
  });

  it('cancels a ringing call whose caller went away for good', async () => {
    const staff = await tab('Staff');
    const seller = await tab('Seller');
    const { callId } = await ring(staff, [seller]);
    // The callee's ringing tab may "rejoin" (nothing to join) and learns that it still rings.
    expect(await seller.send(E.rejoin, { callId })).toEqual({ ok: true, state: 'ringing' });
    staff.socket.disconnect();
    expect(await seller.next(E.callCancelled)).toEqual({ callId, reason: 'cancelled' });
    expect(await rowOf(callId)).toMatchObject({ state: 'cancelled', endReason: 'lost' });
  });

  it('sweeps what no timer ended: a call that rang out on a stopped instance, an answered call nobody is in', async () => {
    const seller = await tab('Seller');
    const rangOut = randomUUID();
    const orphan = randomUUID();
    await t.database.db.insert(videoCalls).values([
      {
        id: rangOut,
        callerId: sessions.Staff.userId,
        calleeId: sessions.Seller.userId,
        state: 'ringing',
        createdAt: new Date(Date.now() - 60_000),
        ringDeadline: new Date(Date.now() - 15_000),
      },
      {
        id: orphan,
        callerId: sessions.Admin.userId,
        calleeId: sessions.Kyc.userId,
        state: 'connected',
        createdAt: new Date(Date.now() - 60_000),
        ringDeadline: new Date(Date.now() - 15_000),
        acceptedAt: new Date(Date.now() - 50_000),
        connectedAt: new Date(Date.now() - 49_000),
      },
    ]);
    await t.app.videoCalls.sweep();
    expect(await rowOf(rangOut)).toMatchObject({ state: 'missed', endReason: 'timeout' });
    expect(await seller.next(E.callCancelled)).toEqual({ callId: rangOut, reason: 'missed' });
    await settle();
    expect(await rowOf(orphan)).toMatchObject({ state: 'ended', endReason: 'lost' });
    const logs = await logsOf(orphan);
    expect(logs.map((log) => [log.callStatus, log.durationSeconds >= 49])).toEqual([
      ['Connected', true],
      ['Connected', true],
    ]);
  });

  it('limits how often one user starts calls', async () => {
    // An instance of its own on the same database, with a limit of two calls.
    const limited = await buildApp({
      config: t.config,
      database: t.database,
      videoCalls: { callLimit: { limit: 2, windowMs: 60_000 } },
    });
    await limited.listen({ port: 0, host: '127.0.0.1' });
    try {
      const admin = await openTab(limited, sessions.Admin);
      tabs.push(admin);
      const self = callPayload(sessions.Admin.userId);
      expect(await admin.send(E.callUser, self)).toMatchObject({ message: CALL_SELF_MESSAGE });
      expect(await admin.send(E.callUser, self)).toMatchObject({ message: CALL_SELF_MESSAGE });
      expect(await admin.send(E.callUser, callPayload(sessions.Staff.userId))).toEqual({
        ok: false,
        message: VIDEO_RATE_LIMITED_MESSAGE,
      });
      admin.socket.disconnect();
    } finally {
      await limited.close();
    }
  });
});
