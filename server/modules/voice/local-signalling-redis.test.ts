import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICE_EVENTS as E, type IncomingCallEvent } from '../../../contracts/voice-signalling';
import { buildApp } from '../../app';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../../test-support';
import { ANSWER, CANDIDATE, type Device, dialPayload, registeredDevice } from './test-devices';

const REDIS_URL = process.env.TEST_REDIS_URL;
const JWT_SECRET = 'voice-redis-secret-0123456789abcdefghijklmn';

describe.skipIf(!REDIS_URL)('local voice calls across two instances through Redis', () => {
  let a: TestApp;
  // Instance B shares A's database, as instances of one installation do: same users, same numbers.
  let b: FastifyInstance;
  const devices: Device[] = [];

  beforeAll(async () => {
    a = await createTestApp({ env: { JWT_SECRET, REDIS_URL: REDIS_URL as string } });
    b = await buildApp({ config: a.config, database: a.database });
    await b.ready();
    await Promise.all([
      a.app.listen({ port: 0, host: '127.0.0.1' }),
      b.listen({ port: 0, host: '127.0.0.1' }),
    ]);
  });
  afterAll(async () => {
    for (const device of devices) device.socket.disconnect();
    await b?.close();
    await a?.close();
  });

  it('rings, answers, relays and ends a call whose parties are on different instances', async () => {
    const staff = await signInAs(a.app, demoEmails.Staff);
    const seller = await signInAs(a.app, demoEmails.Seller);
    // The seller registers on A first, then on B: the device on A is replaced across instances.
    const sellerOnA = await registeredDevice(a.app, seller);
    const sellerOnB = await registeredDevice(b, seller);
    const staffOnA = await registeredDevice(a.app, staff);
    devices.push(sellerOnA, sellerOnB, staffOnA);
    await sellerOnA.next(E.unregistered);

    const dial = dialPayload('+91 90000 00003');
    const ack = await staffOnA.send<{ ticket: string }>(E.dial, dial);
    expect(ack).toMatchObject({ ok: true });
    const incoming = await sellerOnB.next<IncomingCallEvent>(E.incoming);
    expect(incoming).toMatchObject({ callSid: dial.callSid, from: '+919000000002' });

    expect(await sellerOnB.send(E.accept, { ticket: incoming.ticket, answer: ANSWER })).toEqual({ ok: true });
    expect(await staffOnA.next(E.accepted)).toEqual({ callSid: dial.callSid, answer: ANSWER });
    await sellerOnB.send(E.ice, { ticket: incoming.ticket, candidate: CANDIDATE });
    expect(await staffOnA.next(E.remoteIce)).toEqual({ callSid: dial.callSid, candidate: CANDIDATE });
    await staffOnA.send(E.ice, { ticket: incoming.ticket, candidate: CANDIDATE });
    expect(await sellerOnB.next(E.remoteIce)).toEqual({ callSid: dial.callSid, candidate: CANDIDATE });
    // A saw B's accept go to the caller: the caller's hang-up is a hang-up, not a cancel.
    await staffOnA.send(E.hangup, { ticket: incoming.ticket });
    expect(await sellerOnB.next(E.ended)).toEqual({ callSid: dial.callSid, reason: 'hangup' });
    expect(sellerOnA.events.map(([name]) => name)).toEqual([E.unregistered]);

    // B knows its socket is ringing (the incoming came from A): when it goes, the caller hears.
    const second = dialPayload('+91 90000 00003');
    await staffOnA.send(E.dial, second);
    await sellerOnB.next(E.incoming);
    sellerOnB.socket.disconnect();
    expect(await staffOnA.next(E.ended)).toEqual({ callSid: second.callSid, reason: 'unavailable' });
  });
});
