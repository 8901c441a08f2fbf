// Model-based test of the help-chat statechart (SPEC §4 "Chat", ARCHITECTURE.md "Statecharts"): every
// path of `getShortestPaths()` of the REAL machine, plus one path per transition they miss, each run
// against the REAL chat store (src/services/chat-store.ts) and the RENDERED help-chats page, with the
// real toaster. Fakes only at the edges: the network (a fake axios adapter whose list and history
// answers the test releases, so each state holds still while it is checked), the broker (chatEvents.emit,
// exactly what the shell's broker client does with a `chatBot` topic) and the speaker (Audio).
//
// The machine's context is unbounded (counters grow), so the model's graph is drawn over an abstraction
// of it: the status, the open chat, its history's state, the news flag and whether the open chat is held
// by a person. A transition that keeps that abstraction leads to a marked copy of its node, so those
// transitions are on paths too. Since a path's own snapshots are only representatives of their nodes, a
// shadow of the pure machine replays each path's events, and the real store must equal it at every step.
// The list is loaded with the page's Refresh button (the debounced search is tested around the model).
// `getSimplePaths()` is not used: over this graph the simple paths number in the tens of thousands.

import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  type ChatBrokerPayload,
  type ChatDetail,
  type ChatMessage,
  type ChatUserEntry,
  SELLER_HELP_CHATS,
} from '../../contracts/help-chats';
import { ChatStoreContext } from '../../src/features/help-chats/chat-store-context';
import HelpChatsPage, { SEARCH_DEBOUNCE_MS } from '../../src/features/help-chats/HelpChatsPage';
import { type ChatbotStatus, type ChatEvent, chatMachine } from '../../src/machines/chat.machine';
import { chatEvents } from '../../src/services/chat-events';
import {
  type ChatStore,
  CONNECT_REQUEST_TOAST_DURATION,
  connectRequestText,
  NEW_MESSAGE_TOAST_DURATION,
  newMessageText,
  startChatStore,
} from '../../src/services/chat-store';
import { configureHttp, http } from '../../src/services/http';
import {
  createFakeAdapter,
  type FakeReply,
  type RecordedRequest,
} from '../../src/services/testing/fake-adapter';
import { system } from '../../src/ui/theme';
import { AppToaster, toaster } from '../../src/ui/toaster';
import {
  completionPaths,
  expectFullCoverage,
  type ModelPath as SharedModelPath,
  serializedNodeKey,
} from './model-paths';

type ChatSnapshot = SnapshotFrom<typeof chatMachine>;

const NOW = Date.parse('2030-01-01T12:00:00Z');
const AT = new Date(NOW - 5 * 60_000).toISOString();
const SELLER = 'seller-1';

function entry(chatId: string, name: string, overrides: Partial<ChatUserEntry> = {}): ChatUserEntry {
  return {
    chatId,
    sessionId: `00000000-0000-4000-8000-00000000000${chatId.length}`,
    username: name,
    email: `${name.toLowerCase()}@shop.test`,
    lastMessage: `Hello from ${name}`,
    color: '#336699',
    lastInteractionOn: AT,
    newMessagesCount: 0,
    connectRequest: false,
    heldBy: null,
    sellerId: SELLER,
    ...overrides,
  };
}

const message = (
  id: string,
  sender: ChatMessage['sender'],
  text: string,
  extra: Partial<ChatMessage> = {},
) => ({
  id,
  sender,
  message: text,
  timestamp: AT,
  ...extra,
});

// The world's fixed cast: Asha and Bala are listed; Chitra is new (she writes while the page is open).
const ASHA = entry('chat-a', 'Asha');
const BALA = entry('chat-b', 'Bala');
const CHITRA = entry('chat-c', 'Chitra');
const LIST = { result: [ASHA, BALA], count: 2 };
const ASHA_HISTORY: ChatMessage[] = [
  message('h1', 'Bot', 'Welcome! How can we help?', {
    buttons: [{ label: 'Track my order', value: 'track' }],
  }),
  message('h2', 'User', '<b>Where</b> is my order?'),
];
const ASHA_DETAIL: ChatDetail = {
  sessionId: ASHA.sessionId,
  email: ASHA.email,
  messages: ASHA_HISTORY,
  chat: ASHA,
};
const HELD_BY = { id: 'u-1', name: 'Sunita' };
const ASHA_QUESTION = message('qa', 'User', 'Can I talk to a person? <script>alert(1)</script>');
const CHITRA_QUESTION = message('qc', 'User', 'Is this in stock?');
const ANSWER_TEXT = 'Yes, it ships tomorrow.';
const ASHA_ANSWER = message('ra', 'Bot', ANSWER_TEXT, { manual: true, agentName: HELD_BY.name });
const BOT_REPLY_TO_BALA = message('rb', 'Bot', 'Returns are free within 30 days.', {
  questions: ['How do I return an item?'],
});

