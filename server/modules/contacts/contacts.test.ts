// The Contacts API (issue 17) on PGlite and PostgreSQL: contacts (create, read, edit with history and a
// stale version's 409, delete), bad input (malformed e-mail, duplicate e-mail, unknown company type or
// country), the list's filters and orders, staff unsubscribe and the refused resubscribe, company types,
// the timeline with linked help chats, and lead imports (mapping, 10 % bad rows, duplicates in the sheet
// and against contacts, unsubscribed contacts never resubscribed, the report and the error sheet).
import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CompanyType,
  Contact,
  ContactList,
  ContactTimeline,
  LeadImport,
  LeadImportUpload,
  LeadRows,
} from '../../../contracts/contacts';
import type { TaskAccepted } from '../../../contracts/notifications';
import { encodeQuery, type QueryTree } from '../../../contracts/query-tree';
import { formulaCells, parseCsv } from '../../../tests/csv';
import { contacts, emailUnsubscribes } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { exportFilePath } from '../exports/export-job';
import { createChat } from '../help-chats/repository';
import { multipart } from '../sellers/test-helpers';

const API = '/api/v1/contacts';

describe.each(testBackends)('contacts API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let retail: CompanyType;

  const runJobs = async () => {
    while (await t.app.jobs.worker.runOnce()) {}
  };
  const create = async (body: Record<string, unknown>, who: 'Admin' | 'Staff' = 'Staff') => {
    const response = await as(who, 'POST', API, body);
    expect(response.statusCode, response.body).toBe(201);
    return json<Contact>(response);
  };
  const list = async (params: Record<string, string> = {}) => {
    const response = await as('Staff', 'GET', `${API}?${new URLSearchParams(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<ContactList>(response);
  };
  const byQuery = (tree: QueryTree, extra: Record<string, string> = {}) =>
    list({ query: encodeQuery(tree) ?? '', limit: '200', ...extra });
  const upload = async (csv: string, name = 'leads.csv') => {
    const body = multipart([{ filename: name, type: 'text/csv', content: Buffer.from(csv) }]);
    return as('Staff', 'POST', `${API}/leadImports`, body.payload, body.headers);
  };

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    // The demo seed may have contacts of its own: these tests start from none.
    await t.database.db.execute(sql`DELETE FROM contacts`);
    await t.database.db.execute(sql`DELETE FROM company_types`);
  });
  afterAll(() => t?.close());

  it('manages company types (unique names, case ignored); only with the edit permission', async () => {
    const made = await as('Admin', 'POST', `${API}/companyTypes`, { name: ' Retail ' });
    expect(made.statusCode, made.body).toBe(201);
    retail = json<CompanyType>(made);
    expect(retail).toMatchObject({ name: 'Retail', contacts: 0 });
    const twin = await as('Admin', 'POST', `${API}/companyTypes`, { name: 'RETAIL' });
    expect(twin.statusCode).toBe(409);
    expect(json(twin).message).toBe('There is already a company type named “RETAIL”.');
    expect((await as('Admin', 'POST', `${API}/companyTypes`, { name: '' })).statusCode).toBe(400);
    const wholesale = json<CompanyType>(
      await as('Admin', 'POST', `${API}/companyTypes`, { name: 'Wholesale' }),
    );
    const renamed = await as('Admin', 'PUT', `${API}/companyTypes/${wholesale.id}`, { name: 'Wholesaler' });
    expect(json<CompanyType>(renamed).name).toBe('Wholesaler');
    const types = json<{ result: CompanyType[] }>(await as('Staff', 'GET', `${API}/companyTypes`)).result;
    expect(types.map((type) => type.name)).toEqual(['Retail', 'Wholesaler']);
    const gone = await as('Admin', 'POST', `${API}/companyTypes/${wholesale.id}/delete`);
    expect(json(gone)).toEqual({ contacts: 0 });
    expect((await as('Seller', 'POST', `${API}/companyTypes`, { name: 'X' })).statusCode).toBe(403);
  });

  it('creates a contact: e-mail normalised, tags cleaned, history written; bad input refused', async () => {
    const ada = await create({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: '  Ada@Example.COM ',
      company: 'Analytical Engines',
      companyTypeId: retail.id,
      country: 'gb',
      language: 'EN',
      tags: [' vip ', 'VIP', 'london', ''],
      consent: true,
    });
    expect(ada).toMatchObject({
      email: 'ada@example.com',
      country: 'GB',
      companyTypeName: 'Retail',
      tags: ['vip', 'london'],
      source: 'manual',
      subscription: 'subscribed',
      version: 1,
    });
    expect(ada.consentAt).not.toBeNull();

    const bad: [Record<string, unknown>, number, string][] = [
      [{ email: 'not-an-email' }, 400, 'Enter a valid e-mail address, like name@example.com.'],
      [{ email: 'a@b' }, 400, 'Enter a valid e-mail address, like name@example.com.'],
      [{ email: 'ADA@example.com' }, 409, 'A contact with the e-mail ada@example.com already exists.'],
      [
        { email: 'x@example.com', companyTypeId: '00000000-0000-4000-8000-000000000000' },
        400,
        'There is no such company type.',
      ],
      [{ email: 'x@example.com', country: 'XX' }, 400, 'Choose a country from the list.'],
      [{ email: 'x@example.com', country: 'India' }, 400, 'Choose a country from the list.'],
      [{ email: 'x@example.com', language: 'XX' }, 400, 'Choose a language from the list.'],
      [
        { email: 'x@example.com', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        400,
        'A contact has at most 20 tags.',
      ],
      [{ email: 'x@example.com', tags: ['x'.repeat(41)] }, 400, 'A tag is at most 40 characters.'],
      [
        { email: 'x@example.com', phone: 'call me' },
        400,
        'A phone number has digits, spaces and + ( ) - . / only.',
      ],
    ];
    for (const [body, status, message] of bad) {
      const response = await as('Staff', 'POST', API, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(json(response).message).toContain(message);
    }
    const timeline = json<ContactTimeline>(await as('Staff', 'GET', `${API}/${ada.id}/history`));
    expect(timeline.result.map((entry) => entry.action)).toEqual(['created']);
  });

  it('edits with the version read: field changes on the timeline; a stale version is 409 naming who', async () => {
    const grace = await create({ firstName: 'Grace', email: 'grace@example.com', country: 'US' });
    const edited = await as('Admin', 'PUT', `${API}/${grace.id}`, {
      ...grace,
      lastName: 'Hopper',
      country: 'US',
      tags: ['navy'],
      version: 1,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json<Contact>(edited)).toMatchObject({ lastName: 'Hopper', version: 2, tags: ['navy'] });
    const stale = await as('Staff', 'PUT', `${API}/${grace.id}`, { ...grace, company: 'Navy', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toBe(
      'Demo Admin changed grace@example.com after you opened it. Reload the contact to see the change, then try again.'.replace(
        'Demo Admin',
        json<{ result: { actor: { name: string } }[] }>(
          await as('Staff', 'GET', `${API}/${grace.id}/history`),
        ).result[0]?.actor.name ?? '',
      ),
    );
    const history = json<ContactTimeline>(await as('Staff', 'GET', `${API}/${grace.id}/history`));
    expect(history.result[0]).toMatchObject({
      action: 'updated',
      changes: [
        { field: 'lastName', before: '', after: 'Hopper' },
        { field: 'tags', before: [], after: ['navy'] },
      ],
    });
    // SPEC §7's name for the same timeline.
    const alias = await as('Staff', 'GET', `/api/v1/helperQuery/method/getContactHistory/${grace.id}`);
    expect(json<ContactTimeline>(alias).count).toBe(history.count);
    // Taking another contact's address is a 409.
    const taken = await as('Staff', 'PUT', `${API}/${grace.id}`, {
      ...grace,
      email: 'ada@example.com',
      version: 2,
    });
    expect(taken.statusCode).toBe(409);
    expect((await as('Staff', 'GET', `${API}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await as('Staff', 'GET', `${API}/nope`)).statusCode).toBe(400);
  });

  it('unsubscribes by staff (suppression list too); resubscribing is refused with the reason', async () => {
    const alan = await create({ firstName: 'Alan', email: 'alan@example.com' });
    const done = await as('Staff', 'POST', `${API}/${alan.id}/unsubscribe`, { version: 1 });
    expect(done.statusCode, done.body).toBe(200);
    expect(json<Contact>(done)).toMatchObject({ subscription: 'unsubscribed', unsubscribeMethod: 'staff' });
    const [suppressed] = await t.database.db
      .select()
      .from(emailUnsubscribes)
      .where(eq(emailUnsubscribes.email, 'alan@example.com'));
    expect(suppressed).toBeDefined();
    const again = await as('Admin', 'POST', `${API}/${alan.id}/resubscribe`, { version: 2 });
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toContain('Only they can subscribe again');
    // A new contact on a suppressed address starts unsubscribed.
    await t.database.db.insert(emailUnsubscribes).values({ email: 'quiet@example.com' });
    expect((await create({ email: 'Quiet@example.com' })).subscription).toBe('unsubscribed');
  });

  it('lists: filters as one query tree, search, orders, paging; a bad tree is 400', async () => {
    await create({ firstName: 'Zed', email: 'zed@shop.in', country: 'IN', language: 'HI', tags: ['vip'] });
    await create({
      firstName: 'Yan',
      email: 'yan@shop.fr',
      country: 'FR',
      language: 'FR',
      companyTypeId: retail.id,
    });
    const all = await list({ limit: '200' });
    expect(all.countExact).toBe(true);
    expect(all.count).toBe(all.result.length);
    const india = await byQuery({
      combinator: 'and',
      children: [{ field: 'country', op: 'anyOf', value: ['IN'] }],
    });
    expect(india.result.map((c) => c.email)).toEqual(['zed@shop.in']);
    const vipOrRetail = await byQuery({
      combinator: 'or',
      children: [
        { field: 'tags', op: 'anyOf', value: ['vip'] },
        { field: 'companyType', op: 'anyOf', value: [retail.id] },
      ],
    });
    expect(vipOrRetail.result.map((c) => c.email).sort()).toEqual([
      'ada@example.com',
      'yan@shop.fr',
      'zed@shop.in',
    ]);
    const unsubscribed = await byQuery({
      combinator: 'and',
      children: [{ field: 'subscription', op: 'anyOf', value: ['unsubscribed'] }],
    });
    expect(unsubscribed.result.map((c) => c.email).sort()).toEqual(['alan@example.com', 'quiet@example.com']);
    expect((await list({ search: 'LOVELACE' })).result.map((c) => c.email)).toEqual(['ada@example.com']);
    const byEmail = await list({ sort: 'email', order: 'asc', limit: '2' });
    expect(byEmail.result.map((c) => c.email)).toEqual(['ada@example.com', 'alan@example.com']);
    expect(byEmail.count).toBe(all.count);
    const next = await list({ sort: 'email', order: 'asc', limit: '2', skip: '2' });
    expect(next.result[0]?.email).toBe('grace@example.com');
    expect((await list({ sort: 'name', order: 'asc' })).result.length).toBe(all.count);
    expect((await list({ sort: 'lastContactedAt' })).result.length).toBe(all.count);
    expect((await as('Staff', 'GET', `${API}?query=nonsense`)).statusCode).toBe(400);
    const unknownField = encodeQuery({ combinator: 'and', children: [{ field: 'salary', op: 'isEmpty' }] });
    expect(
      (await as('Staff', 'GET', `${API}?query=${encodeURIComponent(unknownField ?? '')}`)).statusCode,
    ).toBe(400);
    expect((await as('Staff', 'GET', `${API}?sort=age`)).statusCode).toBe(400);
    const fields = json<{ result: { key: string }[] }>(await as('Staff', 'GET', `${API}/queryFields`)).result;
    expect(fields.map((field) => field.key)).toContain('companyType');
  });

  it('links help chats to the contact of their address (made once, never overwritten); on the timeline', async () => {
    const [seller] = await t.database.db
      .execute(sql`SELECT id FROM sellers LIMIT 1`)
      .then((r) => (r as { rows: { id: string }[] }).rows ?? r);
    const sellerId = (seller as { id: string }).id;
    const first = await createChat(t.database.db, {
      sellerId,
      sessionId: 'contact-link-1',
      name: 'Chat Person',
      email: 'Chatter@Example.com',
      color: '#000',
    });
    const second = await createChat(t.database.db, {
      sellerId,
      sessionId: 'contact-link-2',
      name: 'Other Name',
      email: 'chatter@example.com',
      color: '#000',
    });
    expect(first.contactId).toBeTruthy();
    expect(second.contactId).toBe(first.contactId);
    const contact = json<Contact>(await as('Staff', 'GET', `${API}/${first.contactId}`));
    expect(contact).toMatchObject({ firstName: 'Chat', lastName: 'Person', source: 'help_chat' });
    const timeline = json<ContactTimeline>(await as('Staff', 'GET', `${API}/${contact.id}/history`));
    expect(timeline.count).toBe(3);
    expect(timeline.result.filter((entry) => entry.action === 'help_chat')).toHaveLength(2);
    // An existing contact keeps its fields: Ada stays Ada.
    await createChat(t.database.db, {
      sellerId,
      sessionId: 'contact-link-3',
      name: 'Someone Else',
      email: 'ada@example.com',
      color: '#000',
    });
    const [ada] = await t.database.db.select().from(contacts).where(eq(contacts.email, 'ada@example.com'));
    expect(ada).toMatchObject({ firstName: 'Ada', source: 'manual' });
    // An invalid address is stored, unlinked.
    const odd = await createChat(t.database.db, {
      sellerId,
      sessionId: 'contact-link-4',
      name: 'x',
      email: 'no-at-sign',
      color: '#000',
    });
    expect(odd.contactId).toBeNull();
  });

  it('imports leads: mapping, 10% bad rows, sheet duplicates, existing skipped, unsubscribed never resubscribed', async () => {
    const lines = ['E-mail Address,Full Name,Country,Language,Company Type,Tags,Opt-in'];
    for (let i = 1; i <= 90; i++) {
      const name = i === 90 ? 'Lead 90;=1+1;x' : `Lead ${i}`; // exported below, read with ';' too
      lines.push(`lead${i}@corp.example,${name},India,hi,retail,"a,b",yes`);
    }
    // The bad rows' names hold ';': read with ';' as the list separator (Excel in German, French…), an
    // unquoted cell in the error sheet would split into three, one of them a formula.
    for (let i = 1; i <= 10; i++) lines.push(`broken${i}@,Bad ${i};=1+1;x,Narnia,xx,retail,,maybe`);
    lines.push('LEAD1@corp.example,Dup Lead,FR,FR,,,no'); // the same address again: skipped
    lines.push('alan@example.com,Alan T,GB,EN,,,yes'); // unsubscribed contact: stays unsubscribed
    lines.push('ada@example.com,Ada L,GB,EN,,,yes'); // existing contact: skipped (policy skip)
    const response = await upload(lines.join('\n'));
    expect(response.statusCode, response.body).toBe(201);
    const { import: uploaded, targets } = json<LeadImportUpload>(response);
    expect(uploaded.awaitingMapping).toBe(true);
    expect(targets.find((target) => target.target === 'email')?.required).toBe(true);
    expect(uploaded.mapping.map((column) => column.target)).toEqual([
      'email',
      'fullName',
      'country',
      'language',
      'companyType',
      'tags',
      'consent',
    ]);
    const start = (body: Record<string, unknown>) =>
      as('Staff', 'POST', `${API}/leadImports/${uploaded.id}/start`, body);
    const noEmail = await start({
      mapping: uploaded.mapping.map((column) => ({
        ...column,
        target: column.target === 'email' ? null : column.target,
      })),
      duplicates: 'skip',
    });
    expect(noEmail.statusCode).toBe(400);
    expect(json(noEmail).message).toBe('Map a column to E-mail: every lead needs an address.');
    const started = await start({ mapping: uploaded.mapping, duplicates: 'skip', tags: ['expo-2026'] });
    expect(started.statusCode, started.body).toBe(202);
    expect(json<TaskAccepted>(started).taskStatus.taskName).toBe('Import leads from leads.csv');
    expect((await start({ mapping: uploaded.mapping, duplicates: 'skip' })).statusCode).toBe(409);
    await runJobs();

    const done = json<LeadImport>(await as('Staff', 'GET', `${API}/leadImports/${uploaded.id}`));
    expect(done).toMatchObject({ status: 'done', progress: 100, rowsRead: 103 });
    expect(done.counts).toEqual({ created: 90, updated: 0, skipped: 3, invalid: 10 });
    const invalid = json<LeadRows>(
      await as('Staff', 'GET', `${API}/leadImports/${uploaded.id}/rows?outcome=invalid&limit=5`),
    );
    expect(invalid.count).toBe(10);
    expect(invalid.result[0]?.errors.map((error) => error.cell)).toEqual(['A92', 'C92', 'D92', 'G92']);
    const skipped = json<LeadRows>(
      await as('Staff', 'GET', `${API}/leadImports/${uploaded.id}/rows?outcome=skipped`),
    );
    expect(skipped.result.map((row) => row.errors[0]?.code)).toEqual([
      'DUPLICATE_IN_SHEET',
      'ALREADY_A_CONTACT',
      'ALREADY_A_CONTACT',
    ]);
    const lead = (await list({ search: 'lead1@corp' })).result.find((c) => c.email === 'lead1@corp.example');
    expect(lead).toMatchObject({
      firstName: 'Lead',
      lastName: '1',
      country: 'IN',
      language: 'HI',
      companyTypeName: 'Retail',
      tags: ['expo-2026', 'a', 'b'],
      consent: true,
      source: 'lead_import',
      subscription: 'subscribed',
    });

    // Again with "update": existing contacts get the sheet's values, but never their subscription back.
    const again = json<LeadImportUpload>(await upload(lines.join('\n'), 'again.csv')).import;
    await as('Staff', 'POST', `${API}/leadImports/${again.id}/start`, {
      mapping: again.mapping,
      duplicates: 'update',
    });
    await runJobs();
    const second = json<LeadImport>(await as('Staff', 'GET', `${API}/leadImports/${again.id}`));
    expect(second.counts).toEqual({ created: 0, updated: 92, skipped: 1, invalid: 10 });
    const [alan] = await t.database.db.select().from(contacts).where(eq(contacts.email, 'alan@example.com'));
    expect(alan).toMatchObject({ subscription: 'unsubscribed', country: 'GB', consent: true });

    // The error sheet: the bad rows as they were, plus what is wrong.
    const sheet = await as('Staff', 'POST', `${API}/leadImports/${uploaded.id}/errorSheet`, {
      format: 'csv',
    });
    expect(sheet.statusCode, sheet.body).toBe(202);
    await runJobs();
    const file = exportFilePath(t.dataDir, json<TaskAccepted>(sheet).taskStatus.taskId, 'csv');
    const sheetText = await readFile(file, 'utf8');
    const rows = parseCsv(sheetText);
    expect(rows[0]?.at(-1)).toBe('Errors');
    expect(rows[1]?.[1]).toBe('Bad 1;=1+1;x');
    expect(formulaCells(sheetText)).toEqual([]);
    expect(rows).toHaveLength(11);
    expect(rows[1]?.[0]).toBe('broken1@');
    expect(rows[1]?.at(-1)).toContain('A92: “broken1@” is not a valid e-mail address.');
  });

  it('exports what the list selects, in its order, through the export job; a bad filter is 400', async () => {
    const tree: QueryTree = {
      combinator: 'and',
      children: [{ field: 'source', op: 'anyOf', value: ['lead_import', 'manual'] }],
    };
    const listed = await byQuery(tree, { sort: 'email', order: 'asc' });
    expect(listed.count).toBeGreaterThan(50);
    const started = await as('Staff', 'POST', `${API}/export`, {
      query: encodeQuery(tree),
      sort: 'email',
      order: 'asc',
      format: 'csv',
    });
    expect(started.statusCode, started.body).toBe(202);
    await runJobs();
    const file = exportFilePath(t.dataDir, json<TaskAccepted>(started).taskStatus.taskId, 'csv');
    // The CSV starts with a byte-order mark, so Excel reads it as UTF-8.
    const exported = await readFile(file, 'utf8');
    const [header, ...rows] = parseCsv(exported.replace(/^\uFEFF/, ''));
    expect(header?.slice(0, 3)).toEqual(['First name', 'Last name', 'E-mail']);
    expect(rows.find((row) => row[2] === 'lead90@corp.example')?.slice(0, 2)).toEqual(['Lead', '90;=1+1;x']);
    expect(formulaCells(exported)).toEqual([]);
    expect(header).toContain('Subscription');
    expect(rows.map((row) => row[2])).toEqual(listed.result.map((contact) => contact.email));
    const alan = rows.find((row) => row[2] === 'alan@example.com');
    expect(alan?.[header?.indexOf('Subscription') ?? -1]).toBe('Unsubscribed');
    expect(alan?.[header?.indexOf('Country') ?? -1]).toBe('United Kingdom');

    const bad = await as('Staff', 'POST', `${API}/export`, { query: '{"combinator":', format: 'csv' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).message).toBe('The filter is not a valid query.');
    expect((await as('Staff', 'POST', `${API}/export`, { format: 'pdf' })).statusCode).toBe(400);
  });

  it('refuses sheets that are no sheets, and mappings that do not fit', async () => {
    const body = multipart([
      { filename: 'x.csv', type: 'text/csv', content: Buffer.from([0, 1, 2, 3, 0, 0, 0]) },
    ]);
    const binary = await as('Staff', 'POST', `${API}/leadImports`, body.payload, body.headers);
    expect(binary.statusCode).toBe(415);
    const ok = json<LeadImportUpload>(await upload('email,name\na@b.co,A')).import;
    const short = await as('Staff', 'POST', `${API}/leadImports/${ok.id}/start`, {
      mapping: [ok.mapping[0]],
      duplicates: 'skip',
    });
    expect(short.statusCode).toBe(400);
    const twice = await as('Staff', 'POST', `${API}/leadImports/${ok.id}/start`, {
      mapping: ok.mapping.map((column) => ({ ...column, target: 'email' })),
      duplicates: 'skip',
    });
    expect(json(twice).message).toBe('Two columns are mapped to E-mail.');
    const discarded = await as('Staff', 'POST', `${API}/leadImports/${ok.id}/discard`);
    expect(discarded.statusCode).toBe(204);
    expect((await as('Staff', 'GET', `${API}/leadImports/${ok.id}`)).statusCode).toBe(404);
  });

  it('deletes with the version read; the chats stay, unlinked', async () => {
    const [row] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.email, 'chatter@example.com'));
    const id = row?.id as string;
    expect((await as('Staff', 'POST', `${API}/${id}/delete`, { version: row?.version })).statusCode).toBe(
      403,
    );
    expect((await as('Admin', 'POST', `${API}/${id}/delete`, { version: 99 })).statusCode).toBe(409);
    expect((await as('Admin', 'POST', `${API}/${id}/delete`, { version: row?.version })).statusCode).toBe(
      204,
    );
    expect((await as('Staff', 'GET', `${API}/${id}`)).statusCode).toBe(404);
    const chats = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM chat_sessions WHERE session_id LIKE 'contact-link-%'`,
    );
    expect(JSON.stringify(chats)).toContain('4');
  });
});
