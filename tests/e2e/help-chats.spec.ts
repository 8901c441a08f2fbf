// Issue 5, end to end with two people at two computers: a storefront customer talks to the demo
// seller's bot through the public widget and asks for a person; the seller gets the connect-request
// toast, opens the chat from See Details and answers; the customer sees the answer live; a second
// customer's message bumps their chat to the front of the seller's list with a counter. And the staff's
// all-chats inbox is live too: a new chat appears without a refresh, they answer and hand it back.
// And the demo chats (issue 12) open on their real conversations, and what one reader opens stays
// unread for the others.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { signedIn } from './support';

const SHOP = '/chat/SEL-0001';

async function customer(browser: Browser, name: string, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(SHOP);
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Your e-mail').fill(email);
  await page.getByRole('button', { name: 'Start chat' }).click();
  await expect(messages(page)).toContainText(`Hi ${name}! Welcome to`);
  return { context, page };
}

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

test('a customer asks for a person, the seller answers from See Details, a second customer bumps their chat', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const seller = await signedIn(browser, 'seller@demo.local');
  await expect(seller.page).toHaveURL(/\/sellers\/general-dashboard$/);

  const first = await customer(browser, `Maya ${stamp}`, `maya.${stamp}@shoppers.test`);
  // A menu button: its question is asked, and the bot answers from the seller's FAQ.
  await first.page.getByRole('button', { name: 'How long does shipping take?' }).click();
  await expect(messages(first.page)).toContainText('Orders ship within 2 business days');
  // Text that looks like HTML stays text.
  await first.page.getByPlaceholder('Write a message…').fill('<b>bold?</b>');
  await first.page.getByRole('button', { name: 'Send' }).click();
  await expect(messages(first.page)).toContainText('<b>bold?</b>');
  // The bot's answer (it did not understand) comes with its own "Talk to a person": wait for it, so
  // the click is not on a button the arriving answer scrolls away.
  const notUnderstood = first.page
    .getByTestId('chat-message')
    .filter({ hasText: 'Sorry, I did not get that.' });
  await expect(notUnderstood).toHaveCount(1);

  await notUnderstood.getByRole('button', { name: 'Talk to a person' }).click();
  await expect(first.page.getByText('Waiting for a person…')).toBeVisible();

  // The seller, on another page, gets the connect-request toast and opens the chat from it.
  const toast = seller.page
    .getByRole('status')
    .filter({ hasText: `Connect Request Received From Maya ${stamp}.` });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'See Details' }).click();
  await expect(seller.page).toHaveURL(/\/sellers\/help-chats\?chatId=/);
  const conversation = seller.page
    .getByRole('log', { name: 'Messages' })
    .or(seller.page.locator('[aria-label="Messages"]'));
  await expect(conversation.first()).toContainText('How long does shipping take?');
  await expect(conversation.first()).toContainText('<b>bold?</b>');

  await seller.page.getByLabel('Your answer').fill('Hello Maya, this is the shop. How can I help?');
  await seller.page.getByLabel('Your answer').press('Enter');
  await expect(messages(first.page)).toContainText('Hello Maya, this is the shop. How can I help?');
  await expect(first.page.getByText('You are talking to a person')).toBeVisible();
  // The open chat is in the address: a reload shows it again.
  await seller.page.reload();
  await expect(conversation.first()).toContainText('Hello Maya, this is the shop. How can I help?');

  // A second customer writes while the seller has Maya's chat open: their chat comes first, counted.
  const second = await customer(browser, `Omar ${stamp}`, `omar.${stamp}@shoppers.test`);
  await second.page.getByPlaceholder('Write a message…').fill('Do you deliver to Pune?');
  await second.page.getByRole('button', { name: 'Send' }).click();
  await expect(messages(second.page)).toContainText('Do you deliver to Pune?');
  const list = seller.page.getByRole('list', { name: 'Chats' });
  const top = list.getByRole('listitem').first();
  await expect(top.getByTestId('chat-username')).toHaveText(`Omar ${stamp}`);
  await expect(top.getByTestId('chat-unread')).toBeVisible();
  await expect(
    seller.page.getByRole('status').filter({ hasText: `New Message Received From Omar ${stamp}.` }),
  ).toBeVisible();

  for (const person of [first, second, seller]) await person.context.close();
});

