// A campaign delivered over SMTP to a real SMTP server the test starts (smtp-server): accepted mails
// are sent; a 451 defers the recipient and the campaign stays "sending" until the retry succeeds; a 550
// fails the recipient and marks the contact bounced, so it is never mailed again.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, Recipient } from '../../../contracts/campaigns';
import type { SavedTemplate } from '../../../contracts/mail-templates';
import { rowsOf } from '../../db/rows';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { twoLanguageTemplate } from '../mail-templates/test-helpers';
import { audienceOf, insertContacts, parseEml } from './test-helpers';

const API = '/api/v1/campaigns';

describe.each(testBackends)('campaign delivery over SMTP on %s', (backend) => {
  let smtp: SMTPServer;
  let t: TestApp;
  let as: ApiAs;
  const received: string[] = [];
  const refusedOnce = new Set<string>();
  let refuseStaff = false;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const to = address.address;
        const refuse = (code: number, text: string) =>
          callback(Object.assign(new Error(text), { responseCode: code }));
        if (to.startsWith('hard-')) return refuse(550, '5.1.1 No such user here');
        if (refuseStaff && to.startsWith('staff@')) return refuse(554, '5.7.1 Relay denied');
        if (to.startsWith('soft-') && !refusedOnce.has(to)) {
          refusedOnce.add(to);
          return refuse(451, '4.7.1 Greylisted, try again later');
        }
        callback();
      },
      onData(stream, _session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          raw += chunk;
        });
        stream.on('end', () => {
          received.push(raw.replace(/\r\n/g, '\n'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await createTestApp({
      backend,
      jobs: { enabled: false },
      env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
    });
    as = await apiAs(t.app);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const runJobs = async () => {
    while (await t.app.jobs.worker.runOnce()) {}
  };
  const get = async (id: string) => json<Campaign>(await as('Staff', 'GET', `${API}/${id}`));
  const taskOf = async (taskId: string) =>
    json<{ status: string; progress: number }>(await as('Staff', 'GET', `/api/v1/tasks/${taskId}`));
  const notifiedStatuses = async (taskId: string) =>
    rowsOf<{ status: string }>(
      await t.database.db.execute(sql`SELECT status FROM notifications WHERE task_id = ${taskId}`),
    ).map((row) => row.status);

  it('sends, defers a 451 until the retry succeeds, fails a 550 and bounces its contact', async () => {
    const db = t.database.db;
    await insertContacts(db, { tag: 'smtp', n: 3, prefix: 'ok' });
    await insertContacts(db, { tag: 'smtp', n: 1, prefix: 'soft' });
    const [hard] = await insertContacts(db, { tag: 'smtp', n: 1, prefix: 'hard' });
    const template = json<SavedTemplate>(
      await as('Admin', 'POST', '/api/v1/mailTemplates', twoLanguageTemplate('SMTP template')),
    );
    const draft = json<Campaign>(
      await as('Staff', 'POST', API, {
        name: 'Over SMTP',
        templateId: template.id,
        fallbackLanguage: 'EN',
        audience: audienceOf('smtp'),
        ratePerSecond: 500,
      }),
    );
    const sent = await as('Staff', 'POST', `${API}/${draft.id}/send`, { version: draft.version });
    expect(sent.statusCode, sent.body).toBe(200);
    const taskId = json<{ taskStatus: { taskId: string } }>(sent).taskStatus.taskId;
    await runJobs();

    const first = await get(draft.id);
    // Never "sent" while a recipient may still be retried.
    expect(first).toMatchObject({
      status: 'sending',
      counts: { queued: 0, sending: 0, sent: 3, deferred: 1, failed: 1, skipped: 0 },
    });
    const recipients = json<{ result: Recipient[] }>(
      await as('Staff', 'GET', `${API}/${draft.id}/recipients`),
    );
    const byEmail = new Map(recipients.result.map((row) => [row.email, row]));
    expect(byEmail.get('soft-1@example.com')).toMatchObject({ state: 'deferred', attempts: 1 });
    expect(byEmail.get('soft-1@example.com')?.lastError).toMatch(/451.*Greylisted/);
    expect(byEmail.get('soft-1@example.com')?.nextAttemptAt).not.toBeNull();
    expect(byEmail.get('hard-1@example.com')).toMatchObject({ state: 'failed', attempts: 1 });
    expect(byEmail.get('hard-1@example.com')?.lastError).toMatch(/550.*No such user/);
    const [contact] = rowsOf<{ subscription: string; bounce_reason: string }>(
      await db.execute(sql`SELECT subscription, bounce_reason FROM contacts WHERE id = ${hard?.id}`),
    );
    expect(contact?.subscription).toBe('bounced');
    expect(received).toHaveLength(3);
    // Nor is its task Completed: the same task waits in the queue for the retry, and nobody is told
    // "Bulk mail Completed" meanwhile.
    expect(await taskOf(taskId)).toMatchObject({ status: 'Queued' });
    expect(await notifiedStatuses(taskId)).toEqual([]);

    // The retry's time comes (the backoff is 30 s; the test moves the clock instead of waiting).
    await db.execute(sql`UPDATE campaign_recipients SET next_attempt_at = now()
      WHERE campaign_id = ${draft.id} AND state = 'deferred'`);
    await db.execute(
      sql`UPDATE jobs SET run_after = now() WHERE payload->>'campaignId' = ${draft.id} AND status = 'Queued'`,
    );
    await runJobs();
    expect(await get(draft.id)).toMatchObject({
      status: 'sent',
      counts: { queued: 0, sending: 0, sent: 4, deferred: 0, failed: 1, skipped: 0 },
    });
    expect(received).toHaveLength(4);
    // The follow-up run completes the one task.
    expect(await taskOf(taskId)).toMatchObject({ status: 'Completed', progress: 100 });
    expect(await notifiedStatuses(taskId)).toEqual(['Completed']);
    const mail = parseEml('soft', received[3] as string);
    expect(mail.headers.get('to')).toBe('soft-1@example.com');
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers.get('list-unsubscribe')).toMatch(/oneClickUnsubscribe\?.*mailto:/);
    expect(mail.headers.get('message-id')).toMatch(/^<c[0-9a-f]{32}-[0-9a-f]{32}@/);

    // The bounced contact is not in the next audience.
    const counted = json<{ matching: number; mailable: number }>(
      await as('Staff', 'POST', `${API}/audienceCount`, audienceOf('smtp')),
    );
    expect(counted).toMatchObject({ matching: 5, mailable: 4 });
  });

  it('a campaign waiting for its retries keeps its task open; pausing it ends the task as Paused', async () => {
    const db = t.database.db;
    await insertContacts(db, { tag: 'smtp-wait', n: 2, prefix: 'ok-wait' });
    await insertContacts(db, { tag: 'smtp-wait', n: 1, prefix: 'soft-wait' });
    const template = json<SavedTemplate>(
      await as('Admin', 'POST', '/api/v1/mailTemplates', twoLanguageTemplate('SMTP wait template')),
    );
    const draft = json<Campaign>(
      await as('Staff', 'POST', API, {
        name: 'Waiting for retries',
        templateId: template.id,
        fallbackLanguage: 'EN',
        audience: audienceOf('smtp-wait'),
        ratePerSecond: 500,
      }),
    );
    const sent = await as('Staff', 'POST', `${API}/${draft.id}/send`, { version: draft.version });
    const taskId = json<{ taskStatus: { taskId: string } }>(sent).taskStatus.taskId;
    await runJobs();
    expect(await get(draft.id)).toMatchObject({ status: 'sending', counts: { sent: 2, deferred: 1 } });
    expect(await taskOf(taskId)).toMatchObject({ status: 'Queued' });
    expect(await notifiedStatuses(taskId)).toEqual([]);
    // Paused while waiting (the retry is 30 s away): the task ends now, as Paused.
    expect((await as('Staff', 'POST', `${API}/${draft.id}/pause`)).statusCode).toBe(200);
    await runJobs();
    expect(await taskOf(taskId)).toMatchObject({ status: 'Paused' });
    expect(await notifiedStatuses(taskId)).toEqual(['Paused']);
    // Resumed: a new task, which waits for the retry's time and then completes.
    const resumed = json<{ taskStatus: { taskId: string } }>(
      await as('Staff', 'POST', `${API}/${draft.id}/resume`),
    );
    await runJobs();
    expect(await taskOf(resumed.taskStatus.taskId)).toMatchObject({ status: 'Queued' });
    await db.execute(sql`UPDATE campaign_recipients SET next_attempt_at = now()
      WHERE campaign_id = ${draft.id} AND state = 'deferred'`);
    await db.execute(sql`UPDATE jobs SET run_after = now() WHERE id = ${resumed.taskStatus.taskId}`);
    await runJobs();
    expect(await get(draft.id)).toMatchObject({ status: 'sent', counts: { sent: 3, deferred: 0 } });
    expect(await taskOf(resumed.taskStatus.taskId)).toMatchObject({ status: 'Completed' });
    expect(await notifiedStatuses(resumed.taskStatus.taskId)).toEqual(['Completed']);
  });

  it('a test mail goes through SMTP too; a refusal is a clear 502', async () => {
    const template = json<SavedTemplate>(
      await as('Admin', 'POST', '/api/v1/mailTemplates', twoLanguageTemplate('SMTP test mail')),
    );
    const draft = json<Campaign>(
      await as('Staff', 'POST', API, {
        name: 'Test over SMTP',
        templateId: template.id,
        fallbackLanguage: 'EN',
        audience: audienceOf('smtp'),
      }),
    );
    const before = received.length;
    const answer = await as('Staff', 'POST', `${API}/${draft.id}/testMail`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(received).toHaveLength(before + 1);
    expect(parseEml('test', received[before] as string).headers.get('subject')).toBe('[Test] Hello Asha');
    refuseStaff = true;
    const refused = await as('Staff', 'POST', `${API}/${draft.id}/testMail`);
    expect(refused.statusCode).toBe(502);
    expect(json(refused).message).toMatch(/^The mail server refused the test mail: .*Relay denied/);
    refuseStaff = false;
  });
});
