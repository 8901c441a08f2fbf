// The campaigns API (issue 17) on PGlite and PostgreSQL: drafts and their validation, the live audience
// count, sending to the outbox end to end (RFC 8058 headers, personal links that work, suppressed
// contacts skipped), scheduling (in the future only, started by the job at its time), pause and resume,
// the test mail, stale versions, who may do what (sellers: 403 everywhere), and the List-Unsubscribe
// mailto following the sender saved in Settings → Communication.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudienceCount, Campaign, CampaignInput, Recipient } from '../../../contracts/campaigns';
import type { SavedTemplate } from '../../../contracts/mail-templates';
import type { SectionState } from '../../../contracts/settings';
import { rowsOf } from '../../db/rows';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { unsubscribeAddress } from '../contacts/subscription';
import { twoLanguageTemplate } from '../mail-templates/test-helpers';
import { audienceOf, insertContacts, readOutbox } from './test-helpers';

const API = '/api/v1/campaigns';

type Answer = { campaign: Campaign; taskStatus: { taskId: string; status: string } | null };

describe.each(testBackends)('campaigns API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let template: SavedTemplate;

  const runJobs = async () => {
    while (await t.app.jobs.worker.runOnce()) {}
  };
  const draft = async (tag: string, extra: Partial<CampaignInput> = {}) => {
    const response = await as('Staff', 'POST', API, {
      name: `Campaign ${tag}`,
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: audienceOf(tag),
      ratePerSecond: 2000,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<Campaign>(response);
  };
  const get = async (id: string) => json<Campaign>(await as('Staff', 'GET', `${API}/${id}`));
  const taskStatus = async (taskId: string) =>
    json<{ status: string }>(await as('Staff', 'GET', `/api/v1/tasks/${taskId}`)).status;
  const notifiedStatuses = async (taskId: string) =>
    rowsOf<{ status: string }>(
      await t.database.db.execute(sql`SELECT status FROM notifications WHERE task_id = ${taskId}`),
    ).map((row) => row.status);
  const send = async (campaign: Campaign, body: object = {}) =>
    as('Staff', 'POST', `${API}/${campaign.id}/send`, { version: campaign.version, ...body });

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const created = await as(
      'Admin',
      'POST',
      '/api/v1/mailTemplates',
      twoLanguageTemplate('Campaign template'),
    );
    template = json<SavedTemplate>(created);
  });
  afterAll(() => t.close());

  it('creates, reads, lists, updates and deletes drafts; refuses bad input', async () => {
    const campaign = await draft('crud', { responseOptions: ['Yes', 'No'] });
    expect(campaign).toMatchObject({
      status: 'draft',
      templateName: 'Campaign template',
      version: 1,
      total: 0,
      counts: { queued: 0, sent: 0 },
      responseOptions: ['Yes', 'No'],
      audience: audienceOf('crud'),
    });
    const list = json<{ result: Campaign[]; count: number }>(
      await as('Staff', 'GET', `${API}?status=draft&query=crud`),
    );
    expect(list.result.map((row) => row.id)).toEqual([campaign.id]);
    const updated = await as('Staff', 'PUT', `${API}/${campaign.id}`, {
      name: 'Renamed',
      templateId: template.id,
      fallbackLanguage: 'FR',
      audience: audienceOf('crud'),
      version: 1,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json<Campaign>(updated)).toMatchObject({ name: 'Renamed', fallbackLanguage: 'FR', version: 2 });
    const stale = await as('Admin', 'PUT', `${API}/${campaign.id}`, {
      name: 'Mine',
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: audienceOf('crud'),
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toMatch(/ changed “Renamed” after you opened it/);

    const bad: [object, number, RegExp][] = [
      [{ name: '' }, 400, /Name the campaign/],
      [{ templateId: 'nope' }, 400, /Choose a template/],
      [{ templateId: '00000000-0000-4000-8000-000000000000' }, 400, /no such template/],
      [{ fallbackLanguage: 'DE' }, 400, /no German version to fall back on/],
      [{ ratePerSecond: 0 }, 400, /./],
      [{ responseOptions: ['a', 'b', 'c', 'd', 'e', 'f'] }, 400, /At most 5 answers/],
      [
        {
          audience: {
            query: { combinator: 'and', children: [{ field: 'salary', op: 'anyOf', value: [1] }] },
          },
        },
        400,
        /./,
      ],
    ];
    for (const [override, status, message] of bad) {
      const response = await as('Staff', 'POST', API, {
        name: 'Bad',
        templateId: template.id,
        fallbackLanguage: 'EN',
        audience: audienceOf('x'),
        ...override,
      });
      expect(response.statusCode, JSON.stringify(override)).toBe(status);
      expect(json(response).message).toMatch(message);
    }
    expect((await as('Staff', 'GET', `${API}/bad-id`)).statusCode).toBe(400);
    expect((await as('Staff', 'GET', `${API}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await as('Admin', 'DELETE', `${API}/${campaign.id}`)).statusCode).toBe(200);
    expect((await as('Admin', 'GET', `${API}/${campaign.id}`)).statusCode).toBe(404);
  });

  it('offers the audience builder the contact fields, one entry per country', async () => {
    const answer = await as('Staff', 'GET', `${API}/audienceFields`);
    expect(answer.statusCode).toBe(200);
    const fields = json<{ result: { key: string; options?: { value: string; label: string }[] }[] }>(
      answer,
    ).result;
    expect(fields.map((field) => field.key)).toEqual(
      expect.arrayContaining(['country', 'companyType', 'language', 'receivedTemplate']),
    );
    const countries = fields.find((field) => field.key === 'country')?.options ?? [];
    expect(countries.filter((option) => option.label === 'France').map((option) => option.value)).toEqual([
      'FR',
    ]);
  });

  it('counts an audience: matching, mailable and a sample', async () => {
    const made = await insertContacts(t.database.db, { tag: 'count', n: 8 });
    await unsubscribeAddress(t.database.db, made[0]?.email as string, 'staff');
    const answer = await as('Staff', 'POST', `${API}/audienceCount`, audienceOf('count'));
    expect(answer.statusCode, answer.body).toBe(200);
    const counted = json<AudienceCount>(answer);
    expect(counted).toMatchObject({ matching: 8, mailable: 7 });
    expect(counted.sample).toHaveLength(5);
    expect(counted.sample.map((row) => row.email)).not.toContain(made[0]?.email);
    const searched = json<AudienceCount>(
      await as('Staff', 'POST', `${API}/audienceCount`, { ...audienceOf('count'), search: 'First3 ' }),
    );
    expect(searched).toMatchObject({ matching: 1, mailable: 1 });
    const bad = await as('Staff', 'POST', `${API}/audienceCount`, {
      query: { combinator: 'and', children: [{ field: 'country', op: 'anyOf', value: ['Atlantis'] }] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses an audience of zero and a schedule in the past, writing nothing', async () => {
    const campaign = await draft('nobody');
    const empty = await send(campaign);
    expect(empty.statusCode).toBe(400);
    expect(json(empty).message).toBe('No contact in this audience can be mailed');
    await insertContacts(t.database.db, { tag: 'past', n: 2 });
    const later = await draft('past');
    const past = await send(later, { scheduledAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(json(past).message).toBe('The schedule must be in the future');
    expect(await get(later.id)).toMatchObject({ status: 'draft', total: 0 });
    const stale = await send({ ...later, version: 7 });
    expect(stale.statusCode).toBe(409);
  });

  it('sends to the outbox: one mail per mailable contact, RFC 8058 headers, working links, suppressed skipped', async () => {
    const made = await insertContacts(t.database.db, { tag: 'outbox', n: 6, languages: ['EN', 'FR', 'DE'] });
    // Unsubscribed before sending: not in the audience at all.
    await unsubscribeAddress(t.database.db, made[0]?.email as string, 'staff');
    const campaign = await draft('outbox', { responseOptions: ['Interested', 'Not now'] });
    const answer = await send(campaign);
    expect(answer.statusCode, answer.body).toBe(200);
    const sent = json<Answer>(answer);
    expect(sent.taskStatus).toMatchObject({ taskName: 'Bulk mail', status: 'Queued' });
    expect(sent.campaign).toMatchObject({ status: 'sending', total: 5, counts: { queued: 5 } });
    // Unsubscribed after the audience was frozen, before its turn: skipped, never mailed.
    await unsubscribeAddress(t.database.db, made[1]?.email as string, 'staff');
    expect((await send(sent.campaign)).statusCode).toBe(409);
    await runJobs();

    const done = await get(campaign.id);
    expect(done).toMatchObject({
      status: 'sent',
      counts: { queued: 0, sending: 0, sent: 4, deferred: 0, failed: 0, skipped: 1 },
    });
    expect(done.finishedAt).not.toBeNull();
    // The mailed contacts' last-contacted times are their mails' (written after the mails, by the same
    // task, which lets go of the campaign then); the skipped contact was not contacted.
    const stamps = rowsOf<{ email: string; stamped: boolean }>(
      await t.database.db.execute(sql`SELECT c.email, c.last_contacted_at = r.sent_at AS stamped
        FROM campaign_recipients r JOIN contacts c ON c.id = r.contact_id
        WHERE r.campaign_id = ${campaign.id} ORDER BY c.email`),
    );
    expect(stamps.filter((row) => row.stamped)).toHaveLength(4);
    expect(stamps.find((row) => row.email === made[1]?.email)?.stamped).toBeFalsy();
    const [released] = rowsOf<{ task_id: string | null }>(
      await t.database.db.execute(sql`SELECT task_id FROM campaigns WHERE id = ${campaign.id}`),
    );
    expect(released?.task_id).toBeNull();
    // 3 and 6 speak German, which the template lacks: they get the fallback (English).
    expect(done.byLanguage).toEqual([
      { language: 'EN', count: 3 },
      { language: 'FR', count: 1 },
    ]);
    const mails = (await readOutbox(t.dataDir)).filter((mail) =>
      mail.name.startsWith(`c${campaign.id.replaceAll('-', '')}`),
    );
    expect(mails).toHaveLength(4);
    const recipients = new Set(mails.map((mail) => mail.headers.get('to')));
    expect(recipients).not.toContain(made[0]?.email);
    expect(recipients).not.toContain(made[1]?.email);
    const fr = mails.find((mail) => mail.headers.get('to') === made[4]?.email);
    expect(fr?.headers.get('subject')).toBe('Bonjour First5');
    // DE has no version: the fallback (EN) goes out.
    const de = mails.find((mail) => mail.headers.get('to') === made[2]?.email);
    expect(de?.headers.get('subject')).toBe('Hello First3');
    const mail = mails.find((candidate) => candidate.headers.get('to') === made[3]?.email);
    expect(mail).toBeDefined();
    const headers = mail?.headers as Map<string, string>;
    expect(headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const listUnsubscribe = headers.get('list-unsubscribe') as string;
    expect(listUnsubscribe).toMatch(
      /^<https?:\/\/[^>]+\/api\/v1\/helperQuery\/method\/oneClickUnsubscribe\?[^>]+>, <mailto:[^>]+\?subject=unsubscribe>$/,
    );
    expect(headers.get('message-id')).toMatch(new RegExp(`^<${mail?.name.replace('.eml', '')}@`));
    const body = mail?.body as string;
    expect(body).toContain('Dear First4 Last4 of Company 4');
    const unsubscribeLink = /https?:\/\/[^\s"<>]+\/unsubscribe\?[^\s"<>]+/.exec(body)?.[0] as string;
    expect(unsubscribeLink).toBeDefined();
    const answers = [...body.matchAll(/https?:\/\/[^\s"<>]+\/responseCollection\?[^\s"<>]+/g)].map(
      (match) => new URL(match[0].replaceAll('&amp;', '&')),
    );
    expect(new Set(answers.map((url) => url.searchParams.get('response')))).toEqual(
      new Set(['Interested', 'Not now']),
    );

    // The response link records an answer the campaign page lists.
    const link = answers.find((url) => url.searchParams.get('response') === 'Interested') as URL;
    const responded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/helperQuery/method/collectResponse',
      payload: {
        email: link.searchParams.get('email'),
        token: link.searchParams.get('token'),
        campaign: link.searchParams.get('campaign'),
        response: 'Interested',
      },
    });
    expect(responded.statusCode, responded.body).toBe(200);
    const responses = json<{ result: { email: string; name: string; response: string }[] }>(
      await as('Staff', 'GET', `${API}/${campaign.id}/responses`),
    );
    expect(responses.result).toEqual([
      expect.objectContaining({ email: made[3]?.email, name: 'First4 Last4', response: 'Interested' }),
    ]);

    // The one-click header: a mail client's form POST unsubscribes the address.
    const oneClick = new URL(listUnsubscribe.slice(1, listUnsubscribe.indexOf('>')));
    const clicked = await t.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.statusCode, clicked.body).toBe(200);
    const unsubscribes = json<{ result: { email: string; method: string }[]; count: number }>(
      await as('Staff', 'GET', `${API}/${campaign.id}/unsubscribes`),
    );
    expect(unsubscribes.result).toEqual([
      expect.objectContaining({ email: made[3]?.email, method: 'one_click' }),
    ]);
    expect(await get(campaign.id)).toMatchObject({
      responses: 1,
      unsubscribes: 1,
      responsesByAnswer: [{ response: 'Interested', count: 1 }],
    });

    const recipientsPage = json<{ result: Recipient[]; count: number }>(
      await as('Staff', 'GET', `${API}/${campaign.id}/recipients?state=skipped`),
    );
    expect(recipientsPage).toMatchObject({ count: 1, result: [{ email: made[1]?.email, state: 'skipped' }] });
    const searched = json<{ result: Recipient[]; count: number }>(
      await as('Staff', 'GET', `${API}/${campaign.id}/recipients?query=first5`),
    );
    expect(searched.result.map((row) => row.email)).toEqual([made[4]?.email]);
    // The contacts' timelines and last-contacted times.
    const [history] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM audit_entries WHERE subject_type = 'contact' AND related_id = ${campaign.id} AND action = 'mail_sent'`,
      ),
    );
    expect(history?.n).toBe(4);
    // A sent campaign is history: no edit, no delete, no second send.
    expect((await as('Admin', 'DELETE', `${API}/${campaign.id}`)).statusCode).toBe(409);
  });

  it('refuses a one-click unsubscribe with a bad token or body', async () => {
    const url = new URL(t.app.mailLinks.oneClickUnsubscribeUrl('someone@example.com'));
    const post = (query: string, payload: string, type = 'application/x-www-form-urlencoded') =>
      t.app.inject({
        method: 'POST',
        url: `${url.pathname}?${query}`,
        headers: { 'content-type': type },
        payload,
      });
    const forged = new URLSearchParams(url.search);
    forged.set('email', 'victim@example.com');
    expect((await post(forged.toString(), 'List-Unsubscribe=One-Click')).statusCode).toBe(403);
    expect((await post(url.search.slice(1), 'List-Unsubscribe=Other')).statusCode).toBe(400);
    const multipart = `--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n`;
    const ok = await post(url.search.slice(1), multipart, 'multipart/form-data; boundary=b');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('schedules for later; the job starts it at its time and freezes the audience then', async () => {
    await insertContacts(t.database.db, { tag: 'later', n: 3 });
    const campaign = await draft('later');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const answer = await send(campaign, { scheduledAt: at });
    expect(answer.statusCode, answer.body).toBe(200);
    const scheduled = json<Answer>(answer);
    expect(scheduled.taskStatus).toBeNull();
    expect(scheduled.campaign).toMatchObject({ status: 'scheduled', scheduledAt: at, total: 0 });
    await runJobs();
    expect((await get(campaign.id)).status).toBe('scheduled');
    // Contacts added before the time are mailed too.
    await insertContacts(t.database.db, { tag: 'later', n: 1, prefix: 'later-late' });
    // Time passes: the job's time comes.
    await t.database.db.execute(
      sql`UPDATE jobs SET run_after = now() WHERE payload->>'campaignId' = ${campaign.id}`,
    );
    await runJobs();
    expect(await get(campaign.id)).toMatchObject({ status: 'sent', total: 4, counts: { sent: 4 } });
  });

  it('rescheduling or sending a scheduled campaign now leaves one job working on it', async () => {
    await insertContacts(t.database.db, { tag: 'resched', n: 2 });
    let campaign = await draft('resched');
    const first = await send(campaign, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    campaign = json<Answer>(first).campaign;
    const now = await send(campaign);
    expect(now.statusCode, now.body).toBe(200);
    await t.database.db.execute(
      sql`UPDATE jobs SET run_after = now() WHERE payload->>'campaignId' = ${campaign.id}`,
    );
    await runJobs();
    expect(await get(campaign.id)).toMatchObject({ status: 'sent', counts: { sent: 2 } });
    const mails = (await readOutbox(t.dataDir)).filter((mail) =>
      mail.name.startsWith(`c${campaign.id.replaceAll('-', '')}`),
    );
    expect(mails).toHaveLength(2);
  });

  it('pauses after the chunk in flight and resumes where it stopped', async () => {
    await insertContacts(t.database.db, { tag: 'pause', n: 30 });
    const campaign = await draft('pause', { ratePerSecond: 10 });
    const sent = json<Answer>(await send(campaign));
    const running = t.app.jobs.worker.runOnce();
    // The first chunk (10 mails at 10/s) is under way.
    for (let i = 0; i < 100 && (await get(campaign.id)).counts.sending === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const paused = await as('Staff', 'POST', `${API}/${campaign.id}/pause`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(json<{ campaign: Campaign }>(paused).campaign.status).toBe('paused');
    await running;
    // Stopped after the chunks already taken (chunks of 5 at 10/s; one is claimed ahead of sending).
    const stopped = await get(campaign.id);
    expect(stopped.status).toBe('paused');
    expect(stopped.counts.sending).toBe(0);
    expect(stopped.counts.sent).toBeGreaterThan(0);
    expect(stopped.counts.sent).toBeLessThanOrEqual(10);
    expect(stopped.counts.sent + stopped.counts.queued).toBe(30);
    // The paused send's task ends Paused, never Completed: the task toast reads "Bulk mail Paused".
    const firstTask = sent.taskStatus?.taskId as string;
    expect(await taskStatus(firstTask)).toBe('Paused');
    expect(await notifiedStatuses(firstTask)).toEqual(['Paused']);
    expect((await as('Staff', 'POST', `${API}/${campaign.id}/pause`)).statusCode).toBe(409);
    const resumed = await as('Staff', 'POST', `${API}/${campaign.id}/resume`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    const again = json<Answer>(resumed);
    expect(again.taskStatus?.taskId).not.toBe(sent.taskStatus?.taskId);
    await t.database.db.execute(sql`UPDATE campaigns SET rate_per_second = 2000 WHERE id = ${campaign.id}`);
    await runJobs();
    expect(await get(campaign.id)).toMatchObject({ status: 'sent', counts: { sent: 30, queued: 0 } });
    expect(await taskStatus(again.taskStatus?.taskId as string)).toBe('Completed');
    expect(await notifiedStatuses(again.taskStatus?.taskId as string)).toEqual(['Completed']);
    expect((await as('Staff', 'POST', `${API}/${campaign.id}/resume`)).statusCode).toBe(409);
  });

  it('pausing a campaign whose job has not started ends its task as Paused at once', async () => {
    await insertContacts(t.database.db, { tag: 'pause-queued', n: 3 });
    const campaign = await draft('pause-queued');
    const sent = json<Answer>(await send(campaign));
    const taskId = sent.taskStatus?.taskId as string;
    // Waiting in the queue (e.g. for deferred retries hours away): pausing makes it due now.
    await t.database.db.execute(
      sql`UPDATE jobs SET run_after = now() + interval '1 hour' WHERE id = ${taskId}`,
    );
    expect((await as('Staff', 'POST', `${API}/${campaign.id}/pause`)).statusCode).toBe(200);
    await runJobs();
    expect(await taskStatus(taskId)).toBe('Paused');
    expect(await notifiedStatuses(taskId)).toEqual(['Paused']);
    expect(await get(campaign.id)).toMatchObject({ status: 'paused', counts: { queued: 3, sent: 0 } });
  });

  it('sends a test mail to the signed-in user, writing no recipient', async () => {
    const campaign = await draft('test-mail');
    const answer = await as('Staff', 'POST', `${API}/${campaign.id}/testMail`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(json(answer).message).toBe('A test mail was sent to staff@demo.local.');
    const mails = (await readOutbox(t.dataDir)).filter(
      (mail) => mail.headers.get('to') === 'staff@demo.local',
    );
    expect(mails.map((mail) => mail.headers.get('subject'))).toContain('[Test] Hello Asha');
    // Its links open the pages in test mode: no signed link that would unsubscribe the author.
    const testMail = mails.find((mail) => mail.headers.get('subject') === '[Test] Hello Asha');
    expect(testMail?.body).toContain('/unsubscribe?test=1');
    expect(testMail?.body).not.toContain('token=');
    expect(testMail?.headers.get('list-unsubscribe')).toContain('/unsubscribe?test=1');
    expect(await get(campaign.id)).toMatchObject({ status: 'draft', total: 0 });
    const [recipients] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = ${campaign.id}`,
      ),
    );
    expect(recipients?.n).toBe(0);
  });

  it("mails as the sender saved in Settings → Communication, its address in List-Unsubscribe's mailto", async () => {
    const { version } = json<SectionState>(await as('Admin', 'GET', '/api/v1/settings/communication'));
    const saved = await as('Admin', 'PUT', '/api/v1/settings/communication', {
      version,
      set: { senderName: 'Acme News', senderAddress: 'news@acme.example' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [contact] = await insertContacts(t.database.db, { tag: 'sender', n: 1 });
    const campaign = await draft('sender');
    expect((await send(campaign)).statusCode).toBe(200);
    await runJobs();
    const testMail = await as('Staff', 'POST', `${API}/${campaign.id}/testMail`);
    expect(testMail.statusCode, testMail.body).toBe(200);
    const mails = (await readOutbox(t.dataDir)).filter((mail) =>
      mail.name.startsWith(`c${campaign.id.replaceAll('-', '')}`),
    );
    const sentMail = mails.find((mail) => mail.headers.get('to') === contact?.email);
    const test = mails.find((mail) => mail.headers.get('to') === 'staff@demo.local');
    for (const mail of [sentMail, test]) {
      expect(mail?.headers.get('from')).toBe('Acme News <news@acme.example>');
      expect(mail?.headers.get('list-unsubscribe')).toMatch(
        /, <mailto:news@acme\.example\?subject=unsubscribe>$/,
      );
    }
  });

  it('every route against every role: sellers 403, staff cannot delete', async () => {
    const campaign = await draft('roles');
    const id = campaign.id;
    const body = {
      name: 'x',
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: audienceOf('roles'),
    };
    const routes: [Parameters<ApiAs>[1], string, object | undefined, RouteAction][] = [
      ['GET', API, undefined, 'view'],
      ['POST', `${API}/audienceCount`, audienceOf('roles'), 'view'],
      ['GET', `${API}/audienceFields`, undefined, 'view'],
      ['POST', API, body, 'create'],
      ['GET', `${API}/${id}`, undefined, 'view'],
      ['PUT', `${API}/${id}`, { ...body, version: 99 }, 'edit'],
      ['POST', `${API}/${id}/testMail`, undefined, 'create'],
      ['POST', `${API}/${id}/send`, { version: 99 }, 'create'],
      ['POST', `${API}/${id}/pause`, undefined, 'edit'],
      ['POST', `${API}/${id}/resume`, undefined, 'edit'],
      ['GET', `${API}/${id}/recipients`, undefined, 'view'],
      ['GET', `${API}/${id}/responses`, undefined, 'view'],
      ['GET', `${API}/${id}/unsubscribes`, undefined, 'view'],
      ['DELETE', `${API}/${id}`, undefined, 'delete'],
    ];
    for (const [method, url, payload, action] of routes) {
      for (const who of ['Seller', 'Blocked'] as const) {
        const response = await as(who, method, url, payload);
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(403);
      }
      const staff = await as('Staff', method, url, payload);
      if (action === 'delete') expect(staff.statusCode, `Staff ${method} ${url}`).toBe(403);
      else expect(staff.statusCode, `Staff ${method} ${url}`).not.toBe(403);
    }
    expect((await as('Admin', 'DELETE', `${API}/${id}`)).statusCode).toBe(200);
  });
});

type RouteAction = 'view' | 'create' | 'edit' | 'delete';
