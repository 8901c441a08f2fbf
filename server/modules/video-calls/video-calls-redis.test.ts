import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ANSWERED_ELSEWHERE_MESSAGE,
  BUSY_MESSAGE,
  type CallUserEvent,
  VIDEO_CALL_EVENTS as E,
} from '../../../contracts/video-calls';
import { type IncomingCallEvent, VOICE_EVENTS as V } from '../../../contracts/voice-signalling';
import { buildApp } from '../../app';
import { type Database, openDatabase } from '../../db/client';
import { callLogs, videoCalls } from '../../db/schema';
import { createTestApp, demoEmails, signInAs, type TestApp, testBackends } from '../../test-support';
import { type Device, dialPayload, registeredDevice, ANSWER as VOICE_ANSWER } from '../voice/test-devices';
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

const REDIS_URL = process.env.TEST_REDIS_URL;
const JWT_SECRET = 'video-redis-secret-0123456789abcdefghijklmn';

describe.skipIf(!REDIS_URL)('video calls across two instances through Redis', () => {
  describe.each(testBackends)('on %s', (backend) => {
    let a: TestApp;
    // Instance B shares A's database, as instances of one installation do. PGlite is opened by one
    // process, so B shares it in-process; on PostgreSQL B has a pool of its own, as another server would.
    let b: FastifyInstance;
    let bDatabase: Database | null = null;
    const sessions = {} as Record<'Staff' | 'Seller' | 'Admin', Session>;
    const tabs: Tab[] = [];
    const devices: Device[] = [];
    const tab = async (app: FastifyInstance, who: keyof typeof sessions) => {
      const opened = await openTab(app, sessions[who]);
      tabs.push(opened);
      return opened;
    };
    const stateOf = async (callId: string) => {
      const [row] = await a.database.db
        .select({ state: videoCalls.state })
        .from(videoCalls)
        .where(eq(videoCalls.id, callId));
      return row?.state;
    };
    const idle = (app: FastifyInstance) =>
      vi.waitFor(
        () => {
          const pending = app.videoCalls.pending();
          expect(pending.timers.filter((key) => key.startsWith('grace:'))).toEqual([]);
          expect(pending.running).toBe(0);
        },
        { timeout: 5000, interval: 10 },
      );

    beforeAll(async () => {
      a = await createTestApp({
        backend,
        env: { JWT_SECRET, REDIS_URL: REDIS_URL as string },
        jobs: { enabled: false },
      });
      bDatabase = a.databaseUrl
        ? await openDatabase({ databaseUrl: a.databaseUrl, dataDir: a.dataDir })
        : null;
      b = await buildApp({
        config: a.config,
        database: bDatabase ?? a.database,
        jobs: { enabled: false },
        rateLimits: { namespace: a.rateLimitNamespace },
        videoCalls: { rejoinGraceMs: 150 },
      });
      await b.ready();
      a.app.videoCalls.settings.rejoinGraceMs = 150;
      await Promise.all([
        a.app.listen({ port: 0, host: '127.0.0.1' }),
        b.listen({ port: 0, host: '127.0.0.1' }),
      ]);
      for (const who of ['Staff', 'Seller', 'Admin'] as const)
        sessions[who] = await signInAs(a.app, demoEmails[who]);
    });
    afterEach(async () => {
      for (const each of tabs.splice(0)) each.socket.disconnect();
      for (const each of devices.splice(0)) each.socket.disconnect();
      await Promise.all([idle(a.app), idle(b)]);
    });
    afterAll(async () => {
      await b?.close();
      await bDatabase?.close();
      await a?.close();
    });

    it('rings the callee’s tabs on the other instance, answers, relays and hangs up across', async () => {
      const staff = await tab(a.app, 'Staff');
      const [first, second] = [await tab(b, 'Seller'), await tab(b, 'Seller')] as [Tab, Tab];
      const payload = callPayload(sessions.Seller.userId, { name: 'Mallory' });
      expect(await staff.send(E.callUser, payload)).toEqual({ ok: true, callId: payload.callId });
      for (const each of [first, second])
        expect(await each.next<CallUserEvent>(E.callUser)).toEqual({
          callId: payload.callId,
          userToCall: sessions.Seller.userId,
          signalData: OFFER,
          from: sessions.Staff.userId,
          name: 'Sam Staff',
          avatarUrl: null,
        });
      const { callId } = payload;
      await staff.send(E.signal, { callId, signal: CANDIDATE });
      for (const each of [first, second])
        expect(await each.next(E.signal)).toEqual({ callId, signal: CANDIDATE });

      const answer = { callId, to: sessions.Staff.userId, signal: ANSWER };
      expect(await first.send(E.answerCall, answer)).toEqual({ ok: true });
      expect(await staff.next(E.callAccepted)).toEqual({ callId, signal: ANSWER });
      expect(await second.next(E.callCancelled)).toEqual({ callId, reason: 'answeredElsewhere' });
      expect(await second.send(E.answerCall, answer)).toEqual({
        ok: false,
        message: ANSWERED_ELSEWHERE_MESSAGE,
      });

      expect(await first.send(E.signal, { callId, signal: CANDIDATE })).toEqual({ ok: true });
      expect(await staff.next(E.signal)).toEqual({ callId, signal: CANDIDATE });
      expect(await staff.send(E.signal, { callId, signal: RESTART_OFFER })).toEqual({ ok: true });
      expect(await first.next(E.signal)).toEqual({ callId, signal: RESTART_OFFER });
      expect(await staff.send(E.connected, { callId })).toEqual({ ok: true });

      expect(await first.send(E.hangup, { callId })).toEqual({ ok: true });
      expect(await staff.next(E.callEnded)).toEqual({ callId, reason: 'hangup' });
      expect(await stateOf(callId)).toBe('ended');
      const logs = await a.database.db.select().from(callLogs).where(eq(callLogs.media, 'video'));
      expect(logs.map((log) => log.callStatus)).toEqual(['Connected', 'Connected']);
    });

    it('keeps a call whose party comes back on the other instance within the grace', async () => {
      const staff = await tab(a.app, 'Staff');
      const seller = await tab(b, 'Seller');
      const payload = callPayload(sessions.Seller.userId);
      await staff.send(E.callUser, payload);
      await seller.next(E.callUser);
      await seller.send(E.answerCall, { callId: payload.callId, to: staff.userId, signal: ANSWER });
      await staff.next(E.callAccepted);

      b.videoCalls.settings.rejoinGraceMs = 1000;
      try {
        // The seller's socket on B drops; the tab reconnects to A and rejoins: B's grace finds it there.
        seller.socket.disconnect();
        const back = await tab(a.app, 'Seller');
        expect(await back.send(E.rejoin, { callId: payload.callId })).toEqual({
          ok: true,
          state: 'accepted',
        });
        await idle(b);
        expect(await stateOf(payload.callId)).toBe('accepted');
        // Without a rejoin, it ends for the other party, across instances too.
        b.videoCalls.settings.rejoinGraceMs = 150;
        staff.socket.disconnect();
        expect(await back.next(E.callEnded)).toEqual({ callId: payload.callId, reason: 'lost' });
      } finally {
        b.videoCalls.settings.rejoinGraceMs = 150;
      }
    });

    it('answers busy for a callee on a voice call on the other instance', async () => {
      const staff = await tab(a.app, 'Staff');
      await tab(b, 'Seller');
      const adminPhone = await registeredDevice(a.app, sessions.Admin);
      const sellerPhone = await registeredDevice(b, sessions.Seller);
      devices.push(adminPhone, sellerPhone);
      await adminPhone.send(V.dial, dialPayload('+91 90000 00003'));
      const incoming = await sellerPhone.next<IncomingCallEvent>(V.incoming);
      await sellerPhone.send(V.accept, { ticket: incoming.ticket, answer: VOICE_ANSWER });
      await adminPhone.next(V.accepted);
      expect(await staff.send(E.callUser, callPayload(sessions.Seller.userId))).toEqual({
        ok: false,
        reason: 'busy',
        message: BUSY_MESSAGE('Sunil Seller'),
      });
      await adminPhone.send(V.hangup, { ticket: incoming.ticket });
      await sellerPhone.next(V.ended);
    });
  });
});
