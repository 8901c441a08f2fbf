// The demo's marketing (issue 17): a few thousand contacts over several countries, company types and
// languages (plus the help-chat customers and query senders, linked), templates in two languages, and
// three past campaigns with their recipients, a few bounces, responses and unsubscribes — so the
// campaigns dashboard shows real figures on first start — then one scheduled campaign and one draft.
// Past sends are written set-based, as the send job would have left them; chance is a hash of the
// contact's id, so the same demo comes out every time.
import { type SQL, sql } from 'drizzle-orm';
import { emptyRecipientCounts, type TemplateLanguage } from '../../contracts/marketing';
import type { QueryTree } from '../../contracts/query-tree';
import type { Tx } from '../db/client';
import { rowsOf } from '../db/rows';
import {
  auditEntries,
  campaigns,
  companyTypes,
  contacts,
  mailTemplates,
  mailTemplateVariants,
} from '../db/schema';
import { type Actor, auditInsertFrom, NO_ACTOR } from '../lib/audit';
import { compileContactQuery, contactSearchKey } from '../modules/contacts/audience';
import { plainTextOf, sanitizeTemplateHtml } from '../modules/mail-templates/render';
import { DEMO_COMPANY_TYPES, generateContact, insertContacts } from './contact-generator';
import { rngOf } from './product-generator';

export const DEMO_CONTACTS = 3000;
const DAY = 86_400_000;

interface DemoTemplate {
  name: string;
  description: string;
  defaultLanguage: TemplateLanguage;
  variants: { language: TemplateLanguage; subject: string; html: string }[];
}

const TEMPLATES: DemoTemplate[] = [
  {
    name: 'Monthly newsletter',
    description: 'What is new on the marketplace this month.',
    defaultLanguage: 'EN',
    variants: [
      {
        language: 'EN',
        subject: '{{firstName}}, what is new this month',
        html: '<h2>Hello {{firstName}},</h2><p>This month {{company}} can list products in <strong>three new categories</strong>, and shipping labels are now printed from the order page.</p><ul><li>New: home décor and kitchen</li><li>Faster payouts, every week</li></ul><p>Would you like a walkthrough?</p>',
      },
      {
        language: 'FR',
        subject: '{{firstName}}, les nouveautés du mois',
        html: '<h2>Bonjour {{firstName}},</h2><p>Ce mois-ci, {{company}} peut vendre dans <strong>trois nouvelles catégories</strong>, et les étiquettes d’expédition s’impriment depuis la commande.</p><ul><li>Nouveau : maison et cuisine</li><li>Paiements chaque semaine</li></ul><p>Souhaitez-vous une démonstration ?</p>',
      },
    ],
  },
  {
    name: 'Wholesale onboarding offer',
    description: 'Invitation for wholesalers and distributors to open a seller account.',
    defaultLanguage: 'EN',
    variants: [
      {
        language: 'EN',
        subject: 'Sell wholesale on our marketplace, {{firstName}}',
        html: '<p>Dear {{fullName}},</p><p>Businesses like {{company}} in {{country}} sell to thousands of retailers here. Open your seller account this month and pay <strong>no commission for 60 days</strong>.</p><p>Interested? Answer with one click below.</p>',
      },
      {
        language: 'HI',
        subject: '{{firstName}}, हमारे मार्केटप्लेस पर थोक बेचें',
        html: '<p>प्रिय {{fullName}},</p><p>{{company}} जैसे व्यवसाय यहाँ हज़ारों खुदरा विक्रेताओं को बेचते हैं। इस महीने विक्रेता खाता खोलें और <strong>60 दिनों तक कोई कमीशन नहीं</strong>।</p>',
      },
    ],
  },
  {
    name: 'Festive sale invitation',
    description: 'Join the festive sale with a featured listing.',
    defaultLanguage: 'EN',
    variants: [
      {
        language: 'EN',
        subject: 'Join the festive sale, {{firstName}}',
        html: '<p>Hi {{firstName}},</p><p>The festive sale starts in two weeks. Featured listings are free for sellers who join before Friday.</p>',
      },
      {
        language: 'DE',
        subject: 'Machen Sie beim Festtagsverkauf mit, {{firstName}}',
        html: '<p>Hallo {{firstName}},</p><p>Der Festtagsverkauf beginnt in zwei Wochen. Hervorgehobene Angebote sind kostenlos für alle, die sich vor Freitag anmelden.</p>',
      },
    ],
  },
];

interface PastCampaign {
  name: string;
  template: number;
  audience: QueryTree;
  daysAgo: number;
  responseOptions: string[];
  /** Per thousand mails sent. */
  responses: number;
  unsubscribes: number;
  bounces: number;
}

