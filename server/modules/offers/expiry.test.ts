import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { draftLineSchema } from '../../../contracts/offers';
import { offers, users } from '../../db/schema';
import { createTestApp, demoEmails, type TestApp, testBackends } from '../../test-support';
import { mailLinkSecret } from '../mail-links/links';
import { createOfferRequest } from './requests';
import {
  createOfferLinks,
  type OfferLinks,
  runOfferExpiry,
  saveDraft,
  sendOffer,
  type Viewer,
} from './service';

describe.each(testBackends)('runOfferExpiry (%s)', (backend) => {
  let t: TestApp;
  let links: OfferLinks;
  let viewer: Viewer;
  let sellerId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    links = createOfferLinks(await mailLinkSecret(t.app.db, undefined), t.config.publicUrl);
    const [seller] = await t.app.db.select().from(users).where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    viewer = { userId: seller!.id, sellerId, isSeller: true };
  }, 120_000);
  afterAll(() => t?.close());

  it('reminds once within the reminder days, then expires at the end of the validity day', async () => {
    const settings = await t.app.settings.effective(sellerId);
    const reminderDays = settings.company.offerReminderDays;
    const actor = { id: viewer.userId, name: 'Seller' };
    const sentAt = new Date('2099-03-01T10:00:00Z');
    const made = await createOfferRequest(t.app.db, {
      sellerId,
      customerName: 'Ada',
      email: 'ada.expiry@example.com',
      items: [],
    });
    await saveDraft(
      t.app,
      viewer,
      actor,
      made.id,
      {
        lines: [draftLineSchema.parse({ name: 'Service', quantity: 1, unitPriceMinor: 5000 })],
        currency: settings.localization.currencies[0]!,
        shippingCountry: null,
        validUntil: '2099-03-20',
        notes: '',
      },
      sentAt,
    );
    const send = vi.spyOn(t.app.mailer, 'send');
    await sendOffer(t.app, links, viewer, actor, made.id, sentAt);
    const [sent] = await t.app.db.select().from(offers).where(eq(offers.id, made.id));
    const end = sent!.expiresAt!;
    send.mockClear();

    // Long before the reminder window: nothing.
    const early = new Date(end.getTime() - (reminderDays + 2) * 86_400_000);
    await runOfferExpiry(t.app, links, early);
    expect(send.mock.calls.some(([mail]) => mail.to === 'ada.expiry@example.com')).toBe(false);

    // Inside the window: one reminder, and only one however often the sweep runs.
    const inside = new Date(end.getTime() - (reminderDays * 86_400_000 - 60_000));
    await runOfferExpiry(t.app, links, inside);
    await runOfferExpiry(t.app, links, new Date(inside.getTime() + 60_000));
    const reminders = send.mock.calls.filter(([mail]) => mail.to === 'ada.expiry@example.com');
    expect(reminders).toHaveLength(reminderDays > 0 ? 1 : 0);

    // One minute before the end it is still offered; at the end it expires.
    await runOfferExpiry(t.app, links, new Date(end.getTime() - 60_000));
    expect((await t.app.db.select().from(offers).where(eq(offers.id, made.id)))[0]!.status).toBe('offered');
    const result = await runOfferExpiry(t.app, links, end);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect((await t.app.db.select().from(offers).where(eq(offers.id, made.id)))[0]!.status).toBe('expired');
    send.mockRestore();
  });
});
