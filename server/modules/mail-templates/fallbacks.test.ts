// `{{name|fallback}}` (issue 26): a contact without a value reads the fallback instead of a hole; the
// fallback is user text, escaped like a value; a malformed one is refused on save; and the editor is
// told how many subscribed contacts lack a variable used without a fallback.

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fallbackProblem,
  sampleTemplateValues,
  type TemplatePreview,
} from '../../../contracts/mail-templates';
import { rowsOf } from '../../db/rows';
import { contacts } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { plainTextOf, renderTemplate, sanitizeTemplateHtml } from './render';

const API = '/api/v1/mailTemplates';

/** A stored version (sanitised, its text generated) rendered for `values`. */
function render(html: string, subject: string, values: Partial<typeof sampleTemplateValues>) {
  const stored = sanitizeTemplateHtml(html);
  return renderTemplate(
    { subject, html: stored, text: plainTextOf(stored) },
    { ...sampleTemplateValues, ...values },
  );
}

describe('rendering fallbacks', () => {
  it('writes the fallback when the value is empty, the value otherwise', () => {
    const html = '<p>This month {{company|your company}} can list products.</p>';
    expect(render(html, 'Hi {{ firstName | there }}', { company: '', firstName: '' })).toEqual({
      subject: 'Hi there',
      html: '<p>This month your company can list products.</p>',
      text: 'This month your company can list products.',
    });
    expect(render(html, 'Hi {{firstName|there}}', { company: 'Rao Textiles' }).html).toBe(
      '<p>This month Rao Textiles can list products.</p>',
    );
    // Without a fallback an empty value stays empty, as before.
    expect(render('<p>A {{company}} B</p>', 's', { company: '' }).html).toBe('<p>A  B</p>');
  });

  it('escapes the fallback once in HTML, keeps it as text in the plain part, one line in the subject', () => {
    const mail = render('<p>Dear {{company|R&amp;D &lt;team&gt; "x"}}</p>', 'To {{company|R&D}}', {
      company: '',
    });
    expect(mail.html).toBe('<p>Dear R&amp;D &lt;team&gt; &quot;x&quot;</p>');
    expect(mail.text).toBe('Dear R&D <team> "x"');
    expect(mail.subject).toBe('To R&D');
    // A value with markup is text too, whatever the fallback.
    expect(render('<p>{{company|x}}</p>', 's', { company: '<b>Co</b>' }).html).toBe(
      '<p>&lt;b&gt;Co&lt;/b&gt;</p>',
    );
  });

  it('a long fallback wrapped in the plain-text part is still one fallback', () => {
    const long = 'our very dear and long-standing partner company from far away';
    const mail = render(`<p>${'word '.repeat(18)}{{company|${long}}}</p>`, 's', { company: '' });
    expect(mail.text.replace(/\s+/g, ' ')).toContain(long);
    expect(mail.text).not.toContain('{{');
  });

  it('names what is wrong with a fallback', () => {
    expect(fallbackProblem('Hi {{company|}}')).toBe(
      'Write what {{company|…}} says when a contact has no value, or remove the |.',
    );
    expect(fallbackProblem('Hi {{company|a|b}}')).toBe(
      'The fallback of {{company}} may not contain braces or a second |.',
    );
    expect(fallbackProblem(`{{company|${'x'.repeat(101)}}}`)).toBe(
      'The fallback of {{company}} must be at most 100 characters.',
    );
    expect(fallbackProblem('{{company|your company}} and {{firstName}}')).toBeNull();
  });
});

describe.each(testBackends)('template fallbacks API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  /** The warning once the four contacts below are added to whatever the test database holds. */
  let expected: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [before] = rowsOf<{ total: number; lacking: number }>(
      await t.database.db.execute(sql`SELECT count(*)::int AS total,
        count(*) FILTER (WHERE trim(company) = '')::int AS lacking
        FROM contacts WHERE subscription = 'subscribed'`),
    );
    const n = (value: number) => value.toLocaleString('en');
    expected = `${n((before?.lacking ?? 0) + 2)} of ${n((before?.total ?? 0) + 3)} subscribed contacts have no company: {{company}} is empty in their mail. Give it a fallback, e.g. {{company|your company}}.`;
    await t.database.db.insert(contacts).values([
      { firstName: 'Ann', lastName: 'Lee', email: 'ann.fb@example.com', company: 'Lee Co', source: 'manual' },
      { firstName: 'Bo', lastName: 'Kim', email: 'bo.fb@example.com', company: '', source: 'manual' },
      { firstName: 'Cy', lastName: 'Ng', email: 'cy.fb@example.com', company: '', source: 'manual' },
      // Not mailable: not counted.
      {
        firstName: 'Di',
        email: 'di.fb@example.com',
        company: '',
        source: 'manual',
        subscription: 'unsubscribed',
      },
    ]);
  });
  afterAll(() => t.close());

  const version = (html: string, subject = 'Hello') => ({ language: 'EN', subject, html });

  it('refuses a malformed fallback on save, naming it and where it is, and stores nothing', async () => {
    for (const [html, message] of [
      [
        '<p>{{company|}}</p>',
        'Write what {{company|…}} says when a contact has no value, or remove the |. (the English body)',
      ],
      [
        '<p>{{company|a|b}}</p>',
        'The fallback of {{company}} may not contain braces or a second |. (the English body)',
      ],
      [
        '<p>{{company|your <strong>great</strong> company}}</p>',
        'Format the whole {{company|…}} in the English body, not part of its fallback.',
      ],
    ] as const) {
      const response = await as('Admin', 'POST', API, {
        name: `Broken ${html}`,
        defaultLanguage: 'EN',
        variants: [version(html)],
      });
      expect(response.statusCode, html).toBe(400);
      expect(json(response)).toEqual({ message, code: 'BAD_FALLBACK' });
    }
    const list = json<{ count: number }>(await as('Admin', 'GET', `${API}?query=Broken`));
    expect(list.count).toBe(0);
  });

  it('warns how many subscribed contacts lack a variable used without a fallback, and not once it has one', async () => {
    const preview = json<TemplatePreview>(
      await as(
        'Staff',
        'POST',
        `${API}/preview`,
        version('<p>This month {{company}} can list products.</p>'),
      ),
    );
    expect(preview.warnings).toEqual([expected]);
    const withFallback = json<TemplatePreview>(
      await as(
        'Staff',
        'POST',
        `${API}/preview`,
        version('<p>This month {{company|your company}} can list.</p>'),
      ),
    );
    expect(withFallback.warnings).toEqual([]);
    // Saving says it too, and keeps the template.
    const saved = await as('Admin', 'POST', API, {
      name: 'Holes',
      defaultLanguage: 'EN',
      variants: [version('<p>{{firstName}} at {{company}}</p>', 'Hi {{firstName|there}}')],
    });
    expect(saved.statusCode).toBe(201);
    expect(json<{ warnings: string[] }>(saved).warnings).toEqual([expected]);
  });
});