const cond = (field: string, op: string, value?: unknown) =>
  ({ field, op, ...(value === undefined ? {} : { value }) }) as QueryTree['children'][number];

const PAST: PastCampaign[] = [
  {
    name: 'September newsletter',
    template: 0,
    audience: { combinator: 'and', children: [cond('country', 'anyOf', ['IN', 'FR', 'CA', 'GB'])] },
    daysAgo: 70,
    responseOptions: ['Yes, show me', 'Not now'],
    responses: 90,
    unsubscribes: 12,
    bounces: 10,
  },
  {
    name: 'Wholesale onboarding — India',
    template: 1,
    audience: {
      combinator: 'and',
      children: [cond('country', 'anyOf', ['IN']), cond('consent', 'isTrue')],
    },
    daysAgo: 35,
    responseOptions: ['Interested', 'Call me', 'Not interested'],
    responses: 140,
    unsubscribes: 8,
    bounces: 6,
  },
  {
    name: 'October newsletter',
    template: 0,
    audience: {
      combinator: 'or',
      children: [cond('country', 'anyOf', ['US', 'GB', 'AU', 'FR']), cond('tags', 'anyOf', ['newsletter'])],
    },
    daysAgo: 9,
    responseOptions: ['Yes, show me', 'Not now'],
    responses: 70,
    unsubscribes: 10,
    bounces: 5,
  },
];

/** A per-mille draw from the contact id and a salt: deterministic, independent per purpose. */
const draw = (salt: string, table = 'ct') =>
  sql`(abs(hashtext(${sql.raw(table)}.id::text || ${salt})) % 1000)`;

export async function seedDemoMarketing(tx: Tx, actors: { admin: Actor; staff: Actor }): Promise<void> {
  const now = Date.now();
  const types = await tx
    .insert(companyTypes)
    .values(DEMO_COMPANY_TYPES.map((name, position) => ({ name, position })))
    .returning({ id: companyTypes.id });
  const typeIds = types.map((type) => type.id);
  const rng = rngOf(17);
  const generated = Array.from({ length: DEMO_CONTACTS }, (_, index) =>
    generateContact(rng, index + 1, typeIds, { now, days: 365, domain: 'leads.demo.local' }),
  );
  await insertContacts(tx, generated);
  await linkChatsAndQueries(tx);
  await tx.execute(
    auditInsertFrom({
      subjectType: 'contact',
      subjectId: sql`c.id`,
      actor: NO_ACTOR,
      action: 'created',
      note: sql`CASE c.source WHEN 'lead_import' THEN 'Imported from a lead sheet'
        WHEN 'help_chat' THEN 'From a help chat' WHEN 'customer_query' THEN 'From a customer query'
        ELSE 'Added by hand' END`,
      at: sql`c.created_at`,
      // A help chat's contact already has its entry (the chat made it).
      from: sql`contacts c WHERE NOT EXISTS (SELECT 1 FROM ${auditEntries} h
        WHERE h.subject_type = 'contact' AND h.subject_id = c.id AND h.action = 'created')`,
    }),
  );

  const templateIds: { id: string; languages: string[] }[] = [];
  for (const template of TEMPLATES) {
    const [row] = await tx
      .insert(mailTemplates)
      .values({
        name: template.name,
        description: template.description,
        defaultLanguage: template.defaultLanguage,
        createdBy: actors.staff.id,
        createdByName: actors.staff.name,
        createdAt: new Date(now - 120 * DAY),
      })
      .returning({ id: mailTemplates.id });
    const id = row!.id;
    await tx.insert(mailTemplateVariants).values(
      template.variants.map((variant) => {
        const html = sanitizeTemplateHtml(variant.html);
        return {
          templateId: id,
          language: variant.language,
          subject: variant.subject,
          html,
          text: plainTextOf(html),
          variables: [
            ...new Set([...`${variant.subject} ${html}`.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!)),
          ],
        };
      }),
    );
    templateIds.push({ id, languages: template.variants.map((variant) => variant.language) });
  }

  for (const past of PAST) {
    const template = templateIds[past.template]!;
    await seedPastCampaign(tx, past, template, actors.admin, now);
  }

  // What comes next: a scheduled campaign and a draft being prepared.
  await tx.insert(campaigns).values([
    {
      name: 'Festive sale — Germany and UAE',
      status: 'scheduled',
      templateId: templateIds[2]!.id,
      fallbackLanguage: 'EN',
      audience: { combinator: 'and', children: [cond('country', 'anyOf', ['DE', 'AE'])] },
      responseOptions: ['Count me in', 'Not this time'],
      scheduledAt: new Date(now + 3 * DAY),
      counts: emptyRecipientCounts(),
      createdBy: actors.admin.id,
      createdByName: actors.admin.name,
    },
    {
      name: 'November newsletter',
      status: 'draft',
      templateId: templateIds[0]!.id,
      fallbackLanguage: 'EN',
      audience: { combinator: 'and', children: [cond('tags', 'anyOf', ['newsletter'])] },
      counts: emptyRecipientCounts(),
      createdBy: actors.staff.id,
      createdByName: actors.staff.name,
    },
  ]);
}

