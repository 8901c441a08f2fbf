// FAULT test (issue 17): kill the real server with SIGKILL while a 5,000-recipient campaign is being
// written to the outbox, start it again on the same data dir, and the campaign finishes with every
// recipient mailed exactly once: the outbox holds exactly 5,000 files of the campaign, one per
// recipient, and every recipient is `sent`. 127.0.0.1 only, temporary DATA_DIR.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../../contracts/campaigns';
import type { SavedTemplate } from '../../../contracts/mail-templates';
import { openDatabase } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { api, childEnv, run, type Server, signIn, startServer, stop, until } from '../../test-process';
import { twoLanguageTemplate } from '../mail-templates/test-helpers';
import { audienceOf, insertContacts, readOutbox } from './test-helpers';

const RECIPIENTS = 5_000;
const TAG = 'crash-audience';

describe('a campaign send survives a server crash', () => {
  let dataDir: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-campaign-crash-'));
    // Prepares the data dir as a first start would (migrations, the demo marketplace), then adds the
    // audience straight into the database before any server holds it.
    await run(['server/seed/cli.ts', '--sellers', '1'], childEnv(dataDir));
    const database = await openDatabase({ dataDir });
    try {
      await insertContacts(database.db, { tag: TAG, n: RECIPIENTS, languages: ['EN', 'FR'] });
    } finally {
      await database.close();
    }
  }, 90_000);

  afterAll(async () => {
    for (const server of servers) await stop(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes after the restart with one outbox file per recipient', async () => {
    const first = await startServer(dataDir);
    servers.push(first);
    const admin = await signIn(first.base);
    const post = <T>(base: string, token: string, url: string, body: object) =>
      api<T>(base, token, url, { method: 'POST', body: JSON.stringify(body) });
    const template = await post<SavedTemplate>(
      first.base,
      admin.token,
      '/api/v1/mailTemplates',
      twoLanguageTemplate('Crash template'),
    );
    const draft = await post<Campaign>(first.base, admin.token, '/api/v1/campaigns', {
      name: 'Crash campaign',
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: audienceOf(TAG),
      // Slow enough (about 5 s) to be caught half-way.
      ratePerSecond: 1000,
    });
    await post(first.base, admin.token, `/api/v1/campaigns/${draft.id}/send`, { version: draft.version });
    const read = (base: string, token: string) => api<Campaign>(base, token, `/api/v1/campaigns/${draft.id}`);
    const halfway = await until(
      'the send to be under way',
      async () => {
        const campaign = await read(first.base, admin.token);
        if (campaign.status === 'sent')
          throw new Error('the campaign finished before it could be interrupted');
        return campaign.counts.sent >= 1000 ? campaign : undefined;
      },
      30_000,
    );
    await stop(first, 'SIGKILL');
    expect(halfway.counts.sent).toBeLessThan(RECIPIENTS);

    const second = await startServer(dataDir);
    servers.push(second);
    const again = await signIn(second.base);
    const done = await until(
      'the campaign to finish after the restart',
      async () => {
        const campaign = await read(second.base, again.token);
        if (campaign.status === 'failed') throw new Error(`the campaign failed: ${campaign.error}`);
        return campaign.status === 'sent' ? campaign : undefined;
      },
      60_000,
    );
    expect(done.counts).toEqual({
      queued: 0,
      sending: 0,
      sent: RECIPIENTS,
      deferred: 0,
      failed: 0,
      skipped: 0,
    });
    await stop(second, 'SIGTERM');

    // The outbox: exactly one file per recipient, each to a different recipient of the audience.
    const prefix = `c${draft.id.replaceAll('-', '')}-`;
    const names = (await readdir(path.join(dataDir, 'outbox'))).filter((name) => name.startsWith(prefix));
    expect(names).toHaveLength(RECIPIENTS);
    const mails = (await readOutbox(dataDir)).filter((mail) => mail.name.startsWith(prefix));
    const addresses = new Set(mails.map((mail) => mail.headers.get('to')));
    expect(addresses.size).toBe(RECIPIENTS);

    const database = await openDatabase({ dataDir });
    try {
      const [stored] = rowsOf<{ sent: number; keys: number; contacts: number }>(
        await database.db.execute(sql`
          SELECT count(*) FILTER (WHERE r.state = 'sent')::int AS sent,
                 count(DISTINCT r.message_key)::int AS keys,
                 count(DISTINCT r.contact_id)::int AS contacts
          FROM campaign_recipients r WHERE r.campaign_id = ${draft.id}`),
      );
      expect(stored).toEqual({ sent: RECIPIENTS, keys: RECIPIENTS, contacts: RECIPIENTS });
      const expected = rowsOf<{ email: string }>(
        await database.db.execute(sql`SELECT email FROM contacts WHERE ${TAG} = ANY(tags)`),
      ).map((row) => row.email);
      expect([...addresses].sort()).toEqual(expected.sort());
    } finally {
      await database.close();
    }
  }, 150_000);
});
