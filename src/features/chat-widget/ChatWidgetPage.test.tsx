import { ChakraProvider, createSystem, defaultConfig, type SystemContext } from '@chakra-ui/react';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { ChatMessage, WidgetChat } from '../../../contracts/help-chats';
import { findPublicPage, publicPagesByPrefix } from '../../app/public-pages';
import { publicSystem } from '../../ui/theme-public';
import ChatWidgetPage from './ChatWidgetPage';
import { storageKey } from './use-widget-chat';
import { CONNECT_VALUE } from './widget-api';

// Fakes only at the edges: `fetch` (a tiny in-memory server keyed by method and path) and EventSource.

const SELLER = 'SHOP-1';
const SESSION = '7f1c2b7e-4a7e-4c55-9a55-0b7a1f0d9c11';
const BASE = `/api/v1/queryBot/widget/${SELLER}`;

let nextId = 0;
const msg = (sender: 'User' | 'Bot', message: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `m${++nextId}`,
  sender,
  message,
  timestamp: new Date(2026, 0, 1, 0, 0, nextId).toISOString(),
  ...extra,
});

const welcome = () =>
  msg('Bot', 'Welcome to Shop One! How can we help?', {
    buttons: [
      { label: 'Track my order', value: 'track' },
      { label: 'Talk to a person', value: CONNECT_VALUE },
    ],
    questions: ['What are your opening hours?'],
  });

type Answer = { status: number; body: unknown };
type Handler = (body: unknown) => Answer | Promise<Answer>;
let routes: Map<string, Handler>;
let requests: { method: string; url: string; body: unknown }[];

function route(method: string, url: string, handler: Handler | Answer) {
  routes.set(`${method} ${url}`, typeof handler === 'function' ? handler : () => handler);
}

const fakeFetch = vi.fn(async (url: string, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  requests.push({ method, url, body });
  const handler = routes.get(`${method} ${url}`);
  const answer = await (handler
    ? handler(body)
    : { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } });
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json' },
  });
});

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  open() {
    this.readyState = 1;
    act(() => this.onopen?.(new Event('open')));
  }
  emit(data: unknown) {
    act(() => this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) })));
  }
  /** A dropped connection the browser retries by itself (readyState CONNECTING). */
  drop() {
    this.readyState = 0;
    act(() => this.onerror?.(new Event('error')));
  }
  close() {
    this.readyState = 2;
  }
  static latest() {
    const latest = FakeEventSource.instances.at(-1);
    if (!latest) throw new Error('no EventSource');
    return latest;
  }
}

function renderWidget(system: SystemContext = publicSystem) {
  const { hook, searchHook } = memoryLocation({ path: `/chat/${SELLER}` });
  return render(
    <ChakraProvider value={system}>
      <Router hook={hook} searchHook={searchHook}>
        <ChatWidgetPage deps={{ EventSourceImpl: FakeEventSource as unknown as typeof EventSource }} />
      </Router>
    </ChakraProvider>,
  );
}

const chatOf = (messages: ChatMessage[], withPerson = false): WidgetChat => ({
  sessionId: SESSION,
  sellerName: 'Shop One',
  withPerson,
  messages,
});

async function startChat(messages = [welcome()]) {
  route('POST', `${BASE}/start`, { status: 200, body: chatOf(messages) });
  renderWidget();
  await userEvent.type(await screen.findByLabelText(/your name/i), 'Ann');
  await userEvent.type(screen.getByLabelText(/your e-mail/i), 'ann@example.com');
  await userEvent.click(screen.getByRole('button', { name: 'Start chat' }));
  await screen.findByRole('log');
}

const bubbles = () => screen.queryAllByTestId('chat-message');
const sentBodies = () => requests.filter((r) => r.url === `${BASE}/messages`).map((r) => r.body);