/** The help chats' customers and the query senders become contacts, and their rows point at them. */
async function linkChatsAndQueries(tx: Tx): Promise<void> {
  const people = rowsOf<{ name: string; email: string; source: 'help_chat' | 'customer_query'; at: Date }>(
    await tx.execute(sql`
      SELECT DISTINCT ON (lower(trim(email))) name, lower(trim(email)) AS email, source, at FROM (
        SELECT name, email, 'help_chat' AS source, created_at AS at FROM chat_sessions WHERE email <> ''
        UNION ALL
        SELECT customer_name, email, 'customer_query', created_at FROM customer_queries WHERE email <> ''
      ) people ORDER BY lower(trim(email)), at`),
  );
  if (people.length) {
    await tx
      .insert(contacts)
      .values(
        people.map((person) => {
          const [firstName = '', ...rest] = person.name.trim().split(/\s+/);
          const lastName = rest.join(' ');
          return {
            firstName,
            lastName,
            email: person.email,
            source: person.source,
            country: 'IN',
            searchKey: contactSearchKey({ firstName, lastName, email: person.email, company: '' }),
            createdAt: new Date(person.at),
            updatedAt: new Date(person.at),
          };
        }),
      )
      .onConflictDoNothing();
  }
  await tx.execute(
    sql`UPDATE chat_sessions s SET contact_id = c.id FROM contacts c WHERE c.email = lower(trim(s.email))`,
  );
  await tx.execute(
    sql`UPDATE customer_queries q SET contact_id = c.id FROM contacts c WHERE c.email = lower(trim(q.email))`,
  );
}

