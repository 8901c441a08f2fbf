// Settings → Communication takes effect: every mail's From and Reply-To are the saved sender, the
// transport follows the saved SMTP fields (rebuilt on change), SMTP_URL wins over them, and "Send a test
// mail" answers what the mail server said — its 250 line, its 535 refusal, a refused connection, or a
// private host the server will not contact. The saved SMTP password is stored encrypted; one stored before
// that still works and is sealed at the next start; one the server's key cannot open sends mail to the
// outbox and the test mail says why, the server running on.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SectionState, settingsDefaults } from '../../../contracts/settings';
import { rowsOf } from '../../db/rows';
import { followedSetup } from '../../plugins/mail';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { readOutbox } from '../campaigns/test-helpers';
import { secretBox } from '../settings/secret-box';
import { sealStoredSecrets } from '../settings/stored-secrets';
import { mailFieldsFromEnvironment, SMTP_FIELDS } from './environment';
import { TEST_MAILS_PER_WINDOW } from './routes';

const API = '/api/v1/settings';
const TEST_MAIL = `${API}/communication/test-mail`;

interface Sink {
  server: SMTPServer;
  port: number;
  received: string[];
  close(): Promise<void>;
}

/** An SMTP server on loopback that keeps what it receives; with `password`, AUTH is required. */
async function startSink(password?: string): Promise<Sink> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: password === undefined,
    allowInsecureAuth: true,
    disabledCommands: password === undefined ? ['STARTTLS', 'AUTH'] : ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.password === password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('5.7.8 Authentication failed'), { responseCode: 535 }));
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    server,
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const headerOf = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'im').exec(raw.replace(/\n[ \t]+/g, ' '))?.[1]?.trim();

async function saveCommunication(as: ApiAs, set: Record<string, unknown>) {
  const current = json<SectionState>(await as('Admin', 'GET', `${API}/communication`));
  const saved = await as('Admin', 'PUT', `${API}/communication`, { version: current.version, set });
  expect(saved.statusCode, saved.body).toBe(200);
}

const SENDER = {
  senderName: 'Acme Support',
  senderAddress: 'support@acme.example',
  replyTo: 'help@acme.example',
};

