// The marketing flow of issue 17 in Chromium, as an admin works it: imports a lead sheet (one bad row
// reported), filters the contacts (kept in the address), writes a template in two languages with
// {{variables}}, composes a campaign by country and company type (the audience count follows), mails
// a test to themself, sends, follows the progress and the task toast; then a recipient opens their
// mail from the outbox, unsubscribes through its link and answers through its response link, and the
// admin sees both on the campaign, on the dashboard and on the contact's page. Every name and address
// carries the run's id (the company type is the run's own, made through the API), so repeats never
// collide and the campaign mails only this run's leads.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { apiSession, liveUpdatesOn, signIn } from './support';

const dataDir = process.env.E2E_DATA_DIR ?? path.resolve('.tmp/e2e-manual');
const outbox = path.join(dataDir, 'outbox');

const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

const csv = (rows: string[][]) => Buffer.from(`${rows.map((row) => row.join(',')).join('\r\n')}\r\n`);

/** A mail file's text: headers as they are, the quoted-printable parts decoded. */
function decodeMail(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}$/.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i] as string, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The decoded mails in the outbox whose file name starts with `prefix` and that `match` accepts. */
async function mailsIn(prefix: string, match: (mail: string) => boolean): Promise<string[]> {
  const names = (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
  const mails = await Promise.all(
    names.map(async (name) => decodeMail(await readFile(path.join(outbox, name), 'utf8'))),
  );
  return mails.filter(match);
}

/** The link on the plain-text line `label: <link>` of a mail, as a path on the test server. */
function linkIn(mail: string, label: string): string {
  const link = new RegExp(`^${label}: (https?://\\S+)$`, 'm').exec(mail)?.[1];
  expect(link, `the ${label} link of the mail`).toBeTruthy();
  const url = new URL(link as string);
  return url.pathname + url.search;
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const condition = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

async function chooseField(page: Page, row: string, label: string) {
  const input = condition(page, row).getByRole('combobox', { name: 'Field' });
  await input.click();
  await input.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
}

async function chooseValue(page: Page, row: string, label: string) {
  await condition(page, row).getByRole('combobox', { name: 'Values' }).fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** One of the composer's quick pickers (Country, Company type…): types, picks, closes. */
async function pick(page: Page, picker: string, label: string) {
  const input = page.getByRole('combobox', { name: picker, exact: true });
  await input.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
  await page.keyboard.press('Escape');
}

test('leads are imported, filtered, mailed in their language, and their answer and unsubscribe are counted', async ({
  page,
  browser,
  request,
}) => {
  // The whole flow, a dozen screens, in one test: about 50 s on an idle machine.
  test.setTimeout(120_000);
  const run = runId();
  const key = run.toLowerCase();
  const companyType = `Importers ${run}`;
  const email = (name: string) => `${name}.${key}@leads.example`;
  const template = `Welcome ${run}`;
  const campaign = `Spring ${run}`;

  // The run's own company type, made as the admin would in "Company types", but through the API.
  const { token } = await apiSession(request, 'admin@demo.local');
  const created = await request.post('/api/v1/contacts/companyTypes', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: companyType },
  });
  expect(created.status()).toBe(201);

  // ── Import leads: three good rows over two countries and one without an address ──────────────────
  const sheet = csv([
    ['E-mail', 'First name', 'Last name', 'Company', 'Company type', 'Country', 'Language'],
    [email('amelie'), 'Amélie', `Lefort ${run}`, 'Lefort SARL', companyType, 'France', 'French'],
    [email('ben'), 'Ben', `Martin ${run}`, 'Martin & Fils', companyType, 'FR', 'EN'],
    [email('carl'), 'Carl', `Weber ${run}`, 'Weber GmbH', companyType, 'Germany', 'DE'],
    [`not-an-address-${key}`, 'Bad', `Row ${run}`, 'Nowhere Ltd', companyType, 'France', 'FR'],
  ]);
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await menu(page).getByRole('link', { name: 'Contacts', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  // The task toasts come over the live connection.
  await liveUpdatesOn(page);
  await page.getByRole('button', { name: 'Import leads' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import leads' });
  await importDialog
    .getByTestId('lead-sheet-input')
    .setInputFiles({ name: `leads-${run}.csv`, mimeType: 'text/csv', buffer: sheet });
  // The headers are recognised: each column fills its field.
  const mapping = importDialog.getByRole('table', { name: 'Column mapping' });
  await expect(mapping.getByLabel('What E-mail fills')).toHaveValue('email');
  await expect(mapping.getByLabel('What Company type fills')).toHaveValue('companyType');
  await expect(mapping.getByLabel('What Country fills')).toHaveValue('country');
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page).toHaveURL(/leadImport=/);
  const outcomes = importDialog.getByLabel('Counts by outcome');
  await expect(page.getByText(`Import leads from leads-${run}.csv Completed`).first()).toBeVisible();
  await expect(outcomes).toContainText('New: 3');
  await expect(outcomes).toContainText('With errors: 1');
  // The bad row is reported with its line and what is wrong.
  const badRow = importDialog.getByRole('table', { name: 'Imported rows' }).getByRole('row').nth(1);
  await expect(badRow).toContainText('5');
  await expect(badRow).toContainText(`not-an-address-${key}`);
  await expect(badRow).toContainText(/A5: .*e-mail/i);
  await importDialog.getByRole('button', { name: 'Close' }).click();
  await expect(importDialog).toBeHidden();

  // ── Filter the contacts: company type and country, in the address ─────────────────────────────────
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('button', { name: 'Add condition to query' }).click();
  await chooseField(page, 'Condition 1', 'Company type');
  await chooseValue(page, 'Condition 1', companyType);
  await expect(page.getByTestId('contact-total')).toHaveText('3 contacts');
  await page.getByRole('button', { name: 'Add condition to query' }).click();
  await chooseField(page, 'Condition 2', 'Country');
  await chooseValue(page, 'Condition 2', 'France');
  await expect(page.getByTestId('contact-total')).toHaveText('2 contacts');
  await expect(page).toHaveURL(/[?&]q=/);
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table).toContainText(email('amelie'));
  await expect(table).toContainText(email('ben'));
  await expect(table).not.toContainText(email('carl'));
  // A reload (or a shared link) opens the same filtered list.
  await page.reload();
  await expect(page.getByTestId('contact-total')).toHaveText('2 contacts');
  await expect(
    condition(page, 'Condition 1').getByRole('button', { name: `Remove ${companyType}` }),
  ).toBeVisible();
  await expect(condition(page, 'Condition 2').getByRole('button', { name: 'Remove France' })).toBeVisible();

  // ── A template in English and French ──────────────────────────────────────────────────────────────
  await menu(page).getByRole('link', { name: 'Bulk Mails', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Bulk Mails', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Templates' }).click();
  await page.getByRole('button', { name: 'New template' }).click();
  const editor = page.getByRole('form', { name: 'New template' });
  await editor.getByLabel('Name', { exact: true }).fill(template);
  await editor
    .getByRole('textbox', { name: 'Subject (English)' })
    .fill(`Spring offers for {{firstName}} ${run}`);
  const bodyEn = editor.getByRole('textbox', { name: 'Body (English)' });
  await bodyEn.click();
  await bodyEn.pressSequentially('Dear ');
  await editor.getByRole('button', { name: 'Insert variable', exact: true }).click();
  await page.getByRole('menuitem', { name: /First name/ }).click();
  await page.keyboard.insertText(', our spring prices are in.');
  await expect(bodyEn).toContainText('Dear {{firstName}}, our spring prices are in.');
  // The live preview fills the variables with the sample contact.
  await expect(editor.getByTestId('preview-subject')).toHaveText(`Spring offers for Asha ${run}`);
  await editor.getByRole('button', { name: 'Add language' }).click();
  await page.getByRole('menuitem', { name: 'French' }).click();
  await editor
    .getByRole('textbox', { name: 'Subject (French)' })
    .fill(`Offres de printemps pour {{firstName}} ${run}`);
  const bodyFr = editor.getByRole('textbox', { name: 'Body (French)' });
  await bodyFr.click();
  await page.keyboard.insertText('Bonjour {{firstName}}, nos prix de printemps sont arrivés.');
  await editor.getByRole('button', { name: 'Save template' }).click();
  await expect(editor).toBeHidden();
  const templateRow = page.getByTestId('template-row').filter({ hasText: template });
  await expect(templateRow).toContainText('EN');
  await expect(templateRow).toContainText('FR');

  // ── Compose by country and company type; the count follows ───────────────────────────────────────
  await page.getByRole('tab', { name: 'Campaigns' }).click();
  await liveUpdatesOn(page);
  await page.getByRole('button', { name: 'New campaign' }).click();
  const composer = page.getByRole('form', { name: 'Compose a campaign' });
  await composer.getByLabel('Campaign name').fill(campaign);
  await pick(page, 'Company type', companyType);
  await expect(composer.getByTestId('audience-mailable')).toHaveText('3');
  await pick(page, 'Country', 'France');
  await expect(composer.getByTestId('audience-mailable')).toHaveText('2');
  await composer.getByLabel('Template', { exact: true }).selectOption({ label: `${template} (EN, FR)` });
  await composer.getByPlaceholder('e.g. Interested').fill('Interested');
  await composer.getByRole('button', { name: 'Add answer' }).click();
  // The French mail words the answer in French; it counts as "Interested".
  await composer.getByLabel('“Interested” in French').fill('Intéressée');

  // A test mail to oneself: the sample contact's values, "[Test]" before the subject.
  await composer.getByRole('button', { name: 'Send test mail' }).click();
  await expect(page.getByText('A test mail was sent to admin@demo.local.')).toBeVisible();
  await expect(page).toHaveURL(/compose=[0-9a-f-]{36}/);
  const campaignId = /compose=([0-9a-f-]{36})/.exec(page.url())?.[1] as string;
  const prefix = `c${campaignId.replaceAll('-', '')}-`;
  await expect
    .poll(async () => (await mailsIn(prefix, (mail) => mail.includes('To: admin@demo.local'))).length)
    .toBe(1);
  const [testMail] = await mailsIn(prefix, (mail) => mail.includes('To: admin@demo.local'));
  expect(testMail).toContain(`Subject: [Test] Spring offers for Asha ${run}`);

  // Send: the confirmation counts the audience again.
  await composer.getByRole('button', { name: 'Send now…' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Send “${campaign}” now?` });
  await expect(confirm.getByTestId('send-count')).toContainText('2 contacts will be mailed now');
  await confirm.getByRole('button', { name: 'Send to 2 contacts' }).click();
  const detail = page.getByRole('dialog', { name: campaign });
  await expect(page.getByText('Bulk mail Completed').first()).toBeVisible();
  await expect(detail.getByTestId('progress-text')).toHaveText('2 of 2 · 100%');
  await expect(detail.getByTestId('campaign-status')).toHaveText('Sent');
  await expect(detail.getByTestId('figure-sent')).toContainText('2');

  // ── A recipient's mail, in their language, with their links ──────────────────────────────────────
  await expect
    .poll(async () => (await mailsIn(prefix, (mail) => !mail.includes('To: admin@demo.local'))).length)
    .toBe(2);
  const [english] = await mailsIn(prefix, (mail) => mail.includes(`To: ${email('ben')}`));
  expect(english).toContain(`Subject: Spring offers for Ben ${run}`);
  expect(english).toContain('Dear Ben, our spring prices are in.');
  expect(english).toContain('You receive this mail because you are in our marketing contacts.');
  const [mail] = await mailsIn(prefix, (mail) => mail.includes(`To: ${email('amelie')}`));
  expect(mail).toMatch(/^Subject: .*Offres de printemps pour/m);
  expect(mail).toContain('Bonjour Amélie, nos prix de printemps sont arrivés.');
  expect(mail).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  // The footer and the answer are French too.
  expect(mail).toContain('Vous recevez cet e-mail parce que vous faites partie de nos contacts marketing.');
  const unsubscribeLink = linkIn(mail as string, 'Se désabonner');
  const responseLink = linkIn(mail as string, 'Intéressée');
  expect(unsubscribeLink).toMatch(/^\/unsubscribe\?/);
  expect(responseLink).toMatch(/^\/responseCollection\?/);

  // The recipient is nobody signed in: a browser of their own.
  const reader = await browser.newContext();
  const inbox = await reader.newPage();
  await inbox.goto(unsubscribeLink);
  await expect(inbox.getByText(email('amelie'))).toBeVisible();
  await inbox.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(inbox.getByRole('status')).toHaveText(/You have been unsubscribed/);
  await inbox.goto(responseLink);
  // The campaign's answers to choose from, the clicked one chosen, worded as in the mail.
  await expect(inbox.getByRole('radio', { name: 'Intéressée' })).toBeChecked();
  await inbox.getByLabel('Comment (optional)').fill(`Call me ${run}`);
  await inbox.getByRole('button', { name: 'Send' }).click();
  await expect(inbox.getByRole('status')).toHaveText('Thank you, your response has been recorded.');
  await reader.close();

  // ── Both on the campaign… ─────────────────────────────────────────────────────────────────────────
  await detail.getByRole('button', { name: 'Refresh the campaign' }).click();
  await expect(detail.getByTestId('figure-responses')).toContainText('1');
  await expect(detail.getByTestId('figure-unsubscribes')).toContainText('1');
  await expect(
    detail.getByRole('table', { name: 'Responses by answer' }).getByRole('row', { name: 'Interested' }),
  ).toContainText('1');
  await detail.getByRole('tab', { name: /Responses/ }).click();
  const responses = detail.getByRole('table', { name: 'Responses', exact: true });
  await expect(responses).toContainText(email('amelie'));
  await expect(responses).toContainText('Interested');
  await expect(responses).toContainText(`Call me ${run}`);
  await detail.getByRole('tab', { name: /Unsubscribes/ }).click();
  const unsubscribes = detail.getByRole('table', { name: 'Unsubscribes', exact: true });
  await expect(unsubscribes).toContainText(email('amelie'));
  await expect(unsubscribes).toContainText('Link in the mail');

  // …and on the dashboard.
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(detail).toBeHidden();
  await menu(page).getByRole('link', { name: 'Dashboard', exact: true }).click();
  // Its row under "Response and unsubscribe rates": sent, failed, responses, unsubscribes.
  const rates = page.getByRole('row').filter({ hasText: campaign });
  await expect(rates.getByRole('cell')).toHaveText([campaign, '2', '0', '1 (50%)', '1 (50%)']);

  // The contact's page tells the same story: mailed, unsubscribed through the link, answered.
  await menu(page).getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(email('amelie'));
  await page.getByRole('searchbox', { name: 'Search contacts' }).press('Enter');
  await page
    .getByRole('table', { name: 'Contacts' })
    .getByRole('button', { name: `Amélie Lefort ${run}` })
    .click();
  const contact = page.getByRole('dialog', { name: `Amélie Lefort ${run}` });
  await expect(contact).toContainText('through the link in a mail');
  await expect(contact).toContainText('Mailed by a campaign');
  await expect(contact).toContainText(campaign);
  await expect(contact).toContainText('Answered a campaign');
  await expect(contact).toContainText(`Interested: Call me ${run}`);
});