async function seedPastCampaign(
  tx: Tx,
  past: PastCampaign,
  template: { id: string; languages: string[] },
  admin: Actor,
  now: number,
): Promise<void> {
  const startedAt = new Date(now - past.daysAgo * DAY);
  const [row] = await tx
    .insert(campaigns)
    .values({
      name: past.name,
      status: 'sending',
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: past.audience,
      responseOptions: past.responseOptions,
      ratePerSecond: 50,
      startedAt,
      counts: emptyRecipientCounts(),
      createdBy: admin.id,
      createdByName: admin.name,
      createdAt: new Date(startedAt.getTime() - DAY),
    })
    .returning({ id: campaigns.id });
  const id = row!.id;
  const where: SQL = compileContactQuery(past.audience).getSQL();
  const languages = `{${template.languages.join(',')}}`;
  // Mailed a few seconds apart in the order of the contacts' ids; the bounces failed with a 550.
  await tx.execute(sql`
    INSERT INTO campaign_recipients (campaign_id, contact_id, email, language, state, attempts, last_error,
      message_key, sent_at, updated_at)
    SELECT ${id}::uuid, contacts.id, contacts.email,
      CASE WHEN contacts.language = ANY(${languages}::text[]) THEN contacts.language ELSE 'EN' END,
      CASE WHEN ${draw(`bounce${id}`, 'contacts')} < ${past.bounces} THEN 'failed' ELSE 'sent' END, 1,
      CASE WHEN ${draw(`bounce${id}`, 'contacts')} < ${past.bounces} THEN '550 5.1.1 Mailbox unavailable' END,
      ${id}::text || ':' || contacts.id::text,
      ${startedAt.toISOString()}::timestamptz + (row_number() OVER (ORDER BY contacts.id)) * interval '50 milliseconds',
      ${startedAt.toISOString()}::timestamptz
    FROM contacts
    WHERE ${where} AND contacts.subscription = 'subscribed' AND contacts.created_at < ${startedAt.toISOString()}::timestamptz`);
  await tx.execute(sql`
    UPDATE contacts ct SET subscription = 'bounced', bounced_at = r.sent_at, bounce_reason = r.last_error
    FROM campaign_recipients r
    WHERE r.campaign_id = ${id}::uuid AND r.contact_id = ct.id AND r.state = 'failed'`);
  await tx.execute(sql`
    UPDATE campaign_recipients SET sent_at = NULL WHERE campaign_id = ${id}::uuid AND state = 'failed'`);
  await tx.execute(sql`
    UPDATE contacts ct SET last_contacted_at = r.sent_at
    FROM campaign_recipients r WHERE r.campaign_id = ${id}::uuid AND r.contact_id = ct.id AND r.state = 'sent'`);
  // Answers within two days of the mail, one of the offered answers each.
  await tx.execute(sql`
    INSERT INTO email_responses (email, campaign, response, comment, created_at, updated_at)
    SELECT ct.email, ${id}::text,
      (${`{${past.responseOptions.map((o) => `"${o}"`).join(',')}}`}::text[])[1 + ${draw('answer')} % ${past.responseOptions.length}],
      CASE WHEN ${draw('comment')} < 150 THEN 'Please send the details to my colleague as well.' END,
      r.sent_at + (${draw('when')} * interval '3 minutes'), r.sent_at + (${draw('when')} * interval '3 minutes')
    FROM campaign_recipients r JOIN contacts ct ON ct.id = r.contact_id
    WHERE r.campaign_id = ${id}::uuid AND r.state = 'sent' AND ${draw(`respond${id}`)} < ${past.responses}`);
  // Unsubscribes, through the mail's link or the mail client's one-click button.
  await tx.execute(sql`
    UPDATE contacts ct SET subscription = 'unsubscribed',
      unsubscribed_at = r.sent_at + (${draw('left')} * interval '2 minutes'),
      unsubscribe_method = CASE WHEN ${draw('how')} < 600 THEN 'one_click' ELSE 'link' END
    FROM campaign_recipients r
    WHERE r.campaign_id = ${id}::uuid AND r.contact_id = ct.id AND r.state = 'sent'
      AND ${draw(`leave${id}`)} < ${past.unsubscribes}`);
  await tx.execute(sql`
    INSERT INTO email_unsubscribes (email, unsubscribed_at)
    SELECT email, unsubscribed_at FROM contacts WHERE subscription = 'unsubscribed'
    ON CONFLICT (email) DO NOTHING`);
  // The contacts' timelines.
  await tx.execute(
    auditInsertFrom({
      subjectType: 'contact',
      subjectId: sql`x.contact_id`,
      actor: NO_ACTOR,
      action: sql`x.action`,
      note: sql`x.note`,
      related: { type: 'campaign', id: sql`x.campaign_id` },
      at: sql`x.at`,
      from: sql`(
    SELECT r.contact_id, CASE r.state WHEN 'sent' THEN 'mail_sent' ELSE 'mail_failed' END, ${id}::uuid,
      ${past.name}, coalesce(r.sent_at, r.updated_at)
    FROM campaign_recipients r WHERE r.campaign_id = ${id}::uuid
    UNION ALL
    SELECT ct.id, 'responded', ${id}::uuid, e.response, e.created_at
    FROM email_responses e JOIN contacts ct ON ct.email = e.email WHERE e.campaign = ${id}::text
    UNION ALL
    SELECT ct.id, 'unsubscribed', NULL, CASE ct.unsubscribe_method WHEN 'one_click'
      THEN 'Through the one-click unsubscribe of a mail client' ELSE 'Through the unsubscribe link in a mail' END,
      ct.unsubscribed_at
    FROM campaign_recipients r JOIN contacts ct ON ct.id = r.contact_id
    WHERE r.campaign_id = ${id}::uuid AND ct.subscription = 'unsubscribed' AND ct.unsubscribed_at >= r.sent_at
    UNION ALL
    SELECT ct.id, 'bounced', ${id}::uuid, ct.bounce_reason, ct.bounced_at
    FROM campaign_recipients r JOIN contacts ct ON ct.id = r.contact_id
    WHERE r.campaign_id = ${id}::uuid AND r.state = 'failed') AS x(contact_id, action, campaign_id, note, at)`,
    }),
  );
  await tx.execute(sql`
    UPDATE campaigns c SET status = 'sent', total = s.total, finished_at = s.finished,
      counts = jsonb_build_object('queued', 0, 'sending', 0, 'deferred', 0, 'skipped', 0,
        'sent', s.sent, 'failed', s.failed)
    FROM (SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'sent')::int AS sent,
            count(*) FILTER (WHERE state = 'failed')::int AS failed, max(sent_at) AS finished
          FROM campaign_recipients WHERE campaign_id = ${id}::uuid) s
    WHERE c.id = ${id}::uuid`);
}
