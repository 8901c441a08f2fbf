// Customer queries end to end (issue 30): a customer asks on the public enquiry form, the seller (signed
// in at another computer) sees it arrive in the inbox without reloading, opens it and logs a call with a
// follow-up; a reply from a mail template goes to the customer (recorded in the thread, the mail in the
// outbox); the follow-up falls due (the sweep run through the e2e test hook) and the seller gets a toast;
// the customer answers through the mail's signed link and the answer lands in the thread.
import { expect, test } from '@playwright/test';
import { axeClean, liveUpdatesOn, mailContaining, signedIn } from './support';

const INBOX = '/queries/queries-request';

/** The local "YYYY-MM-DDTHH:mm" a datetime-local input takes, `hours` from now. */
function localInput(hours: number): string {
  const date = new Date(Date.now() + hours * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

test('a query from the enquiry form: live in the inbox, a call with a follow-up, a template reply, the reminder and the customer’s answer', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const seller = await signedIn(browser, 'seller@demo.local');
  // Signed in once the form has let go of the page: navigating earlier would abort the sign-in.
  await seller.page.waitForURL((url) => url.pathname !== '/signin');
  const customer = await (await browser.newContext()).newPage();
  try {
    await seller.page.goto(INBOX);
    await expect(seller.page.getByRole('heading', { level: 1, name: 'Queries' })).toBeVisible();
    await liveUpdatesOn(seller.page);
    await expect(
      seller.page.getByRole('table', { name: 'Queries' }).or(seller.page.getByText('No queries yet')),
    ).toBeVisible();

    // The customer asks.
    const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const subject = `Bulk tea for a café ${tag}`;
    await customer.goto('/enquiry/SEL-0001');
    await customer.getByLabel('Your name').fill('Farah <Customer>');
    await customer.getByLabel('Your e-mail').fill(`farah-${tag}@example.com`);
    await customer.getByRole('textbox', { name: /^Subject/ }).fill(subject);
    await customer.getByRole('textbox', { name: /^Message/ }).fill('Can you ship 40 kg a month to Pune?');
    await customer.getByRole('button', { name: 'Send question' }).click();
    const confirmation = await customer.getByRole('status').filter({ hasText: /Q-\d+/ }).textContent();
    const number = /Q-(\d+)/.exec(confirmation ?? '')?.[0] as string;
    expect(number).toBeTruthy();

    // It arrives in the seller's inbox without a reload.
    const row = seller.page.getByRole('row').filter({ hasText: subject });
    await expect(row).toBeVisible();
    await expect(row).toContainText(number);
    await expect(row).toContainText('Farah <Customer>');
    await axeClean(seller.page);

    // The seller opens it and logs a call with the next follow-up.
    await row.getByRole('link', { name: subject }).click();
    await expect(seller.page.getByRole('heading', { level: 1 })).toHaveText(`${number}: ${subject}`);
    await seller.page.getByRole('button', { name: 'Add connect data' }).click();
    const connect = seller.page.getByRole('dialog', { name: 'Add connect data' });
    await connect.getByLabel('What was said').fill('Rang back: 40 kg a month is fine.');
    await connect.getByLabel('Outcome').fill('Sends the delivery address');
    await connect.getByLabel('Next follow-up').fill(localInput(1));
    await connect.getByLabel('Follow-up note').fill('Ask for the address');
    await connect.getByRole('button', { name: 'Add to the thread' }).click();
    await expect(connect).toBeHidden();
    const sellerThread = seller.page.getByRole('list', { name: 'Thread' });
    await expect(sellerThread).toContainText('Sends the delivery address');
    await expect(sellerThread).toContainText('Rang back: 40 kg a month is fine.');
    // The customer's timeline across channels is on the page, for the seller too.
    await expect(seller.page.getByRole('heading', { name: 'Contact timeline' })).toBeVisible();
    await axeClean(seller.page);

    // The seller replies from a marketing template (no Bulk Mails permission needed to answer).
    await seller.page.getByRole('button', { name: 'Reply' }).click();
    const replyDialog = seller.page.getByRole('dialog', { name: 'Reply' });
    await replyDialog
      .getByRole('combobox', { name: /Template/ })
      .selectOption({ label: 'Monthly newsletter' });
    await replyDialog.getByLabel(/Personal note/).fill(`Thanks for asking (${tag})`);
    await axeClean(seller.page, '[role="dialog"]');
    await replyDialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(replyDialog).toBeHidden();
    await expect(seller.page.getByRole('list', { name: 'Thread' })).toContainText('Reply sent');
    await expect(seller.page.getByRole('list', { name: 'Thread' })).toContainText(
      `Thanks for asking (${tag})`,
    );

    // The mail is in the outbox with the signed answer link.
    const mail = await mailContaining(`Thanks for asking (${tag})`);
    const link = /http:\/\/[^\s"<>]+\/query-reply\?query=[\w-]+&token=[\w-]+/.exec(
      mail.replace(/&amp;/g, '&'),
    )?.[0];
    expect(link).toBeTruthy();

    // The follow-up falls due: the seller gets a toast.
    const due = await request.post('/api/v1/test-hooks/run-follow-ups', {
      data: { now: new Date(Date.now() + 2 * 3_600_000).toISOString() },
    });
    expect(due.ok()).toBe(true);
    await expect(seller.page.getByText(new RegExp(`Follow-up due: ${number} `))).toBeVisible();

    // The customer answers through the link.
    const linkUrl = new URL(link as string);
    await customer.goto(linkUrl.pathname + linkUrl.search);
    await expect(customer.getByRole('heading', { level: 1 })).toHaveText('Answer your query');
    await expect(customer.getByText(`${number}: ${subject}`)).toBeVisible();
    await axeClean(customer, 'body');
    await customer
      .getByRole('textbox', { name: /Your answer/ })
      .fill(`The address is MG Road 1, Pune (${tag})`);
    await customer.getByRole('button', { name: 'Send answer' }).click();
    await expect(customer.getByText('Thank you. Your answer has reached us.')).toBeVisible();

    // A forged link says so.
    await customer.goto(`/query-reply?query=${linkUrl.searchParams.get('query')}&token=forged-token-0000`);
    await expect(customer.getByRole('alert')).toContainText('This reply link is not valid');

    // The answer lands in the seller's open thread without a reload.
    await expect(seller.page.getByRole('list', { name: 'Thread' })).toContainText(
      `The address is MG Road 1, Pune (${tag})`,
    );
    await expect(seller.page.getByRole('list', { name: 'Thread' })).toContainText('Customer wrote');
  } finally {
    await seller.context.close();
    await customer.context().close();
  }
});