test("staff's all-chats inbox is live: the chat appears with its toast, staff answer, then hand it back to the bot", async ({
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const staff = await signedIn(browser, 'staff@demo.local');
  await expect(staff.page).not.toHaveURL(/\/signin/);
  // As a staff member gets there: the sidebar's Help Chats under Customers.
  await staff.page.getByRole('link', { name: 'Help Chats' }).click();
  await expect(staff.page).toHaveURL(/\/customers\/help-chats$/);
  const list = staff.page.getByRole('list', { name: 'Chats' });
  await expect(list).toBeVisible();

  const visitor = await customer(browser, `Lena ${stamp}`, `lena.${stamp}@shoppers.test`);
  await visitor.page.getByRole('button', { name: 'Talk to a person' }).last().click();
  await expect(visitor.page.getByText('Waiting for a person…')).toBeVisible();

  // No refresh: the broker brings the chat to the top of the list, with the connect-request toast.
  await expect(list.getByRole('listitem').first().getByTestId('chat-username')).toHaveText(`Lena ${stamp}`);
  const toast = staff.page
    .getByRole('status')
    .filter({ hasText: `Connect Request Received From Lena ${stamp}.` });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'See Details' }).click();
  await expect(staff.page).toHaveURL(/\/customers\/help-chats\?chatId=/);

  await staff.page.getByLabel('Your answer').fill('Hi Lena, staff here.');
  await staff.page.getByLabel('Your answer').press('Enter');
  await expect(messages(visitor.page)).toContainText('Hi Lena, staff here.');
  await expect(visitor.page.getByText('You are talking to a person')).toBeVisible();
  await expect(staff.page.getByText(/^Held by /)).toBeVisible();

  await staff.page.getByRole('button', { name: 'Hand back to the bot' }).click();
  await expect(messages(visitor.page)).toContainText('You are back with our assistant.');
  await expect(visitor.page.getByText('You are talking to a person')).toBeHidden();
  // The bot answers again.
  await visitor.page.getByPlaceholder('Write a message…').fill('How long does shipping take?');
  await visitor.page.getByRole('button', { name: 'Send' }).click();
  await expect(messages(visitor.page)).toContainText('Orders ship within 2 business days');

  for (const person of [visitor, staff]) await person.context.close();
});

/** The chat of `name` in the page's list, found with the search (other tests' chats come first). */
async function searchedChat(page: Page, name: string) {
  await page.getByLabel('Search chats').fill(name);
  const items = page.getByRole('list', { name: 'Chats' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items.first().getByTestId('chat-username')).toHaveText(name);
  return items.first();
}

test('the demo chats open on their conversations; what the admin opens stays unread for the seller, and back', async ({
  browser,
}) => {
  const admin = await signedIn(browser, 'admin@demo.local');
  await expect(admin.page).not.toHaveURL(/\/signin/);
  // Through the sidebar, as a person gets there (no reload while the sign-in settles).
  await admin.page.getByRole('link', { name: 'Help Chats' }).click();
  await expect(admin.page).toHaveURL(/\/customers\/help-chats$/);

  // Isha asked for a person: the preview is the bot's last message, the conversation is all there.
  const isha = await searchedChat(admin.page, 'Isha Verma');
  await expect(isha.getByTestId('chat-last-message')).toHaveText(/^Connecting you with a person/);
  await isha.getByRole('link').click();
  const conversation = admin.page.locator('[aria-label="Messages"]');
  const texts = conversation.getByTestId('chat-message-text');
  await expect(texts.first()).toHaveText('Hi Isha Verma! Welcome to Demo Seller Store. How can we help?');
  await expect(conversation).toContainText('Where is my order?');
  await expect(conversation).toContainText(
    'Your order status and tracking link are in the confirmation e-mail.',
  );
  await expect(conversation).toContainText('It has not moved for four days. Order A-1042.');
  await expect(conversation.getByTestId('chat-chip').first()).toHaveText('How long does shipping take?');
  await expect(texts.last()).toHaveText(/^Connecting you with a person/);
  await expect(isha.getByText('Connect request')).toBeHidden();
  await expect(isha.getByTestId('chat-unread')).toBeHidden();

  // The seller has not opened Isha's chat: their count and badge are still there.
  const seller = await signedIn(browser, 'seller@demo.local');
  await expect(seller.page).toHaveURL(/\/sellers\/general-dashboard$/);
  await seller.page.getByRole('link', { name: 'Help Chats' }).click();
  await expect(seller.page).toHaveURL(/\/sellers\/help-chats$/);
  const sellersIsha = await searchedChat(seller.page, 'Isha Verma');
  await expect(sellersIsha.getByText('Connect request')).toBeVisible();
  await expect(sellersIsha.getByTestId('chat-unread')).toHaveText('2');

  // The seller opens Rohan's chat, then Sana's (held by the seller: their own answers are in it).
  const rohan = await searchedChat(seller.page, 'Rohan Gupta');
  await rohan.getByRole('link').click();
  const sellersConversation = seller.page.locator('[aria-label="Messages"]');
  await expect(sellersConversation).toContainText('Is the khadi kurta available in blue?');
  await expect(rohan.getByTestId('chat-unread')).toBeHidden();
  await (await searchedChat(seller.page, 'Sana Khan')).getByRole('link').click();
  await expect(sellersConversation).toContainText('Hi Sana, Sunil from Demo Seller Store here.');
  await expect(seller.page.getByText('Held by Sunil Seller')).toBeVisible();

  // The admin read two of Rohan's three questions before; the seller's opening leaves that alone.
  await admin.page.reload();
  await expect((await searchedChat(admin.page, 'Rohan Gupta')).getByTestId('chat-unread')).toHaveText('1');

  for (const person of [admin, seller]) await person.context.close();
});
