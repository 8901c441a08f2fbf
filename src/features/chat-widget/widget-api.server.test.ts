// @vitest-environment node
// The widget's API module against the real server (PGlite, the demo seed): `fetch` is routed into
// `app.inject`, so the shapes the page relies on are the server's, not a fake's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settingsDefaults } from '../../../contracts/settings';
import { createTestApp, type TestApp } from '../../../server/test-support';
import { ApiError } from '../../services/api-error';
import { CONNECT_VALUE, widgetApi } from './widget-api';

const DEMO_CODE = 'SEL-0001';

describe('the widget API module against the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const answer = await t.app.inject({
        method: (init?.method ?? 'GET') as 'GET' | 'POST',
        url,
        headers: init?.headers as Record<string, string>,
        payload: init?.body as string | undefined,
        remoteAddress: '10.9.9.9',
      });
      return new Response(answer.body, {
        status: answer.statusCode,
        headers: { 'content-type': 'application/json' },
      });
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await t?.close();
  });

  it('starts, taps "Talk to a person", reloads the history, and reports errors with the server message', async () => {
    const shop = await widgetApi.shop(DEMO_CODE);
    expect(shop.available).toBe(true);
    expect(shop.sellerName).toBeTruthy();
    // Settings → Website's launcher look, which the chat page takes on (the seed keeps the defaults).
    const website = settingsDefaults('IN').website;
    expect(shop.look).toEqual({
      colour: website.widgetColour,
      textColour: website.widgetTextColour,
      greeting: website.widgetGreeting,
      position: website.widgetPosition,
    });

    const chat = await widgetApi.start(DEMO_CODE, { name: 'Ann', email: 'ann@example.com' });
    expect(chat.messages.length).toBeGreaterThan(0);
    const offered = chat.messages.flatMap((m) => [...(m.buttons ?? []), ...(m.generalReply?.actions ?? [])]);
    expect(offered).toContainEqual({ label: 'Talk to a person', value: CONNECT_VALUE });

    const answer = await widgetApi.send(DEMO_CODE, chat.sessionId, CONNECT_VALUE);
    expect(answer.messages[0]).toMatchObject({ sender: 'User', message: 'Talk to a person' });
    expect(answer.messages.length).toBeGreaterThan(1);
    expect(answer.withPerson).toBe(false);

    const evil = '<script>alert(1)</script>';
    const stored = await widgetApi.send(DEMO_CODE, chat.sessionId, evil);
    expect(stored.messages[0]?.message).toBe(evil); // stored as typed; the page renders it as text

    const history = await widgetApi.chat(DEMO_CODE, chat.sessionId);
    expect(history.messages.map((m) => m.id)).toEqual(
      expect.arrayContaining([...chat.messages, ...answer.messages, ...stored.messages].map((m) => m.id)),
    );
    expect(widgetApi.eventsUrl(DEMO_CODE, chat.sessionId)).toBe(
      `/api/v1/queryBot/widget/${DEMO_CODE}/chats/${chat.sessionId}/events`,
    );

    const unknownShop = await widgetApi.shop('NO-SUCH-SHOP').catch((error: unknown) => error);
    expect(unknownShop).toBeInstanceOf(ApiError);
    expect((unknownShop as ApiError).status).toBe(404);
    const unknownChat = await widgetApi.chat(DEMO_CODE, crypto.randomUUID()).catch((error: unknown) => error);
    expect((unknownChat as ApiError).status).toBe(404);
    const tooLong = await widgetApi
      .send(DEMO_CODE, chat.sessionId, 'x'.repeat(1001))
      .catch((e: unknown) => e);
    expect((tooLong as ApiError).status).toBe(400);
    expect((tooLong as ApiError).message).toMatch(/1000/);
  });
});
