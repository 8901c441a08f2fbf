// The mail templates API (issue 17) on PGlite and PostgreSQL: saving checks variables, strips scripts
// and generates the plain text; a stale editor gets 409 naming who saved in between; a template in use
// by a campaign in flight cannot be deleted; the preview renders the sample contact or a real one; and
// who may do what (sellers: 403 everywhere).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MailTemplate,
  SavedTemplate,
  TemplateInput,
  TemplatePreview,
  TemplateSummary,
} from '../../../contracts/mail-templates';
import { emptyRecipientCounts } from '../../../contracts/marketing';
import { emptyQuery } from '../../../contracts/query-tree';
import { campaigns, contacts } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { twoLanguageTemplate } from './test-helpers';

const API = '/api/v1/mailTemplates';

describe.each(testBackends)('mail templates API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend, seed: true, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const create = async (input: TemplateInput) => {
    const response = await as('Staff', 'POST', API, input);
    expect(response.statusCode, response.body).toBe(201);
    return json<SavedTemplate>(response);
  };

  it('creates a two-language template: sanitised, plain text generated, variables listed', async () => {
    const saved = await create(twoLanguageTemplate('Welcome'));
    // Nothing was stripped (that some demo contacts have no company is fallbacks.test.ts's subject).
    expect(saved.warnings.filter((warning) => !warning.includes('subscribed contacts'))).toEqual([]);
    expect(saved.version).toBe(1);
    const en = saved.variants.find((variant) => variant.language === 'EN');
    expect(en).toMatchObject({
      subject: 'Hello {{firstName}}',
      text: 'Dear {{fullName}} of {{company}},',
      variables: ['firstName', 'fullName', 'company'],
    });
    const read = json<MailTemplate>(await as('Admin', 'GET', `${API}/${saved.id}`));
    expect(read.variants.map((variant) => variant.language)).toEqual(['EN', 'FR']);
    expect(read.createdByName).toBe(saved.createdByName);
  });

  it('keeps variables in headings as written in the plain-text part, so they are filled', async () => {
    const saved = await create({
      name: 'Heading',
      description: '',
      defaultLanguage: 'EN',
      variants: [{ language: 'EN', subject: 'Hi', html: '<h2>Hello {{firstName}},</h2><p>News.</p>' }],
    });
    expect(saved.variants[0]?.text).toBe('Hello {{firstName}},\n\nNews.');
  });

  it('strips a script from the body and says so', async () => {
    const saved = await create({
      ...twoLanguageTemplate('With script'),
      variants: [
        {
          language: 'EN',
          subject: 'Hi',
          html: '<p onclick="steal()">Hi<script>alert(1)</script> <a href="javascript:x()">x</a></p>',
        },
      ],
    });
    const html = saved.variants[0]?.html ?? '';
    expect(html).not.toMatch(/script|onclick|javascript/i);
    expect(html).toContain('Hi');
    expect(saved.warnings).toContain('A script was removed from the English body.');
  });

  it('refuses an unknown variable, naming it and where it is, and stores nothing', async () => {
    const input = twoLanguageTemplate('Unknown variable');
    input.variants[1] = { language: 'FR', subject: 'Bonjour {{prenom}}', html: '<p>x</p>' };
    const response = await as('Staff', 'POST', API, input);
    expect(response.statusCode).toBe(400);
    expect(json(response).message).toBe(
      'Unknown variable {{prenom}} in the French subject. Use one of the listed variables.',
    );
    input.variants[1] = { language: 'FR', subject: 'Bonjour', html: '<p>{{ shoeSize }}</p>' };
    const body = await as('Staff', 'POST', API, input);
    expect(json(body).message).toMatch(/^Unknown variable \{\{shoeSize\}\} in the French body/);
    const list = json<{ result: TemplateSummary[] }>(
      await as('Staff', 'GET', `${API}?query=${encodeURIComponent('unknown variable')}`),
    );
    expect(list.result).toEqual([]);
  });

  it('refuses bad input with a clear message', async () => {
    const base = twoLanguageTemplate('Bad');
    const cases: [unknown, RegExp][] = [
      [{ ...base, name: '  ' }, /Name the template/],
      [{ ...base, variants: [] }, /at least one language/],
      [{ ...base, defaultLanguage: 'DE' }, /German.*needs a version/],
      [{ ...base, variants: [base.variants[0], base.variants[0]] }, /English is there twice/],
      [{ ...base, variants: [{ language: 'EN', subject: '', html: '<p>x</p>' }] }, /Write a subject/],
      [{ ...base, variants: [{ language: 'EN', subject: 'x', html: '<p> </p>' }] }, /Write the English body/],
      [{ ...base, variants: [{ language: 'XX', subject: 'x', html: '<p>x</p>' }] }, /./],
    ];
    for (const [payload, message] of cases) {
      const response = await as('Staff', 'POST', API, payload as object);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(json(response).message).toMatch(message);
    }
    expect((await as('Staff', 'GET', `${API}/not-a-uuid`)).statusCode).toBe(400);
    expect((await as('Staff', 'GET', `${API}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
  });

  it('refuses a duplicate name with 409', async () => {
    await create(twoLanguageTemplate('Unique name'));
    const response = await as('Staff', 'POST', API, twoLanguageTemplate('UNIQUE NAME'));
    expect(response.statusCode).toBe(409);
    expect(json(response).message).toMatch(/already exists/);
  });

  it('updates at the version read; a stale editor gets 409 naming who saved in between', async () => {
    const saved = await create(twoLanguageTemplate('Versioned'));
    const input = { ...twoLanguageTemplate('Versioned v2'), version: saved.version };
    const first = await as('Admin', 'PUT', `${API}/${saved.id}`, input);
    expect(first.statusCode, first.body).toBe(200);
    expect(json<SavedTemplate>(first)).toMatchObject({ name: 'Versioned v2', version: 2 });
    const stale = await as('Staff', 'PUT', `${API}/${saved.id}`, { ...input, name: 'Mine' });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toMatch(/^Demo Admin|^.+ changed “Versioned v2” after you opened it/);
    expect(json<MailTemplate>(await as('Staff', 'GET', `${API}/${saved.id}`)).name).toBe('Versioned v2');
  });

  it('lists by name with languages and campaign counts, paged, searched', async () => {
    const saved = await create(twoLanguageTemplate('Listed template'));
    await t.database.db.insert(campaigns).values({
      name: 'Uses it',
      templateId: saved.id,
      audience: emptyQuery(),
      counts: emptyRecipientCounts(),
    });
    const page = json<{ result: TemplateSummary[]; count: number }>(
      await as('Staff', 'GET', `${API}?query=listed&limit=5`),
    );
    expect(page.count).toBe(1);
    expect(page.result[0]).toMatchObject({ name: 'Listed template', languages: ['EN', 'FR'], campaigns: 1 });
    const all = json<{ result: TemplateSummary[]; count: number }>(
      await as('Staff', 'GET', `${API}?limit=2`),
    );
    expect(all.result).toHaveLength(2);
    expect(all.count).toBeGreaterThan(2);
  });

  it('refuses to delete a template a campaign in flight uses; deletes it otherwise', async () => {
    const saved = await create(twoLanguageTemplate('In flight'));
    const [campaign] = await t.database.db
      .insert(campaigns)
      .values({
        name: 'Spring sale',
        status: 'sending',
        templateId: saved.id,
        audience: emptyQuery(),
        counts: emptyRecipientCounts(),
      })
      .returning();
    const refused = await as('Admin', 'DELETE', `${API}/${saved.id}`);
    expect(refused.statusCode).toBe(409);
    expect(json(refused).message).toBe(
      '“In flight” cannot be deleted while campaigns use it: “Spring sale” (sending). Let them finish or delete them first.',
    );
    await t.database.db.execute(sql`UPDATE campaigns SET status = 'sent' WHERE id = ${campaign?.id}`);
    const deleted = await as('Admin', 'DELETE', `${API}/${saved.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await as('Admin', 'GET', `${API}/${saved.id}`)).statusCode).toBe(404);
    expect((await as('Admin', 'DELETE', `${API}/${saved.id}`)).statusCode).toBe(404);
  });

  it('previews with the sample contact, or a real one, escaping values and warning', async () => {
    const sample = json<TemplatePreview>(
      await as('Staff', 'POST', `${API}/preview`, {
        language: 'EN',
        subject: 'Hi {{firstName}} {{nope}}',
        html: '<p>{{fullName}}, {{country}}</p><script>x</script>',
      }),
    );
    expect(sample.subject).toBe('Hi Asha {{nope}}');
    expect(sample.html).toBe('<p>Asha Rao, India</p>');
    expect(sample.text).toBe('Asha Rao, India');
    expect(sample.warnings.filter((warning) => !warning.includes('subscribed contacts'))).toEqual([
      'Unknown variable {{nope}} in the English subject. Use one of the listed variables.',
      'A script was removed from the English body.',
    ]);
    const [contact] = await t.database.db
      .insert(contacts)
      .values({
        firstName: '<b>Ann</b>',
        lastName: 'Lee',
        email: 'ann.preview@example.com',
        source: 'manual',
        country: 'FR',
      })
      .returning();
    const real = json<TemplatePreview>(
      await as('Staff', 'POST', `${API}/preview`, {
        language: 'EN',
        subject: 'Hi {{firstName}}',
        html: '<p>{{firstName}} in {{country}}</p>',
        contactId: contact?.id,
      }),
    );
    expect(real.html).toBe('<p>&lt;b&gt;Ann&lt;/b&gt; in France</p>');
    const missing = await as('Staff', 'POST', `${API}/preview`, {
      language: 'EN',
      subject: 'x',
      html: 'x',
      contactId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('sellers get 403 on every route; staff cannot delete', async () => {
    const saved = await create(twoLanguageTemplate('Permissions'));
    const routes: [Parameters<ApiAs>[1], string, object?][] = [
      ['GET', API],
      ['GET', `${API}/${saved.id}`],
      ['POST', API, twoLanguageTemplate('Seller made')],
      ['PUT', `${API}/${saved.id}`, { ...twoLanguageTemplate('Seller made'), version: 1 }],
      ['DELETE', `${API}/${saved.id}`],
      ['POST', `${API}/preview`, { language: 'EN', subject: 'x', html: 'x' }],
    ];
    for (const who of ['Seller', 'Blocked'] as const) {
      for (const [method, url, payload] of routes) {
        const response = await as(who, method, url, payload);
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(403);
      }
    }
    expect((await as('Staff', 'DELETE', `${API}/${saved.id}`)).statusCode).toBe(403);
    expect((await as('Admin', 'DELETE', `${API}/${saved.id}`)).statusCode).toBe(200);
  });
});
