import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_PHONE_MESSAGE } from '../../../contracts/calls';
import {
  CALL_YOURSELF_MESSAGE,
  CALLEE_BUSY_MESSAGE,
  CALLEE_UNAVAILABLE_MESSAGE,
  DEVICE_NOT_REGISTERED_MESSAGE,
  DEVICE_REPLACED_MESSAGE,
  DIAL_RATE_LIMITED_MESSAGE,
  type EndedCallEvent,
  INVALID_TICKET_MESSAGE,
  type IncomingCallEvent,
  NO_SUCH_NUMBER_MESSAGE,
  VOICE_EVENTS,
} from '../../../contracts/voice-signalling';
import { users, videoCalls } from '../../db/schema';
import { createTestApp, demoEmails, signInAs, type TestApp, testBackends } from '../../test-support';
import { DIAL_LIMIT, NOT_YOUR_VOICE_TOKEN_MESSAGE } from './local-signalling';
import {
  ANSWER,
  CANDIDATE,
  type Device,
  dialPayload,
  OFFER,
  openDevice,
  registeredDevice,
  type Session,
} from './test-devices';
import { INVALID_VOICE_TOKEN_MESSAGE } from './voice-tokens';

const STAFF_NUMBER = '+919000000002';
const SELLER_NUMBER = '+919000000003';
const E = VOICE_EVENTS;

