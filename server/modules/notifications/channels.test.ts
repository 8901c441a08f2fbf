// The notification channels of Settings → Communication take effect: per role and type a notification
// is stored in-app, mailed (a job, through the mailer, as the settings' sender), both, or dropped.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SectionState } from '../../../contracts/settings';
import { rowsOf } from '../../db/rows';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { readOutbox } from '../campaigns/test-helpers';
import { NOTIFICATION_MAIL_JOB } from './channels';

describe.each(testBackends)('notification channels on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const current = json<SectionState>(await as('Admin', 'GET', '/api/v1/settings/communication'));
    const channels = current.fields.notificationChannels?.value as Record<string, Record<string, string>>;
    const saved = await as('Admin', 'PUT', '/api/v1/settings/communication', {
      version: current.version,
      set: {
        senderName: 'Acme Alerts',
        notificationChannels: {
          ...channels,
          Admin: { ...channels.Admin, task: 'none' },
          Staff: { ...channels.Staff, task: 'mail' },
          Seller: { ...channels.Seller, task: 'both', 'missed-call': 'in-app' },
        },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }, 60_000);
  afterAll(async () => t.close());

  const storedFor = async (userId: string, title: string) =>
    rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId} AND title = ${title}`,
      ),
    )[0]?.n;
  const mailsTitled = async (title: string) =>
    (await readOutbox(t.dataDir)).filter((mail) => mail.headers.get('subject') === title);
  const runJobs = async () => {
    while (await t.app.jobs.worker.runOnce()) {}
  };

  it('mails, stores, does both or neither, as the role and type say', async () => {
    const notify = (who: 'Admin' | 'Staff' | 'Seller', title: string, type: 'task' | 'missed-call') =>
      t.app.notifications.notify(as.ids[who], { type, title, body: 'Body text', link: '/tasks' });

    expect(await notify('Staff', 'Staff task', 'task')).toBeNull();
    expect(await notify('Seller', 'Seller task', 'task')).not.toBeNull();
    expect(await notify('Seller', 'Seller call', 'missed-call')).not.toBeNull();
    expect(await notify('Admin', 'Admin task', 'task')).toBeNull();
    await runJobs();

    expect(await storedFor(as.ids.Staff, 'Staff task')).toBe(0);
    const [staffMail] = await mailsTitled('Staff task');
    expect(staffMail?.headers.get('to')).toBe('staff@demo.local');
    expect(staffMail?.headers.get('from')).toBe('Acme Alerts <no-reply@marketplace.local>');
    expect(staffMail?.body).toContain('Body text');
    expect(staffMail?.body).toContain(`${t.config.publicUrl}/tasks`);

    expect(await storedFor(as.ids.Seller, 'Seller task')).toBe(1);
    expect(await mailsTitled('Seller task')).toHaveLength(1);

    expect(await storedFor(as.ids.Seller, 'Seller call')).toBe(1);
    expect(await mailsTitled('Seller call')).toHaveLength(0);

    expect(await storedFor(as.ids.Admin, 'Admin task')).toBe(0);
    expect(await mailsTitled('Admin task')).toHaveLength(0);
  });

  it('leaves an untyped notification in-app, and a mail job notifies nobody', async () => {
    expect(await t.app.notifications.notify(as.ids.Staff, { title: 'Untyped' })).not.toBeNull();
    const owners = rowsOf<{ owner_id: string | null }>(
      await t.database.db.execute(sql`SELECT owner_id FROM jobs WHERE kind = ${NOTIFICATION_MAIL_JOB}`),
    );
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every((row) => row.owner_id === null)).toBe(true);
  });
});
