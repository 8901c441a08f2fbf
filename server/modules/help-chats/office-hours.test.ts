// The office hours of Settings → Communication take effect in the chat: outside them the widget says no
// person answers now, and the bot, asked for one, says when one will (the connect request still waits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetChat } from '../../../contracts/help-chats';
import { weekdays } from '../../../contracts/settings';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { ALWAYS_OPEN, saveOfficeHours } from '../settings-communication/test-helpers';
import { CONNECT_VALUE, CONNECTING_MESSAGE } from './bot';

const WIDGET = '/api/v1/queryBot/widget/SEL-0001';

/** Today and tomorrow as Kolkata's calendar has them. */
function kolkataDays(): string[] {
  const day = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() + offset));
  return [day(0), day(24 * 3600_000)];
}

describe.each(testBackends)('office hours in the help chat on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  }, 60_000);
  afterAll(async () => t.close());

  const askForPerson = async (ip: string) => {
    const started = await t.app.inject({
      method: 'POST',
      url: `${WIDGET}/start`,
      payload: { name: 'Asha', email: 'asha@example.com' },
      remoteAddress: ip,
    });
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId } = json<WidgetChat>(started);
    const answer = await t.app.inject({
      method: 'POST',
      url: `${WIDGET}/messages`,
      payload: { sessionId, message: CONNECT_VALUE },
      remoteAddress: ip,
    });
    return json<WidgetChat>(answer).messages.map((message) => message.message);
  };

  it('names the next opening outside office hours, and connects within them', async () => {
    // Every day all day, but today and tomorrow are holidays: the next person answers the day after, 00:00.
    await saveOfficeHours(as, ALWAYS_OPEN, kolkataDays());
    const shop = json<{ available: boolean; personAvailable: boolean; personNotice: string | null }>(
      await t.app.inject({ method: 'GET', url: WIDGET, remoteAddress: '10.8.0.1' }),
    );
    expect(shop).toMatchObject({ available: true, personAvailable: false });
    expect(shop.personNotice).toMatch(/^Our team answers from \w+ 00:00 \(Asia\/Kolkata\)\./);
    const closed = await askForPerson('10.8.0.2');
    expect(closed).toEqual(['Talk to a person', shop.personNotice]);

    await saveOfficeHours(as, ALWAYS_OPEN);
    expect(
      json<{ personAvailable: boolean }>(
        await t.app.inject({ method: 'GET', url: WIDGET, remoteAddress: '10.8.0.3' }),
      ),
    ).toMatchObject({ personAvailable: true, personNotice: null });
    expect(await askForPerson('10.8.0.4')).toEqual(['Talk to a person', CONNECTING_MESSAGE]);
  });

  it('says so when nobody ever answers', async () => {
    await saveOfficeHours(as, Object.fromEntries(weekdays.map((day) => [day, []])));
    expect((await askForPerson('10.8.0.5'))[1]).toMatch(/^Our team is not answering chats at the moment/);
  });
});