describe.each(testBackends)('local voice signalling (%s)', (backend) => {
  let t: TestApp;
  const sessions = {} as Record<'Admin' | 'Staff' | 'Seller' | 'Kyc', Session>;
  const devices: Device[] = [];
  const device = async (who: keyof typeof sessions, register = true) => {
    const made = register
      ? await registeredDevice(t.app, sessions[who])
      : await openDevice(t.app, sessions[who]);
    devices.push(made);
    return made;
  };
  /** `caller` dials `number` and `callee` rings: the dial's ticket and the incoming event. */
  const ring = async (caller: Device, callee: Device, number: string) => {
    const dial = dialPayload(number);
    const ack = await caller.send<{ ticket: string }>(E.dial, dial);
    if (!ack.ok) throw new Error(ack.message);
    const incoming = await callee.next<IncomingCallEvent>(E.incoming);
    return { callSid: dial.callSid, ticket: ack.ticket, incoming };
  };

  beforeAll(async () => {
    t = await createTestApp({ backend });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const who of ['Admin', 'Staff', 'Seller', 'Kyc'] as const)
      sessions[who] = await signInAs(t.app, demoEmails[who]);
  });
  afterEach(() => {
    for (const made of devices.splice(0)) made.socket.disconnect();
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers a device with its own voice token only', async () => {
    const seller = await device('Seller', false);
    const staff = await device('Staff', false);
    expect(await seller.send(E.register, { token: 'nonsense' })).toEqual({
      ok: false,
      message: INVALID_VOICE_TOKEN_MESSAGE,
    });
    expect(await seller.send(E.register, { token: staff.voiceToken })).toEqual({
      ok: false,
      message: NOT_YOUR_VOICE_TOKEN_MESSAGE,
    });
    // An access token is not a voice token.
    expect(await seller.send(E.register, { token: sessions.Seller.token })).toMatchObject({ ok: false });
    expect(await seller.send(E.register, {})).toMatchObject({ ok: false });
    expect(await seller.send(E.register, { token: seller.voiceToken })).toEqual({
      ok: true,
      phoneNumber: SELLER_NUMBER,
    });
  });

  it('lets the last registration win: the older tab is told and no longer rings or dials', async () => {
    const staff = await device('Staff');
    const firstTab = await device('Seller');
    const secondTab = await device('Seller');
    expect(await firstTab.next(E.unregistered)).toEqual({ message: DEVICE_REPLACED_MESSAGE });
    await ring(staff, secondTab, SELLER_NUMBER);
    expect(await firstTab.send(E.dial, dialPayload(STAFF_NUMBER))).toEqual({
      ok: false,
      message: DEVICE_NOT_REGISTERED_MESSAGE,
    });
    expect(firstTab.events.map(([name]) => name)).toEqual([E.unregistered]);
    expect(secondTab.events.filter(([name]) => name === E.unregistered)).toEqual([]);
  });

  it('rings the owner of the number, relays the answer and ICE both ways, and ends on hang-up', async () => {
    const staff = await device('Staff');
    const seller = await device('Seller');
    // Dialled as people type it: the seller's stored number is "+91 90000 00003".
    const dial = { ...dialPayload('+91 90000 00003') };
    const ack = await staff.send<{ ticket: string }>(E.dial, dial);
    expect(ack).toEqual({ ok: true, ticket: expect.any(String) });
    const incoming = await seller.next<IncomingCallEvent>(E.incoming);
    expect(incoming).toEqual({
      callSid: dial.callSid,
      ticket: ack.ok ? ack.ticket : '',
      from: STAFF_NUMBER,
      fromName: 'Sam Staff',
      offer: OFFER,
    });

    expect(await seller.send(E.accept, { ticket: incoming.ticket, answer: ANSWER })).toEqual({ ok: true });
    expect(await staff.next(E.accepted)).toEqual({ callSid: dial.callSid, answer: ANSWER });

    expect(await staff.send(E.ice, { ticket: incoming.ticket, candidate: CANDIDATE })).toEqual({ ok: true });
    expect(await seller.next(E.remoteIce)).toEqual({ callSid: dial.callSid, candidate: CANDIDATE });
    expect(await seller.send(E.ice, { ticket: incoming.ticket, candidate: CANDIDATE })).toEqual({ ok: true });
    expect(await staff.next(E.remoteIce)).toEqual({ callSid: dial.callSid, candidate: CANDIDATE });

    expect(await staff.send(E.hangup, { ticket: incoming.ticket })).toEqual({ ok: true });
    expect(await seller.next(E.ended)).toEqual({ callSid: dial.callSid, reason: 'hangup' });
    // Nothing went where it should not: each side got only the other's events.
    expect(staff.events.map(([name]) => name)).toEqual([E.accepted, E.remoteIce]);
    expect(seller.events.map(([name]) => name)).toEqual([E.incoming, E.remoteIce, E.ended]);
  });

  it.each([
    [E.reject, 'rejected'],
    [E.ignore, 'ignored'],
  ])('tells the caller when the callee sends %s', async (event, reason) => {
    const staff = await device('Staff');
    const seller = await device('Seller');
    const call = await ring(staff, seller, SELLER_NUMBER);
    expect(await seller.send(event, { ticket: call.ticket })).toEqual({ ok: true });
    expect(await staff.next<EndedCallEvent>(E.ended)).toEqual({ callSid: call.callSid, reason });
    // Only while it rings: the call has ended.
    expect(await seller.send(E.accept, { ticket: call.ticket, answer: ANSWER })).toEqual({
      ok: false,
      message: INVALID_TICKET_MESSAGE,
    });
  });

  it('cancels when the caller hangs up before an answer; "hangup" when the callee hangs up after one', async () => {
    const staff = await device('Staff');
    const seller = await device('Seller');
    const ringing = await ring(staff, seller, SELLER_NUMBER);
    expect(await staff.send(E.hangup, { ticket: ringing.ticket })).toEqual({ ok: true });
    expect(await seller.next(E.ended)).toEqual({ callSid: ringing.callSid, reason: 'cancelled' });

    const answered = await ring(seller, staff, STAFF_NUMBER);
    expect(answered.incoming.from).toBe(SELLER_NUMBER);
    expect(await staff.send(E.accept, { ticket: answered.ticket, answer: ANSWER })).toEqual({ ok: true });
    await seller.next(E.accepted);
    expect(await staff.send(E.hangup, { ticket: answered.ticket })).toEqual({ ok: true });
    expect(await seller.next(E.ended)).toEqual({ callSid: answered.callSid, reason: 'hangup' });
  });

  it('answers a dial that rings nobody with the reason', async () => {
    const staff = await device('Staff');
    await device('Seller');
    expect(await staff.send(E.dial, dialPayload('+91 90000 99999'))).toEqual({
      ok: false,
      message: NO_SUCH_NUMBER_MESSAGE('+919000099999'),
    });
    expect(await staff.send(E.dial, dialPayload('call me maybe'))).toEqual({
      ok: false,
      message: INVALID_PHONE_MESSAGE,
    });
    expect(await staff.send(E.dial, dialPayload('12'))).toEqual({
      ok: false,
      message: INVALID_PHONE_MESSAGE,
    });
    expect(await staff.send(E.dial, { ...dialPayload(SELLER_NUMBER), callSid: 'x' })).toEqual({
      ok: false,
      message: 'callSid must be a UUID',
    });
    expect(await staff.send(E.dial, dialPayload('+91-90000-00002'))).toEqual({
      ok: false,
      message: CALL_YOURSELF_MESSAGE,
    });
    // The admin has a number but no registered device.
    expect(await staff.send(E.dial, dialPayload('+91 90000 00001'))).toEqual({
      ok: false,
      message: CALLEE_UNAVAILABLE_MESSAGE,
    });
  });

  it('answers busy at once when the callee is in a video call; rings them once it is over', async () => {
    // The admin dials (the staff member's dials in the tests around would reach the dial limit).
    const admin = await device('Admin');
    const seller = await device('Seller');
    const callId = randomUUID();
    await t.database.db.insert(videoCalls).values({
      id: callId,
      callerId: sessions.Staff.userId,
      calleeId: sessions.Seller.userId,
      state: 'connected',
      ringDeadline: new Date(),
    });
    try {
      expect(await admin.send(E.dial, dialPayload(SELLER_NUMBER))).toEqual({
        ok: false,
        message: CALLEE_BUSY_MESSAGE,
      });
    } finally {
      await t.database.db.update(videoCalls).set({ state: 'ended' }).where(eq(videoCalls.id, callId));
    }
    const { incoming } = await ring(admin, seller, SELLER_NUMBER);
    expect(incoming.fromName).toBeTruthy();
  });

  it('does not ring a deactivated user, nor dial from an unregistered device', async () => {
    const staff = await device('Staff');
    await device('Admin');
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, sessions.Admin.userId));
    try {
      expect(await staff.send(E.dial, dialPayload('+91 90000 00001'))).toEqual({
        ok: false,
        message: CALLEE_UNAVAILABLE_MESSAGE,
      });
    } finally {
      await t.database.db.update(users).set({ isActive: true }).where(eq(users.id, sessions.Admin.userId));
    }
    const unregistered = await device('Kyc', false);
    expect(await unregistered.send(E.dial, dialPayload(STAFF_NUMBER))).toEqual({
      ok: false,
      message: DEVICE_NOT_REGISTERED_MESSAGE,
    });
  });

  it("refuses a ticket from anyone not party to the call, and the callee's events from the caller", async () => {
    const seller = await device('Seller');
    const staff = await device('Staff');
    const admin = await device('Admin');
    const call = await ring(seller, staff, STAFF_NUMBER);
    const refused = { ok: false, message: INVALID_TICKET_MESSAGE };
    expect(await admin.send(E.accept, { ticket: call.ticket, answer: ANSWER })).toEqual(refused);
    expect(await admin.send(E.ice, { ticket: call.ticket, candidate: CANDIDATE })).toEqual(refused);
    expect(await admin.send(E.hangup, { ticket: call.ticket })).toEqual(refused);
    expect(await admin.send(E.reject, { ticket: call.ticket })).toEqual(refused);
    expect(await seller.send(E.accept, { ticket: call.ticket, answer: ANSWER })).toEqual(refused);
    expect(await seller.send(E.ignore, { ticket: call.ticket })).toEqual(refused);
    const forged = `${call.ticket.slice(0, -4)}AAAA`;
    expect(await staff.send(E.accept, { ticket: forged, answer: ANSWER })).toEqual(refused);
    expect(await staff.send(E.accept, { ticket: seller.voiceToken, answer: ANSWER })).toEqual(refused);
    // The call still rings and can be answered; nothing reached the caller in between.
    expect(await staff.send(E.accept, { ticket: call.ticket, answer: ANSWER })).toEqual({ ok: true });
    await seller.next(E.accepted);
    expect(seller.events.map(([name]) => name)).toEqual([E.accepted]);
    expect(admin.events).toEqual([]);
  });

  it('ends calls whose device goes away: "unavailable" while ringing, "hangup" once answered', async () => {
    const seller = await device('Seller');
    const staff = await device('Staff');
    const ringing = await ring(seller, staff, STAFF_NUMBER);
    staff.socket.disconnect();
    expect(await seller.next(E.ended)).toEqual({ callSid: ringing.callSid, reason: 'unavailable' });

    const staffAgain = await device('Staff');
    const answered = await ring(seller, staffAgain, STAFF_NUMBER);
    await staffAgain.send(E.accept, { ticket: answered.ticket, answer: ANSWER });
    await seller.next(E.accepted);
    seller.socket.disconnect();
    expect(await staffAgain.next(E.ended)).toEqual({ callSid: answered.callSid, reason: 'hangup' });

    // A caller who leaves while it rings cancels the call.
    const caller = await device('Seller');
    const cancelled = await ring(caller, staffAgain, STAFF_NUMBER);
    await caller.send(E.unregister);
    expect(await staffAgain.next(E.ended)).toEqual({ callSid: cancelled.callSid, reason: 'cancelled' });
  });

  it('a seller may not call another seller: that number answers like one nobody owns', async () => {
    const seller = await device('Seller');
    await device('Kyc');
    expect(await seller.send(E.dial, dialPayload('+91 90000 00005'))).toEqual({
      ok: false,
      message: NO_SUCH_NUMBER_MESSAGE('+919000000005'),
    });
  });

  it('limits how fast one user dials', async () => {
    const kyc = await device('Kyc');
    for (let i = 0; i < DIAL_LIMIT.limit; i++) {
      expect(await kyc.send(E.dial, dialPayload('+91 90000 88888'))).toEqual({
        ok: false,
        message: NO_SUCH_NUMBER_MESSAGE('+919000088888'),
      });
    }
    expect(await kyc.send(E.dial, dialPayload('+91 90000 88888'))).toEqual({
      ok: false,
      message: DIAL_RATE_LIMITED_MESSAGE,
    });
  });
});