const SAMPLE_EVENTS: ChatEvent[] = [
  { type: 'chat.load', query: '', skip: 0 },
  { type: 'chat.listLoaded', query: '', skip: 0, list: LIST },
  { type: 'chat.listFailed', query: '', skip: 0 },
  { type: 'chat.open', chatId: ASHA.chatId },
  { type: 'chat.detailLoaded', detail: ASHA_DETAIL },
  { type: 'chat.detailFailed', chatId: ASHA.chatId },
  { type: 'chat.close' },
  { type: 'chat.connectRequest', chat: BALA },
  { type: 'chat.connectRequest', chat: CHITRA },
  { type: 'chat.manualQuestion', chat: ASHA, message: ASHA_QUESTION },
  { type: 'chat.manualQuestion', chat: CHITRA, message: CHITRA_QUESTION },
  { type: 'chat.manualAnswer', chat: { ...ASHA, heldBy: HELD_BY }, message: ASHA_ANSWER },
  { type: 'chat.manualAnswer', chat: BALA, message: BOT_REPLY_TO_BALA },
  { type: 'chat.handedBack', chat: ASHA },
];

const historyState = (snapshot: ChatSnapshot) =>
  snapshot.context.messages !== null ? 'loaded' : snapshot.context.historyFailed ? 'failed' : 'loading';

/** What can happen through the real page and broker from this state (see the executors). */
function possible(snapshot: ChatSnapshot, event: ChatEvent): boolean {
  const { context } = snapshot;
  const open = context.openChatId;
  // The page's first render is the first load; before it, nothing else is on a path (broker events while
  // no page is open are covered around the model, and by the root transitions taken from other states).
  if (snapshot.value === 'idle') return event.type === 'chat.load';
  switch (event.type) {
    case 'chat.load':
      return true; // Refresh
    case 'chat.listLoaded':
    case 'chat.listFailed':
      return snapshot.value === 'loading';
    case 'chat.open':
      return open !== event.chatId; // a click in the list, or a link to `?chatId=`
    case 'chat.detailLoaded':
    case 'chat.detailFailed':
      return open === ASHA.chatId && historyState(snapshot) === 'loading';
    case 'chat.close':
      return open !== null;
    case 'chat.manualAnswer':
      // Asha's: typed in the composer; Bala's: the bot's answer over the broker, any time.
      return (
        event.chat.chatId !== ASHA.chatId || (open === ASHA.chatId && historyState(snapshot) === 'loaded')
      );
    case 'chat.handedBack':
      return open === ASHA.chatId && context.chats.some((c) => c.chatId === ASHA.chatId && c.heldBy);
    default:
      return snapshot.can(event);
  }
}

const valueKey = (snapshot: ChatSnapshot) =>
  JSON.stringify([
    snapshot.value,
    snapshot.context.openChatId,
    historyState(snapshot),
    snapshot.context.isNewMessageAvailable,
    // What the events' availability depends on (see `possible`).
    snapshot.context.chats.some((chat) => chat.chatId === ASHA.chatId && chat.heldBy),
  ]);

function serializeNode(snapshot: ChatSnapshot, event?: { type: string }, previous?: ChatSnapshot): string {
  return previous && event && valueKey(previous) === valueKey(snapshot)
    ? `${valueKey(snapshot)}~${event.type}`
    : valueKey(snapshot);
}

const model = createTestModel(chatMachine, {
  events: SAMPLE_EVENTS,
  filterEvents: (snapshot, event) => possible(snapshot, event as ChatEvent),
  serializeState: serializeNode,
});

