import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatFaq } from '../../../contracts/help-chats';
import { configureHttp, http } from '../../services/http';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { DEFAULTS_NOTE, FaqDrawer } from './FaqDrawer';
import { parseKeywords } from './faq-api';

const FAQS = '/api/v1/queryBot/faqs';
const DEFAULTS: ChatFaq[] = [
  { id: 'default-1', question: 'What do you sell?', answer: 'Everything.', keywords: ['sell'], position: 0 },
];
const own = (n: number, overrides: Partial<ChatFaq> = {}): ChatFaq => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  question: `Question ${n}`,
  answer: `Answer ${n}`,
  keywords: [],
  position: n,
  ...overrides,
});

/** The FAQ endpoints over one seller's stored entries; the defaults while there are none. */
function faqServer(initial: ChatFaq[]) {
  const state = { entries: [...initial], refuseAdd: false };
  const reply = (request: RecordedRequest): FakeReply => {
    if (request.url === FAQS && request.method === 'GET') {
      return state.entries.length > 0
        ? { status: 200, data: { result: state.entries, usingDefaults: false } }
        : { status: 200, data: { result: DEFAULTS, usingDefaults: true } };
    }
    if (request.url === FAQS && request.method === 'POST') {
      if (state.refuseAdd) {
        return {
          status: 409,
          data: { message: 'A shop can have at most 100 FAQ entries.', code: 'TOO_MANY_FAQS' },
        };
      }
      const entry = own(state.entries.length + 10, request.body as Partial<ChatFaq>);
      state.entries.push(entry);
      return { status: 200, data: entry };
    }
    const id = request.url.slice(FAQS.length + 1);
    if (request.method === 'DELETE') {
      state.entries = state.entries.filter((entry) => entry.id !== id);
      return { status: 200, data: { message: 'FAQ entry removed' } };
    }
    return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
  };
  return { state, reply };
}

let server: ReturnType<typeof faqServer>;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  server = faqServer([]);
  const fake = createFakeAdapter((request) => server.reply(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderDrawer(canEdit = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <FaqDrawer open onClose={() => {}} canEdit={canEdit} />
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

const entryCard = (question: string) => screen.findByRole('listitem', { name: question });

describe('parseKeywords', () => {
  it('splits on commas and drops blanks', () => {
    expect(parseKeywords(' price, delivery time ,, ')).toEqual(['price', 'delivery time']);
    expect(parseKeywords('')).toEqual([]);
  });
});

describe('the bot answers drawer', () => {
  it("lists the seller's entries with their answers and keywords, as text", async () => {
    server = faqServer([
      own(1, { question: '<b>Open?</b>', answer: 'Nine to five', keywords: ['hours', 'open'] }),
      own(2),
    ]);
    renderDrawer();
    const card = await entryCard('<b>Open?</b>');
    expect(within(card).getByText('<b>Open?</b>')).toBeInTheDocument();
    expect(within(card).getByText('Nine to five')).toBeInTheDocument();
    expect(within(within(card).getByLabelText('Keywords')).getByText('hours')).toBeInTheDocument();
    expect(within(card).getByText('open')).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
    expect(await entryCard('Question 2')).toBeInTheDocument();
    expect(screen.queryByText(DEFAULTS_NOTE)).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Edit <b>Open?</b>' })).toBeInTheDocument();
  });

  it('says when the built-in defaults are in use, and offers no edit or delete for them', async () => {
    renderDrawer();
    const card = await entryCard('What do you sell?');
    expect(screen.getByText(DEFAULTS_NOTE)).toBeInTheDocument();
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add answer' })).toBeInTheDocument();
  });

  it('shows no edit controls without the edit permission', async () => {
    server = faqServer([own(1)]);
    renderDrawer(false);
    const card = await entryCard('Question 1');
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add answer' })).not.toBeInTheDocument();
  });

  it('adds an answer: sends the body with the keywords split, then lists it', async () => {
    const user = userEvent.setup();
    renderDrawer();
    await entryCard('What do you sell?');
    await user.click(screen.getByRole('button', { name: 'Add answer' }));
    const form = await screen.findByRole('dialog', { name: 'Add answer' });
    await user.type(within(form).getByRole('textbox', { name: /Question/ }), 'Do you ship abroad?');
    await user.type(within(form).getByRole('textbox', { name: /Answer/ }), 'Yes, everywhere.');
    await user.type(within(form).getByRole('textbox', { name: /Keywords/ }), 'Ship, abroad , ');
    await user.click(within(form).getByRole('button', { name: 'Add answer' }));

    const post = await waitFor(() => {
      const found = requests.find((request) => request.method === 'POST');
      expect(found).toBeDefined();
      return found;
    });
    expect(post?.body).toEqual({
      question: 'Do you ship abroad?',
      answer: 'Yes, everywhere.',
      keywords: ['ship', 'abroad'],
    });
    expect(await entryCard('Do you ship abroad?')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(DEFAULTS_NOTE)).not.toBeInTheDocument());
  });

  it('checks the fields before sending, and shows the server refusal in the form', async () => {
    const user = userEvent.setup();
    server.state.refuseAdd = true;
    renderDrawer();
    await entryCard('What do you sell?');
    await user.click(screen.getByRole('button', { name: 'Add answer' }));
    const form = await screen.findByRole('dialog', { name: 'Add answer' });
    await user.click(within(form).getByRole('button', { name: 'Add answer' }));
    expect(await within(form).findByText('Write the question')).toBeInTheDocument();
    expect(within(form).getByText('Write the answer')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.type(within(form).getByRole('textbox', { name: /Question/ }), 'Any discounts?');
    await user.type(within(form).getByRole('textbox', { name: /Answer/ }), 'Sometimes.');
    await user.click(within(form).getByRole('button', { name: 'Add answer' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'A shop can have at most 100 FAQ entries.',
    );
  });

  it('deletes an entry only after the confirmation', async () => {
    const user = userEvent.setup();
    server = faqServer([own(1), own(2)]);
    renderDrawer();
    const card = await entryCard('Question 1');
    await user.click(within(card).getByRole('button', { name: 'Delete Question 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this answer?' });
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);

    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(requests.filter((request) => request.method === 'DELETE').map((r) => r.url)).toEqual([
        `${FAQS}/${own(1).id}`,
      ]),
    );
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Question 1' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('listitem', { name: 'Question 2' })).toBeInTheDocument();
  });
});