beforeEach(() => {
  routes = new Map();
  requests = [];
  nextId = 0;
  FakeEventSource.instances = [];
  localStorage.clear();
  vi.stubGlobal('fetch', fakeFetch);
  route('GET', BASE, { status: 200, body: { sellerName: 'Shop One', available: true } });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the chat widget page', () => {
  it('is reached at /chat/{sellerCode}, as its own lazy page', () => {
    expect(findPublicPage('/chat/SHOP-1')).toBe(publicPagesByPrefix['/chat/']);
    expect(findPublicPage('/chat/')).toBeUndefined();
    expect(findPublicPage('/chatter')).toBeUndefined();
  });

  it('validates the start form, shows the server error, then starts and keeps the session', async () => {
    route('POST', `${BASE}/start`, {
      status: 429,
      body: { message: 'Too many chats started', code: 'RATE' },
    });
    renderWidget();
    expect(await screen.findByRole('heading', { name: 'Chat with Shop One' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start chat' }));
    expect(screen.getByText('Enter your name')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await userEvent.type(screen.getByLabelText(/your name/i), '  Ann ');
    await userEvent.type(screen.getByLabelText(/your e-mail/i), 'ANN@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Start chat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many chats started');
    expect(requests.at(-1)?.body).toEqual({ name: 'Ann', email: 'ann@example.com' });

    route('POST', `${BASE}/start`, { status: 200, body: chatOf([welcome()]) });
    await userEvent.click(screen.getByRole('button', { name: 'Start chat' }));
    expect(await screen.findByText('Welcome to Shop One! How can we help?')).toBeInTheDocument();
    expect(localStorage.getItem(storageKey(SELLER))).toBe(SESSION);
    expect(FakeEventSource.latest().url).toBe(`${BASE}/chats/${SESSION}/events`);
  });

  it('says when a person will answer outside office hours, and nothing inside them', async () => {
    const notice = 'Our team answers from Monday 09:00 (Asia/Kolkata). Leave a message and we will reply.';
    route('GET', BASE, {
      status: 200,
      body: { sellerName: 'Shop One', available: true, personAvailable: false, personNotice: notice },
    });
    renderWidget();
    expect(await screen.findByTestId('office-hours-notice')).toHaveTextContent(notice);
    cleanup();
    route('GET', BASE, {
      status: 200,
      body: { sellerName: 'Shop One', available: true, personAvailable: true, personNotice: null },
    });
    renderWidget();
    expect(await screen.findByRole('heading', { name: 'Chat with Shop One' })).toBeInTheDocument();
    expect(screen.queryByTestId('office-hours-notice')).toBeNull();
  });

  describe("the shop's look (Settings → Website)", () => {
    const shopWithLook = (colour: string, textColour: string) =>
      route('GET', BASE, {
        status: 200,
        body: {
          sellerName: 'Shop One',
          available: true,
          look: { colour, textColour, greeting: 'Chat with us', position: 'bottom-right' },
        },
      });

    it("fills the header, the customer's own bubbles and Send, and the header's texts follow", async () => {
      shopWithLook('#2b6cb0', '#fafafa');
      await startChat([welcome(), msg('User', 'Where is my order?')]);
      const fill = { backgroundColor: 'rgb(43, 108, 176)', color: 'rgb(250, 250, 250)' };
      expect(screen.getByRole('banner')).toHaveStyle(fill);
      expect(screen.getByText('Where is my order?')).toHaveStyle(fill);
      expect(screen.getByText('Welcome to Shop One! How can we help?').getAttribute('style')).toBeNull();
      expect(screen.getByRole('button', { name: 'Send' })).toHaveStyle(fill);
      // "Start a new chat" sits on the header's fill: it takes the header's text colour, not the brand's.
      expect(screen.getByRole('button', { name: 'Start a new chat' })).toHaveStyle({ color: fill.color });
    });

    it('uses black or white text when the chosen text colour would not read on the colour', async () => {
      shopWithLook('#ffff00', '#ffffff'); // white on yellow: 1.07:1
      renderWidget();
      const black = { backgroundColor: 'rgb(255, 255, 0)', color: 'rgb(0, 0, 0)' };
      expect(await screen.findByRole('button', { name: 'Start chat' })).toHaveStyle(black);
      expect(screen.getByRole('banner')).toHaveStyle(black);
    });

    it('keeps the app palette without a look, or with colours that are not #rrggbb', async () => {
      shopWithLook('red; background-image: url(https://evil.example/x)', '#ffffff');
      renderWidget();
      expect(await screen.findByRole('button', { name: 'Start chat' })).not.toHaveAttribute('style');
      expect(screen.getByRole('banner')).not.toHaveAttribute('style');
    });
  });

  it('renders every message as text: markup shows literally and is never interpreted', async () => {
    const evil = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2"><b>bold</b>';
    await startChat([
      welcome(),
      msg('User', evil),
      msg('Bot', evil, { manual: true, agentName: '<i>Eve</i>' }),
    ]);
    expect(screen.getAllByText(evil)).toHaveLength(2);
    expect(screen.getByText('<i>Eve</i>')).toBeInTheDocument();
    const log = screen.getByRole('log');
    expect(log.querySelector('script, img, b, i')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("shows a general reply's text once, with its actions (the bot stores that text as the message too)", async () => {
    const sorry = 'Sorry, I did not get that.';
    await startChat([
      welcome(),
      msg('Bot', sorry, {
        generalReply: { message: sorry, actions: [{ label: 'Show the menu', value: '__menu__' }] },
      }),
      msg('Bot', 'Here is what I found.', {
        generalReply: { message: 'Anything else?', actions: [] },
      }),
    ]);
    const [, general, withExtra] = bubbles();
    expect(general?.textContent).toBe(`Assistant${sorry}Show the menu`);
    expect(withExtra?.textContent).toBe('AssistantHere is what I found.\nAnything else?');
  });

  it('shows the customer on the right and the bot or person on the left, labelled', async () => {
    await startChat([
      welcome(),
      msg('User', 'Hi'),
      msg('Bot', 'Hello, I am Sam', { manual: true, agentName: 'Sam' }),
    ]);
    const [bot, customer, person] = bubbles();
    expect(bot).toHaveAttribute('data-sender', 'Bot');
    expect(within(bot!).getByText('Assistant')).toBeInTheDocument();
    expect(customer).toHaveAttribute('data-sender', 'User');
    expect(within(customer!).getByText('You')).toBeInTheDocument();
    expect(within(person!).getByText('Sam')).toBeInTheDocument();
    expect(getComputedStyle(customer!).alignSelf).toBe('flex-end');
    expect(getComputedStyle(bot!).alignSelf).toBe('flex-start');
  });

  it('chips send their value and show their label; asking for a person shows the waiting, then the person', async () => {
    await startChat();
    route('POST', `${BASE}/messages`, (body) => {
      const { message } = body as { message: string };
      return {
        status: 200,
        body: chatOf([
          // The server stores a tapped button as its label.
          msg('User', message === CONNECT_VALUE ? 'Talk to a person' : message),
          msg('Bot', message === CONNECT_VALUE ? 'A person will be with you shortly.' : 'We open at 9.'),
        ]),
      };
    });
    await userEvent.click(screen.getByRole('button', { name: 'What are your opening hours?' }));
    expect(await screen.findByText('We open at 9.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Talk to a person' }));
    expect(await screen.findByText('A person will be with you shortly.')).toBeInTheDocument();
    expect(sentBodies()).toEqual([
      { sessionId: SESSION, message: 'What are your opening hours?' },
      { sessionId: SESSION, message: CONNECT_VALUE },
    ]);
    // The stored message is the value; the customer sees the label.
    expect(screen.queryByText(CONNECT_VALUE)).toBeNull();
    const mine = bubbles().filter((b) => b.dataset.sender === 'User');
    expect(within(mine.at(-1)!).getByText('Talk to a person')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for a person…');

    FakeEventSource.latest().open();
    FakeEventSource.latest().emit({
      message: msg('Bot', 'Hi Ann, Sam here.', { manual: true, agentName: 'Sam' }),
      withPerson: true,
    });
    expect(await screen.findByText('Hi Ann, Sam here.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You are talking to a person');
  });

  it('appends a live message once, however often it arrives, and ignores malformed events', async () => {
    await startChat();
    const source = FakeEventSource.latest();
    source.open();
    const answer = msg('Bot', 'Your parcel left today.', { manual: true, agentName: 'Sam' });
    source.emit({ message: answer, withPerson: true });
    source.emit({ message: answer, withPerson: true });
    source.emit(answer); // a bare message is understood too
    source.emit({ nonsense: true });
    source.emit({ message: { id: 'x' }, withPerson: true });
    act(() => source.onmessage?.(new MessageEvent('message', { data: 'not json' })));
    expect(screen.getAllByText('Your parcel left today.')).toHaveLength(1);
    expect(bubbles()).toHaveLength(2);
  });

  it('shows a sent message once when the stream delivers the stored copy before the send answers', async () => {
    await startChat();
    const source = FakeEventSource.latest();
    source.open();
    const stored = msg('User', 'Where is my parcel?');
    const reply = msg('Bot', 'Let me look.');
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    route('POST', `${BASE}/messages`, async () => {
      await answered; // the bot is still thinking
      return { status: 200, body: chatOf([stored, reply]) };
    });
    await userEvent.type(screen.getByRole('textbox', { name: 'Your message' }), 'Where is my parcel?');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Where is my parcel?')).toBeInTheDocument();

    source.emit({ message: stored });
    expect(bubbles().map((b) => b.dataset.messageId)).toContain(stored.id);
    expect(screen.getAllByText('Where is my parcel?')).toHaveLength(1);

    act(() => answer());
    expect(await screen.findByText('Let me look.')).toBeInTheDocument();
    expect(screen.getAllByText('Where is my parcel?')).toHaveLength(1);
    expect(bubbles()).toHaveLength(3);
  });

  it('after a dropped stream reconnects, refetches the history and merges what was missed', async () => {
    const first = welcome();
    await startChat([first]);
    const source = FakeEventSource.latest();
    source.open();
    const missed = msg('Bot', 'Sorry for the wait!', { manual: true, agentName: 'Sam' });
    route('GET', `${BASE}/chats/${SESSION}`, { status: 200, body: chatOf([first, missed], true) });
    source.drop();
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting…');
    source.open();
    expect(await screen.findByText('Sorry for the wait!')).toBeInTheDocument();
    source.emit({ message: missed, withPerson: true });
    expect(screen.getAllByText('Sorry for the wait!')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('You are talking to a person');
  });

  it('opens a new stream when the server closed it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await startChat();
      const source = FakeEventSource.latest();
      source.readyState = 2;
      act(() => source.onerror?.(new Event('error')));
      await act(() => vi.advanceTimersByTimeAsync(1500));
      expect(FakeEventSource.instances).toHaveLength(2);
      expect(FakeEventSource.latest()).not.toBe(source);
    } finally {
      vi.useRealTimers();
    }
  });

  it('composer: counter and limit, Enter sends, Shift+Enter does not, errors inline with the text kept', async () => {
    await startChat();
    route('POST', `${BASE}/messages`, {
      status: 429,
      body: { message: 'You are sending messages too fast', code: 'RATE' },
    });
    const box = screen.getByRole('textbox', { name: 'Your message' });
    expect(box).toHaveAttribute('maxLength', '1000');
    await userEvent.type(box, 'Hello');
    expect(screen.getByText('5/1000')).toBeInTheDocument();
    await userEvent.type(box, '{Shift>}{Enter}{/Shift}');
    expect(sentBodies()).toEqual([]);

    await userEvent.type(box, 'there{Enter}');
    expect(await screen.findByText('You are sending messages too fast')).toBeInTheDocument();
    expect(sentBodies()).toEqual([{ sessionId: SESSION, message: 'Hello\nthere' }]);
    expect(box).toHaveValue('Hello\nthere');
    expect(bubbles()).toHaveLength(1); // the failed message is not left in the conversation

    route('POST', `${BASE}/messages`, (body) => ({
      status: 200,
      body: chatOf([msg('User', (body as { message: string }).message)]),
    }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/Hello\s+there/)).toBeInTheDocument();
    expect(box).toHaveValue('');
    expect(screen.queryByText('You are sending messages too fast')).toBeNull();

    await userEvent.type(box, '   {Enter}');
    expect(screen.getByText('Write a message first')).toBeInTheDocument();
    expect(sentBodies()).toHaveLength(2);
  });

  it('resumes the stored chat after a reload, and "Start a new chat" forgets it', async () => {
    localStorage.setItem(storageKey(SELLER), SESSION);
    route('GET', `${BASE}/chats/${SESSION}`, {
      status: 200,
      body: chatOf(
        [
          welcome(),
          msg('User', 'Where is my order?'),
          msg('Bot', 'On its way.', { manual: true, agentName: 'Sam' }),
        ],
        true,
      ),
    });
    renderWidget();
    expect(await screen.findByText('Where is my order?')).toBeInTheDocument();
    expect(screen.getByText('On its way.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('You are talking to a person');

    await userEvent.click(screen.getByRole('button', { name: 'Start a new chat' }));
    expect(screen.getByRole('button', { name: 'Start chat' })).toBeInTheDocument();
    expect(localStorage.getItem(storageKey(SELLER))).toBeNull();
  });

  it('a stored chat the server no longer knows gives the start form with a notice', async () => {
    localStorage.setItem(storageKey(SELLER), SESSION);
    renderWidget(); // GET chats/{SESSION} answers 404 (no route)
    expect(await screen.findByText('Your previous chat has ended. Start a new one.')).toBeInTheDocument();
    expect(localStorage.getItem(storageKey(SELLER))).toBeNull();
  });

  it('a shop that takes no new chats says so instead of offering the form', async () => {
    route('GET', BASE, { status: 200, body: { sellerName: 'Shop One', available: false } });
    renderWidget();
    expect(await screen.findByText('This chat is not available right now.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
  });

  it('the person handing the chat back to the bot ends "talking to a person"', async () => {
    await startChat();
    const source = FakeEventSource.latest();
    source.open();
    source.emit({ message: msg('Bot', 'Sam here.', { manual: true, agentName: 'Sam' }), withPerson: true });
    expect(screen.getByRole('status')).toHaveTextContent('You are talking to a person');
    source.emit({ message: msg('Bot', 'The assistant is back.'), withPerson: false });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('an unknown or inactive shop shows that the chat is not available', async () => {
    route('GET', BASE, { status: 404, body: { message: 'No such shop', code: 'NOT_FOUND' } });
    renderWidget();
    expect(await screen.findByText('This chat is not available.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
  });

  it('finds every recipe it draws in the light public system', async () => {
    const full = createSystem(defaultConfig);
    const missing = new Set<string>();
    const recording: SystemContext = {
      ...publicSystem,
      getRecipeFn: (key, fallback) => {
        if (full.isRecipe(key) && !publicSystem.isRecipe(key)) missing.add(key);
        return publicSystem.getRecipeFn(key, fallback);
      },
      getSlotRecipeFn: (key, fallback) => {
        if (full.isSlotRecipe(key) && !publicSystem.isSlotRecipe(key)) missing.add(key);
        return publicSystem.getSlotRecipeFn(key, fallback);
      },
    };
    route('POST', `${BASE}/start`, { status: 200, body: chatOf([welcome()]) });
    renderWidget(recording);
    await userEvent.click(await screen.findByRole('button', { name: 'Start chat' }));
    await userEvent.type(screen.getByLabelText(/your name/i), 'Ann');
    await userEvent.type(screen.getByLabelText(/your e-mail/i), 'ann@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Start chat' }));
    await screen.findByRole('log');
    expect([...missing]).toEqual([]);
  });
});