// ---------------------------------------------------------------------------------------------------
// The world: the store, the page, the fake network and broker

interface Pending {
  request: RecordedRequest;
  release: (reply: FakeReply) => void;
}

interface World {
  store: ChatStore;
  memory: ReturnType<typeof memoryLocation>;
  requests: RecordedRequest[];
  lists: Pending[];
  details: Pending[];
  rendered: boolean;
  chimes: number;
  logged: string[];
  /**
   * The pure machine fed the same events as the real store. The model's graph is drawn over an
   * abstraction, so a path's own snapshots are representatives of their nodes; the shadow is exactly
   * what this path's events make, and what the real store must equal.
   */
  shadow: Actor<typeof chatMachine>;
}

let world: World;
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;
const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();

function createWorld(): World {
  const memory = memoryLocation({ path: SELLER_HELP_CHATS, record: true });
  const lists: Pending[] = [];
  const details: Pending[] = [];
  const { adapter, requests } = createFakeAdapter(
    (request) =>
      new Promise<FakeReply>((resolve) => {
        if (request.url.includes('QueryBotChats')) return lists.push({ request, release: resolve });
        if (request.url.includes('/getQueryBotChatDetails/'))
          return details.push({ request, release: resolve });
        if (request.url.includes('/manualAnswer/')) {
          return resolve({ status: 200, data: { message: ASHA_ANSWER, chat: { ...ASHA, heldBy: HELD_BY } } });
        }
        if (request.url.includes('/handBack/')) return resolve({ status: 200, data: { chat: ASHA } });
        if (request.url.includes('/readQueryBotChat/')) return resolve({ status: 200, data: ASHA });
        resolve({ status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } });
      }),
  );
  http.defaults.adapter = adapter;
  const logged: string[] = [];
  const created: World = {
    store: startChatStore({
      scope: 'seller',
      navigate: (to) => memory.navigate(to),
      log: (text) => logged.push(text),
    }),
    memory,
    requests,
    lists,
    details,
    rendered: false,
    chimes: 0,
    logged,
    shadow: createActor(chatMachine).start(),
  };
  vi.stubGlobal(
    'Audio',
    class {
      play() {
        created.chimes += 1;
        return Promise.resolve();
      }
    },
  );
  return created;
}

function renderPage(w: World) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={w.memory.hook} searchHook={w.memory.searchHook}>
          <ChatStoreContext.Provider value={w.store}>
            <HelpChatsPage />
          </ChatStoreContext.Provider>
        </Router>
      </QueryClientProvider>
      <AppToaster />
    </ChakraProvider>,
  );
  w.rendered = true;
}

beforeEach(() => {
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
});