describe.each(testBackends)('communication settings on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sink: Sink;
  let authSink: Sink;

  beforeAll(async () => {
    [sink, authSink] = await Promise.all([startSink(), startSink('right-password')]);
    t = await createTestApp({ backend, jobs: { enabled: false }, env: { SMTP_ALLOW_PRIVATE_HOSTS: 'true' } });
    as = await apiAs(t.app);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await Promise.all([sink.close(), authSink.close()]);
  });

  it('writes every mail to the outbox as the saved sender, with the saved reply-to', async () => {
    await saveCommunication(as, SENDER);
    const answer = await as('Admin', 'POST', TEST_MAIL, {});
    expect(answer.statusCode, answer.body).toBe(200);
    const result = json<{ ok: boolean; message: string; transport: string }>(answer);
    expect(result).toMatchObject({ ok: true, transport: 'outbox' });
    expect(result.message).toMatch(/^Written to the outbox: .+\.eml$/);

    // A mail of the product (not the test route) follows the settings too.
    await t.app.mailer.send({ to: 'someone@example.com', subject: 'Product mail', text: 'Hello' });
    const mails = await readOutbox(t.dataDir);
    const test = mails.find((mail) => mail.headers.get('subject') === 'Test mail from your marketplace');
    const product = mails.find((mail) => mail.headers.get('subject') === 'Product mail');
    for (const mail of [test, product]) {
      expect(mail?.headers.get('from')).toBe('Acme Support <support@acme.example>');
      expect(mail?.headers.get('reply-to')).toBe('help@acme.example');
    }
    expect(test?.headers.get('to')).toBe('admin@demo.local');
    expect(result.message).toContain(test?.name);
  });

  it('tests unsaved SMTP fields against the server, answering its 250 line', async () => {
    const answer = await as('Admin', 'POST', TEST_MAIL, {
      transport: 'smtp',
      smtpHost: '127.0.0.1',
      smtpPort: sink.port,
      smtpSecure: false,
      senderName: 'Draft Sender',
    });
    const result = json<{ ok: boolean; message: string }>(answer);
    expect(result).toMatchObject({ ok: true, transport: 'smtp' });
    expect(result.message).toMatch(/^250 /);
    const raw = sink.received.at(-1) ?? '';
    expect(headerOf(raw, 'From')).toBe('Draft Sender <support@acme.example>');
    expect(headerOf(raw, 'Reply-To')).toBe('help@acme.example');
    // Nothing was saved: product mail still goes to the outbox.
    expect(t.app.mailer.kind).toBe('outbox');
  });

  it("answers the server's 535 for a wrong password, and never echoes the password", async () => {
    const answer = await as('Admin', 'POST', TEST_MAIL, {
      transport: 'smtp',
      smtpHost: '127.0.0.1',
      smtpPort: authSink.port,
      smtpUser: 'mailer',
      smtpPassword: 'wrong-secret-value',
    });
    expect(answer.statusCode).toBe(200);
    const result = json<{ ok: boolean; message: string }>(answer);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^EAUTH 535/);
    expect(answer.body).not.toContain('wrong-secret-value');

    const good = json<{ ok: boolean; message: string }>(
      await as('Admin', 'POST', TEST_MAIL, {
        transport: 'smtp',
        smtpHost: '127.0.0.1',
        smtpPort: authSink.port,
        smtpUser: 'mailer',
        smtpPassword: 'right-password',
      }),
    );
    expect(good).toMatchObject({ ok: true });
  });

  it('answers a refused connection', async () => {
    const closed = await startSink();
    const port = closed.port;
    await closed.close();
    const result = json<{ ok: boolean; message: string }>(
      await as('Admin', 'POST', TEST_MAIL, { transport: 'smtp', smtpHost: '127.0.0.1', smtpPort: port }),
    );
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/ECONNREFUSED/);
  });

  it('sends product mail over the saved SMTP server at once, with the saved password', async () => {
    await saveCommunication(as, {
      transport: 'smtp',
      smtpHost: '127.0.0.1',
      smtpPort: authSink.port,
      smtpUser: 'mailer',
      smtpPassword: 'right-password',
    });
    const before = authSink.received.length;
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Over SMTP now', text: 'Hi' });
    expect(t.app.mailer.kind).toBe('smtp');
    expect(authSink.received.length).toBe(before + 1);
    expect(headerOf(authSink.received.at(-1) ?? '', 'From')).toBe('Acme Support <support@acme.example>');
    // The test mail without a draft password uses the stored one (the page never has it).
    const stored = json<{ ok: boolean }>(await as('Admin', 'POST', TEST_MAIL, { smtpPassword: '••••••••' }));
    expect(stored.ok).toBe(true);
    // Back to the outbox: the pool is replaced.
    await saveCommunication(as, { transport: 'outbox' });
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Outbox again', text: 'Hi' });
    expect(t.app.mailer.kind).toBe('outbox');
    expect(authSink.received.length).toBe(before + 2);
  });

  /** The marketplace's stored SMTP password, as the column holds it. */
  const storedPassword = async () =>
    rowsOf<{ password: string }>(
      await t.database.db.execute(sql`SELECT values->>'smtpPassword' AS password FROM setting_sections
        WHERE seller_id IS NULL AND section = 'communication'`),
    )[0]?.password;
  /** Writes the stored password behind the API's back (a value from before encryption, another key's). */
  const writeStoredPassword = async (value: string) => {
    await t.database.db.execute(sql`UPDATE setting_sections
      SET values = jsonb_set(values, '{smtpPassword}', to_jsonb(${value}::text))
      WHERE seller_id IS NULL AND section = 'communication'`);
    t.app.settings.forget(null);
  };
  const smtpFields = () => ({
    transport: 'smtp',
    smtpHost: '127.0.0.1',
    smtpPort: authSink.port,
    smtpUser: 'mailer',
    smtpPassword: 'right-password',
  });

  it('stores the password encrypted, and authenticates with it', async () => {
    await saveCommunication(as, smtpFields());
    const stored = await storedPassword();
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain('right-password');
    const before = authSink.received.length;
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Sealed password', text: 'Hi' });
    expect(authSink.received.length).toBe(before + 1);
    const test = json<{ ok: boolean }>(await as('Admin', 'POST', TEST_MAIL, {}));
    expect(test.ok).toBe(true);
  });

  it('still uses a password stored before encryption, which the start-up pass seals', async () => {
    await saveCommunication(as, smtpFields());
    await writeStoredPassword('right-password');
    const before = authSink.received.length;
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Plain password', text: 'Hi' });
    expect(authSink.received.length).toBe(before + 1);
    expect(await sealStoredSecrets(t.database.db, t.app.settings.secrets)).toBe(1);
    expect(await storedPassword()).toMatch(/^enc:v1:/);
    expect(await sealStoredSecrets(t.database.db, t.app.settings.secrets)).toBe(0);
    t.app.settings.forget(null);
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Sealed at start', text: 'Hi' });
    expect(authSink.received.length).toBe(before + 2);
  });

  it("sends to the outbox while the server's key cannot open the password, and says so", async () => {
    await saveCommunication(as, smtpFields());
    // Sealed under another key: as after JWT_SECRET changed.
    await writeStoredPassword(secretBox(randomBytes(32)).seal('right-password'));
    const before = authSink.received.length;
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Kept while unreadable', text: 'Hi' });
    expect(t.app.mailer.kind).toBe('outbox');
    expect(authSink.received.length).toBe(before);
    const kept = await readOutbox(t.dataDir);
    expect(kept.find((mail) => mail.headers.get('subject') === 'Kept while unreadable')).toBeDefined();
    const test = json<{ ok: boolean; message: string }>(await as('Admin', 'POST', TEST_MAIL, {}));
    expect(test).toMatchObject({ ok: false, transport: 'smtp' });
    expect(test.message).toMatch(
      /^The saved SMTP password cannot be decrypted with this server's key .*enter it again/,
    );
    // The page still works, and entering the password again mends it.
    await saveCommunication(as, { smtpPassword: 'right-password' });
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Mended', text: 'Hi' });
    expect(t.app.mailer.kind).toBe('smtp');
    expect(authSink.received.length).toBe(before + 1);
    await saveCommunication(as, { transport: 'outbox' });
  });

  it('lets only admins test the mail, and limits how often', async () => {
    expect((await as('Staff', 'POST', TEST_MAIL, {})).statusCode).toBe(403);
    expect((await as('Seller', 'POST', TEST_MAIL, {})).statusCode).toBe(403);
    expect((await as('Admin', 'POST', TEST_MAIL, { smtpPort: 0 })).statusCode).toBe(400);
    expect((await as('Admin', 'POST', TEST_MAIL, { unknown: 1 })).statusCode).toBe(400);
    const statuses: number[] = [];
    for (let index = 0; index < TEST_MAILS_PER_WINDOW + 1; index++) {
      statuses.push((await as('Admin', 'POST', TEST_MAIL, {})).statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the mailer with a saved SMTP password it cannot open', () => {
  it('logs it and sends to the outbox as the saved sender', () => {
    const logged: string[] = [];
    const communication = {
      ...settingsDefaults('IN').communication,
      senderName: 'Acme',
      senderAddress: 'support@acme.example',
      transport: 'smtp' as const,
      smtpHost: 'smtp.example.com',
      smtpUser: 'mailer',
      smtpPassword: secretBox(randomBytes(32)).seal('secret'),
    };
    const setup = followedSetup(communication, secretBox(randomBytes(32)).open, undefined, {
      error: (_details, message) => logged.push(message),
    });
    expect(setup).toMatchObject({ from: 'Acme <support@acme.example>', transport: { kind: 'outbox' } });
    expect(logged).toEqual([expect.stringMatching(/SMTP password cannot be opened/)]);
    // SMTP_URL decides the transport: the stored password is not needed, nothing to report.
    const withUrl = followedSetup(communication, secretBox(randomBytes(32)).open, 'smtp://relay:25', {
      error: (_details, message) => logged.push(message),
    });
    expect(withUrl.transport).toEqual({ kind: 'smtp', url: 'smtp://relay:25' });
    expect(logged).toHaveLength(1);
  });
});

describe('SMTP hosts the server will not contact', () => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
    as = await apiAs(t.app);
  }, 60_000);
  afterAll(async () => t.close());

  it('refuses loopback and private hosts unless SMTP_ALLOW_PRIVATE_HOSTS is set', async () => {
    for (const smtpHost of ['127.0.0.1', '10.1.2.3', '[::1]', '169.254.169.254']) {
      const result = json<{ ok: boolean; message: string }>(
        await as('Admin', 'POST', TEST_MAIL, { transport: 'smtp', smtpHost, smtpPort: 25 }),
      );
      expect(result.ok, smtpHost).toBe(false);
      expect(result.message).toContain('private or local network address');
    }
    const empty = json<{ ok: boolean; message: string }>(
      await as('Admin', 'POST', TEST_MAIL, { transport: 'smtp', smtpHost: '' }),
    );
    expect(empty).toMatchObject({ ok: false, message: 'Enter the SMTP server’s host name.' });
  });
});

describe('SMTP_URL wins over the settings', () => {
  let t: TestApp;
  let as: ApiAs;
  let sink: Sink;
  beforeAll(async () => {
    sink = await startSink();
    t = await createTestApp({ jobs: { enabled: false }, env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}` } });
    as = await apiAs(t.app);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('sends over SMTP_URL whatever the transport fields say, as the saved sender', async () => {
    // The transport fields cannot be saved while SMTP_URL decides them (the section shows them read-only).
    await saveCommunication(as, SENDER);
    const result = json<{ ok: boolean; message: string; transport: string }>(
      await as('Admin', 'POST', TEST_MAIL, { transport: 'outbox' }),
    );
    expect(result).toMatchObject({ ok: true, transport: 'smtp' });
    expect(headerOf(sink.received.at(-1) ?? '', 'From')).toBe('Acme Support <support@acme.example>');
    await t.app.mailer.send({ to: 'buyer@example.com', subject: 'Env wins', text: 'Hi' });
    expect(sink.received).toHaveLength(2);
    expect(mailFieldsFromEnvironment(t.config)).toEqual(SMTP_FIELDS);
    expect(mailFieldsFromEnvironment({ SMTP_URL: undefined })).toEqual([]);
  });
});