afterEach(() => {
  cleanup();
  world?.store.stop();
  toaster.remove();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

afterAll(() => {
  http.defaults.adapter = originalAdapter;
});

const real = () => world.store.actor.getSnapshot();
const user = () => userEvent.setup({ delay: null });
const settle = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

async function until(check: () => void) {
  await waitFor(check, { timeout: 3000, interval: 5 });
}

const chatList = () => screen.queryByRole('list', { name: 'Chats' });
const toastTitles = () => toaster.getVisibleToasts().map((toast) => String(toast.title));

// ---------------------------------------------------------------------------------------------------
// What each state shows

/** The real store agrees with the model, and the page shows the store. */
async function common(node: ChatSnapshot) {
  const expected = world.shadow.getSnapshot();
  expect(valueKey(expected)).toBe(valueKey(node));
  visitedStates.add(String(expected.value));
  await until(() => expect(real().value).toBe(expected.value));
  const { context } = real();
  const want = expected.context;
  expect(context.chats).toEqual(want.chats);
  expect(context.connectRequests).toEqual(want.connectRequests);
  expect({ ...context, chats: undefined }).toEqual({ ...want, chats: undefined });
  if (!world.rendered) return;

  // The list: the entries in order, the unread counters and the connect-request badges.
  const listed = want.chats;
  if (listed.length > 0) {
    await until(() => {
      const items = within(chatList() as HTMLElement).getAllByRole('listitem');
      expect(items.map((item) => within(item).getByTestId('chat-username').textContent)).toEqual(
        listed.map((chat) => chat.username),
      );
      items.forEach((item, index) => {
        const chat = listed[index] as ChatUserEntry;
        expect(within(item).getByTestId('chat-last-message').textContent).toBe(chat.lastMessage);
        const unread = within(item).queryByTestId('chat-unread');
        expect(unread?.textContent ?? '0').toBe(String(chat.newMessagesCount));
        expect(within(item).queryByText('Connect request') !== null).toBe(chat.connectRequest);
        const link = within(item).getByRole('link');
        expect(link.getAttribute('aria-current') === 'true').toBe(chat.chatId === want.openChatId);
      });
    });
  } else {
    expect(chatList()).toBeNull();
  }

  // The conversation: the open chat's messages as text, who holds it.
  if (want.openChatId) {
    const region = await screen.findByLabelText('Conversation');
    const open = want.chats.find((chat) => chat.chatId === want.openChatId);
    if (want.messages) {
      await until(() =>
        expect(
          within(region)
            .queryAllByTestId('chat-message-text')
            .map((node) => node.textContent),
        ).toEqual(want.messages?.map((m) => m.message)),
      );
      // Never HTML: the customer's markup is shown as typed.
      expect(region.querySelector('script, b')).toBeNull();
    } else if (want.historyFailed) {
      expect(within(region).getByText('The chat history could not be loaded')).toBeInTheDocument();
    } else {
      expect(within(region).getByLabelText('Loading the chat')).toBeInTheDocument();
    }
    expect(within(region).queryByText(`Held by ${HELD_BY.name}`) !== null).toBe(Boolean(open?.heldBy));
    expect(within(region).queryByRole('button', { name: 'Hand back to the bot' }) !== null).toBe(
      Boolean(open?.heldBy),
    );
  } else {
    expect(screen.queryByLabelText('Conversation')).toBeNull();
    expect(screen.getByText('Choose a chat to read it and answer.')).toBeInTheDocument();
  }
}

const stateChecks: Record<ChatbotStatus, (snapshot: ChatSnapshot) => Promise<void>> = {
  idle: async (snapshot) => {
    await common(snapshot);
    expect(world.rendered).toBe(false);
    expect(world.requests).toEqual([]);
  },
  loading: async (snapshot) => {
    await common(snapshot);
    // The list request for the current query is out, unanswered.
    expect(world.lists.at(-1)?.request.params.query ?? '').toBe(snapshot.context.query);
    if (snapshot.context.chats.length === 0)
      expect(screen.getByLabelText('Loading chats')).toBeInTheDocument();
  },
  ready: async (snapshot) => {
    await common(snapshot);
    expect(snapshot.context.showChatIcon).toBe(true);
    if (snapshot.context.chats.length === 0) expect(screen.getByText('No chats yet')).toBeInTheDocument();
  },
  failed: async (snapshot) => {
    await common(snapshot);
    if (snapshot.context.chats.length === 0) {
      expect(screen.getByText('Chats could not be loaded')).toBeInTheDocument();
    }
    expect(world.logged).toContain('Could not load the chat users list');
  },
};

// ---------------------------------------------------------------------------------------------------
// How each event happens in the real system

function payloadFor(response: ChatBrokerPayload['response'], chat: ChatUserEntry, msg?: ChatMessage) {
  return { response, result: chat, ...(msg ? { message: msg } : {}) };
}

function emit(payload: ChatBrokerPayload) {
  act(() => {
    chatEvents.emit({ topic: `/chatBot/salesBot/${SELLER}/${payload.result.sessionId}`, payload });
  });
}

async function expectToast(title: string, duration: number, chimesBefore: number) {
  await until(() => expect(toastTitles()).toContain(title));
  const toast = toaster.getVisibleToasts().find((item) => item.title === title);
  expect(toast?.duration).toBe(duration);
  expect(toast?.action?.label).toBe('See Details');
  expect(toast?.closable).not.toBe(false);
  await until(() => expect(world.chimes).toBe(chimesBefore + 1));
}

async function releaseList(query: string, reply: FakeReply) {
  await until(() => expect(world.lists.some((p) => (p.request.params.query ?? '') === query)).toBe(true));
  const pending = world.lists.filter((p) => (p.request.params.query ?? '') === query);
  // In place: the fake network keeps pushing to this very array.
  for (const p of pending) world.lists.splice(world.lists.indexOf(p), 1);
  for (const p of pending) {
    expect(p.request.url).toBe(
      query ? '/api/v1/queryBot/searchSellerQueryBotChats' : '/api/v1/queryBot/listSellerQueryBotChats',
    );
    expect(p.request.params).toMatchObject({ skip: 0, limit: 20 });
    p.release(reply);
  }
  await settle();
}

async function releaseDetail(reply: FakeReply) {
  await until(() => expect(world.details.length).toBeGreaterThan(0));
  const pending = world.details.splice(0);
  for (const p of pending) {
    expect(p.request.url).toBe(`/api/v1/queryBot/getQueryBotChatDetails/${ASHA.chatId}`);
    p.release(reply);
  }
  await settle();
}

/** `openBefore`: the chat open before the event (a question for it is not news). */
type Executor<T extends ChatEvent['type']> = (
  event: Extract<ChatEvent, { type: T }>,
  openBefore: string | null,
) => Promise<void>;

const eventExecutors: { [T in ChatEvent['type']]: Executor<T> } = {
  'chat.load': async () => {
    const before = world.lists.length;
    if (!world.rendered) renderPage(world);
    else await user().click(screen.getByRole('button', { name: 'Refresh chats' }));
    await until(() => expect(world.lists.length).toBe(before + 1));
  },
  'chat.listLoaded': (event) => releaseList(event.query, { status: 200, data: event.list }),
  'chat.listFailed': (event) =>
    releaseList(event.query, { status: 500, data: { message: 'Database down', code: 'INTERNAL' } }),
  'chat.open': async (event) => {
    const link = chatList()?.querySelector(`[data-chat-id="${event.chatId}"]`);
    // A click in the list, or (not listed: a failed or filtered list) a link such as See Details.
    if (link) await user().click(link as HTMLElement);
    else act(() => world.memory.navigate(`${SELLER_HELP_CHATS}?chatId=${event.chatId}`));
    expect(world.memory.history?.at(-1)).toBe(`${SELLER_HELP_CHATS}?chatId=${event.chatId}`);
    await until(() => expect(world.details.length).toBeGreaterThan(0));
  },
  'chat.detailLoaded': (event) => releaseDetail({ status: 200, data: event.detail }),
  'chat.detailFailed': () => releaseDetail({ status: 500, data: { message: 'Gone', code: 'INTERNAL' } }),
  'chat.close': async () => {
    act(() => world.memory.navigate(SELLER_HELP_CHATS));
    await settle();
  },
  'chat.connectRequest': async (event) => {
    const chimes = world.chimes;
    emit(payloadFor({ connectRequest: true }, event.chat));
    await expectToast(connectRequestText(event.chat.username), CONNECT_REQUEST_TOAST_DURATION, chimes);
  },
  'chat.manualQuestion': async (event, openBefore) => {
    const chimes = world.chimes;
    const before = toastTitles().length;
    emit(payloadFor({ manualQuestion: event.message.message }, event.chat, event.message));
    const forOpenChat = openBefore === event.chat.chatId;
    const reads = () => world.requests.filter((r) => r.url.includes('/readQueryBotChat/'));
    const readsBefore = reads().length;
    if (forOpenChat) {
      await settle();
      expect(toastTitles()).toHaveLength(before);
      expect(world.chimes).toBe(chimes);
      // Seen as it came: the server marks it read for this reader.
      await until(() => expect(reads()).toHaveLength(readsBefore + 1));
      expect(reads().at(-1)?.url).toBe(`/api/v1/queryBot/readQueryBotChat/${event.chat.chatId}`);
    } else {
      await expectToast(newMessageText(event.chat.username), NEW_MESSAGE_TOAST_DURATION, chimes);
    }
  },
  // The person types the answer in the composer and presses Enter; the POST answers with the message.
  'chat.manualAnswer': async (event) => {
    if (event.chat.chatId !== ASHA.chatId) {
      const chimes = world.chimes;
      const toasts = toastTitles().length;
      emit(
        payloadFor(
          { chatBotResponse: event.message.message, questions: event.message.questions },
          event.chat,
          event.message,
        ),
      );
      await settle();
      // The seller's own side talking is not news.
      expect([toastTitles().length, world.chimes]).toEqual([toasts, chimes]);
      return;
    }
    const box = screen.getByLabelText('Your answer');
    await user().type(box, `${event.message.message}{Enter}`);
    await until(() =>
      expect(world.requests.some((r) => r.url.endsWith(`/manualAnswer/${ASHA.chatId}`))).toBe(true),
    );
    const post = world.requests.filter((r) => r.url.includes('/manualAnswer/')).at(-1);
    expect(post?.body).toEqual({ message: ANSWER_TEXT });
    await until(() => expect((box as HTMLTextAreaElement).value).toBe(''));
  },
  'chat.handedBack': async () => {
    await user().click(screen.getByRole('button', { name: 'Hand back to the bot' }));
    await until(() =>
      expect(world.requests.some((r) => r.url.endsWith(`/handBack/${ASHA.chatId}`))).toBe(true),
    );
    await settle();
  },
};

// ---------------------------------------------------------------------------------------------------
// Transitions: every candidate of every node, told apart by source, event, guard and target

interface TransitionLike {
  source: { key: string };
  eventType: string;
  guard?: unknown;
  target?: readonly { key: string }[] | undefined;
}

function guardName(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

const transitionId = (t: TransitionLike) =>
  `${t.source.key}|${t.eventType}|${guardName(t.guard)}|${t.target?.[0]?.key ?? '-'}`;

function allTransitions(): string[] {
  const nodes = [chatMachine.root, ...Object.values(chatMachine.root.states)];
  return nodes.flatMap((node) =>
    [...node.transitions.values()].flatMap((candidates) =>
      candidates.map((candidate) => transitionId(candidate as unknown as TransitionLike)),
    ),
  );
}

function takenTransitions(snapshot: ChatSnapshot, event: ChatEvent): string[] {
  return (chatMachine.getTransitionData(snapshot, event) as unknown as TransitionLike[]).map(transitionId);
}

const testParams = {
  states: stateChecks,
  events: Object.fromEntries(
    Object.entries(eventExecutors).map(([type, exec]) => [
      type,
      async (step: { event: { type: string } }) => {
        const event = step.event as ChatEvent;
        for (const id of takenTransitions(world.shadow.getSnapshot(), event)) executedTransitions.add(id);
        const openBefore = world.shadow.getSnapshot().context.openChatId;
        world.shadow.send(event);
        await (exec as (event: ChatEvent, openBefore: string | null) => Promise<void>)(event, openBefore);
      },
    ]),
  ),
};

// ---------------------------------------------------------------------------------------------------

type ModelPath = SharedModelPath<ChatSnapshot, ChatEvent>;

function describeEvent(event: ChatEvent): string {
  const name = event.type.replace(/^chat\./, '');
  if ('chat' in event) return `${name}(${event.chat.username})`;
  if ('query' in event) return `${name}(${JSON.stringify(event.query)})`;
  return name;
}

function describePath(path: ModelPath): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event): event is ChatEvent => event.type !== 'xstate.init')
    .map(describeEvent);
  return `${String(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

const transitionsOf = (path: ModelPath): string[] =>
  path.steps
    .slice(1)
    .flatMap((step, i) => takenTransitions(path.steps[i]?.state as ChatSnapshot, step.event as ChatEvent));

const shortestPaths = model.getShortestPaths() as ModelPath[];

const extraPaths = completionPaths<ChatSnapshot, ChatEvent>(
  model,
  (from, event) => takenTransitions(from, event),
  new Set(shortestPaths.flatMap(transitionsOf)),
  serializedNodeKey(serializeNode),
);

async function runPath(path: ModelPath) {
  world = createWorld();
  await model.testPath(path as Parameters<typeof model.testPath>[0], testParams);
}

describe('chat statechart × real store × rendered page', () => {
  const groups: [string, ModelPath[]][] = [
    ['shortest paths', shortestPaths],
    ['transitions the shortest paths miss', extraPaths],
  ];
  for (const [name, paths] of groups) {
    describe(`${name} (${paths.length})`, () => {
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        await runPath(path);
      });
    });
  }

  it('the executed paths reach every state and take every transition of the machine', () => {
    expectFullCoverage(chatMachine, allTransitions(), visitedStates, executedTransitions);
  });
});

// ---------------------------------------------------------------------------------------------------
// Around the model: what the paths do not spell out

describe('around the model', () => {
  it('toasts a connect request on any page, and See Details opens the chat', async () => {
    world = createWorld();
    emit(payloadFor({ connectRequest: true }, BALA));
    await expectToast('Connect Request Received From Bala.', Number.POSITIVE_INFINITY, 0);
    expect(real().value).toBe('idle');
    renderPage(world);
    await user().click(await screen.findByRole('button', { name: 'See Details' }));
    expect(world.memory.history?.at(-1)).toBe(`${SELLER_HELP_CHATS}?chatId=${BALA.chatId}`);
    await until(() => expect(real().context.openChatId).toBe(BALA.chatId));
    expect(world.details[0]?.request.url).toBe(`/api/v1/queryBot/getQueryBotChatDetails/${BALA.chatId}`);
  });

  it('searches with the seller search endpoint once the typing pauses', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    world = createWorld();
    renderPage(world);
    await releaseList('', { status: 200, data: LIST });
    const typing = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await typing.type(screen.getByLabelText('Search chats'), 'as');
    expect(world.lists).toEqual([]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    });
    await releaseList('as', { status: 200, data: { result: [ASHA], count: 1 } });
    expect(world.lists).toEqual([]);
    expect(world.requests.filter((r) => r.url.includes('QueryBotChats')).map((r) => r.url)).toEqual([
      '/api/v1/queryBot/listSellerQueryBotChats',
      '/api/v1/queryBot/searchSellerQueryBotChats',
    ]);
    await until(() => expect(real().context.chats).toEqual([ASHA]));
    expect(within(chatList() as HTMLElement).getAllByRole('listitem')).toHaveLength(1);

    // A search that finds nothing says so; clearing it shows the inbox again, empty or not.
    await typing.type(screen.getByLabelText('Search chats'), 'xyz');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    });
    await releaseList('asxyz', { status: 200, data: { result: [], count: 0 } });
    await until(() => expect(screen.getByText('No chats match “asxyz”.')).toBeInTheDocument());
    expect(screen.queryByText('No chats yet')).toBeNull();
    await typing.clear(screen.getByLabelText('Search chats'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    });
    await releaseList('', { status: 200, data: { result: [], count: 0 } });
    await until(() => expect(screen.getByText('No chats yet')).toBeInTheDocument());
    expect(screen.queryByText(/No chats match/)).toBeNull();
  });

  it('logs and drops a payload that does not fit the contract', async () => {
    world = createWorld();
    act(() =>
      chatEvents.emit({
        topic: `/chatBot/salesBot/${SELLER}/x`,
        payload: { response: {}, result: { chatId: 1 } },
      }),
    );
    expect(world.logged[0]).toMatch(/does not fit the contract/);
    expect(real().context.chats).toEqual([]);
  });

  it('appends the bot answer and shows its buttons as chips in the open chat', async () => {
    world = createWorld();
    renderPage(world);
    await releaseList('', { status: 200, data: LIST });
    act(() => world.memory.navigate(`${SELLER_HELP_CHATS}?chatId=${ASHA.chatId}`));
    await releaseDetail({ status: 200, data: ASHA_DETAIL });
    emit(
      payloadFor(
        {
          chatBotResponse: 'Here are your options',
          menuOptions: { message: 'Pick one', buttons: [{ label: 'Returns', value: 'r' }] },
        },
        ASHA,
      ),
    );
    const region = await screen.findByLabelText('Conversation');
    await until(() => expect(within(region).getByText('Here are your options')).toBeInTheDocument());
    expect(
      within(region)
        .getAllByTestId('chat-chip')
        .map((chip) => chip.textContent),
    ).toEqual(['Track my order', 'Returns']);
  });

  it('a failed history load is logged and gives null', async () => {
    world = createWorld();
    renderPage(world);
    await releaseList('', { status: 200, data: LIST });
    act(() => world.memory.navigate(`${SELLER_HELP_CHATS}?chatId=${ASHA.chatId}`));
    await releaseDetail({ fail: 'network' });
    expect(world.logged).toContain('Could not load the chat history');
    expect(real().context.messages).toBeNull();
  });
});
