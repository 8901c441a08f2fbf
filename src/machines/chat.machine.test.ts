// The chat statechart on its own (SPEC §4 "Chat"): its decisions, with the effects recorded instead of
// performed. (tests/model/chat.model.test.tsx runs its paths against the real store and the page.)
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { ChatDetail, ChatMessage, ChatUserEntry } from '../../contracts/help-chats';
import { type ChatEvent, chatMachine } from './chat.machine';

const T0 = '2030-01-01T12:00:00.000Z';

function entry(chatId: string, overrides: Partial<ChatUserEntry> = {}): ChatUserEntry {
  return {
    chatId,
    sessionId: `session-${chatId}`,
    username: `Customer ${chatId}`,
    email: `${chatId}@shop.test`,
    lastMessage: `hello from ${chatId}`,
    color: '#336699',
    lastInteractionOn: T0,
    newMessagesCount: 0,
    connectRequest: false,
    heldBy: null,
    sellerId: 'seller-1',
    ...overrides,
  };
}

function message(id: string, sender: ChatMessage['sender'], text: string): ChatMessage {
  return { id, sender, message: text, timestamp: T0 };
}

function detail(chat: ChatUserEntry, messages: ChatMessage[]): ChatDetail {
  return { sessionId: chat.sessionId, email: chat.email, messages, chat };
}

function start() {
  const effects: { type: string; params: unknown }[] = [];
  const record = (type: string) => (_: unknown, params: unknown) => {
    effects.push({ type, params });
  };
  const actor = createActor(
    chatMachine.provide({
      actions: {
        fetchList: record('fetchList'),
        fetchDetail: record('fetchDetail'),
        markRead: record('markRead'),
        announceConnectRequest: record('announceConnectRequest'),
        announceNewMessage: record('announceNewMessage'),
      },
    }),
  ).start();
  const send = (...events: ChatEvent[]) => {
    for (const event of events) actor.send(event);
  };
  const context = () => actor.getSnapshot().context;
  const ids = () => context().chats.map((chat) => chat.chatId);
  return { actor, send, effects, context, ids, value: () => actor.getSnapshot().value };
}

function loaded(chats: ChatUserEntry[], count = chats.length) {
  const world = start();
  world.send(
    { type: 'chat.load', query: '', skip: 0 },
    { type: 'chat.listLoaded', query: '', skip: 0, list: { result: chats, count } },
  );
  return world;
}

describe('chat machine', () => {
  it('starts idle with every flag off', () => {
    const { value, context } = start();
    expect(value()).toBe('idle');
    expect(context()).toMatchObject({
      chats: [],
      openChatId: null,
      showChatbot: false,
      showChatIcon: false,
      isNewMessage: false,
      isNewMessageAvailable: false,
    });
  });

  it('loads the list: idle → loading → ready, fetching with the query and skip', () => {
    const world = start();
    world.send({ type: 'chat.load', query: 'asha', skip: 0 });
    expect(world.value()).toBe('loading');
    expect(world.effects).toEqual([{ type: 'fetchList', params: { query: 'asha', skip: 0 } }]);
    world.send({
      type: 'chat.listLoaded',
      query: 'asha',
      skip: 0,
      list: { result: [entry('a', { newMessagesCount: 2 })], count: 30 },
    });
    expect(world.value()).toBe('ready');
    expect(world.context()).toMatchObject({ count: 30, showChatIcon: true, isNewMessageAvailable: true });
  });

  it('a failed load gives an empty list (SPEC §8), and a new load may follow', () => {
    const world = loaded([entry('a')]);
    world.send({ type: 'chat.load', query: '', skip: 0 }, { type: 'chat.listFailed', query: '', skip: 0 });
    expect(world.value()).toBe('failed');
    expect(world.ids()).toEqual([]);
    world.send({ type: 'chat.load', query: '', skip: 0 });
    expect(world.value()).toBe('loading');
  });

  it('drops the answer of a search that was overtaken by a newer one', () => {
    const world = start();
    world.send({ type: 'chat.load', query: 'a', skip: 0 }, { type: 'chat.load', query: 'ab', skip: 0 });
    world.send({ type: 'chat.listLoaded', query: 'a', skip: 0, list: { result: [entry('x')], count: 1 } });
    expect(world.value()).toBe('loading');
    world.send({ type: 'chat.listFailed', query: 'a', skip: 0 });
    expect(world.value()).toBe('loading');
    world.send({ type: 'chat.listLoaded', query: 'ab', skip: 0, list: { result: [entry('y')], count: 1 } });
    expect(world.ids()).toEqual(['y']);
  });

  it('appends the next page without duplicates', () => {
    const world = loaded([entry('a'), entry('b')], 3);
    world.send(
      { type: 'chat.load', query: '', skip: 2 },
      { type: 'chat.listLoaded', query: '', skip: 2, list: { result: [entry('b'), entry('c')], count: 3 } },
    );
    expect(world.ids()).toEqual(['a', 'b', 'c']);
  });

  it('a connect request adds the chat to the front of both lists, or moves it there', () => {
    const world = loaded([entry('a'), entry('b')]);
    world.send({ type: 'chat.connectRequest', chat: entry('c') });
    expect(world.ids()).toEqual(['c', 'a', 'b']);
    expect(world.context().connectRequests).toEqual(['c']);
    world.send({ type: 'chat.connectRequest', chat: entry('b') });
    expect(world.ids()).toEqual(['b', 'c', 'a']);
    expect(world.context().connectRequests).toEqual(['b', 'c']);
    world.send({ type: 'chat.connectRequest', chat: entry('c') });
    expect(world.context().connectRequests).toEqual(['c', 'b']);
    expect(world.context().chats[0]?.connectRequest).toBe(true);
    expect(world.context()).toMatchObject({ isNewMessage: true, isNewMessageAvailable: true });
    expect(world.effects.filter((e) => e.type === 'announceConnectRequest').map((e) => e.params)).toEqual([
      { chatId: 'c', username: 'Customer c' },
      { chatId: 'b', username: 'Customer b' },
      { chatId: 'c', username: 'Customer c' },
    ]);
  });

  it('a question for another chat counts, updates lastMessage, moves it to the front, or adds it', () => {
    const world = loaded([entry('a'), entry('b', { newMessagesCount: 1 })]);
    world.send({
      type: 'chat.manualQuestion',
      chat: entry('b'),
      message: message('m1', 'User', 'where is it?'),
    });
    expect(world.ids()).toEqual(['b', 'a']);
    expect(world.context().chats[0]).toMatchObject({ newMessagesCount: 2, lastMessage: 'where is it?' });
    world.send({ type: 'chat.manualQuestion', chat: entry('n'), message: message('m2', 'User', 'hi') });
    expect(world.ids()).toEqual(['n', 'b', 'a']);
    expect(world.context().chats[0]).toMatchObject({ newMessagesCount: 1, lastMessage: 'hi' });
    expect(world.effects.filter((e) => e.type === 'announceNewMessage')).toHaveLength(2);
    expect(world.context().isNewMessage).toBe(true);
  });

  it('opening a chat resets its counters, leaves the connect-request list and loads its history', () => {
    const world = loaded([entry('a', { newMessagesCount: 3, connectRequest: true }), entry('b')]);
    expect(world.context().connectRequests).toEqual(['a']);
    world.send({ type: 'chat.open', chatId: 'a' });
    expect(world.context().chats[0]).toMatchObject({ newMessagesCount: 0, connectRequest: false });
    expect(world.context()).toMatchObject({
      openChatId: 'a',
      connectRequests: [],
      showChatbot: true,
      isNewMessage: false,
      isNewMessageAvailable: false,
      messages: null,
    });
    expect(world.effects.at(-1)).toEqual({ type: 'fetchDetail', params: { chatId: 'a' } });
    const history = [message('h1', 'User', 'hello'), message('h2', 'Bot', 'Welcome!')];
    world.send({ type: 'chat.detailLoaded', detail: detail(entry('a', { newMessagesCount: 3 }), history) });
    expect(world.context().messages).toEqual(history);
    expect(world.context().openSession).toEqual({ sessionId: 'session-a', email: 'a@shop.test' });
    expect(world.context().chats[0]?.newMessagesCount).toBe(0);
  });

  it("a question for the open chat is appended as the customer's message, without counting or a toast", () => {
    const world = loaded([entry('a'), entry('b')]);
    world.send(
      { type: 'chat.open', chatId: 'b' },
      { type: 'chat.detailLoaded', detail: detail(entry('b'), []) },
    );
    const before = world.effects.length;
    world.send({
      type: 'chat.manualQuestion',
      chat: entry('b'),
      message: message('q', 'User', 'a person please'),
    });
    expect(world.context().messages).toEqual([message('q', 'User', 'a person please')]);
    expect(world.ids()).toEqual(['b', 'a']);
    expect(world.context().chats[0]).toMatchObject({ newMessagesCount: 0, lastMessage: 'a person please' });
    // Seen as it came: the server is told, so this reader's count stays 0 there too. No toast.
    expect(world.effects.slice(before)).toEqual([{ type: 'markRead', params: { chatId: 'b' } }]);
  });

  it("keeps this reader's own counts: a payload's counts are nobody's in particular", () => {
    // This reader saw a's connect request already; the payload says one is pending (for someone).
    const world = loaded([entry('a', { newMessagesCount: 1 }), entry('b', { newMessagesCount: 4 })]);
    world.send({
      type: 'chat.manualQuestion',
      chat: entry('a', { newMessagesCount: 7, connectRequest: true }),
      message: message('m1', 'User', 'still waiting'),
    });
    expect(world.context().chats[0]).toMatchObject({
      chatId: 'a',
      newMessagesCount: 2,
      connectRequest: false,
    });
    world.send({ type: 'chat.connectRequest', chat: entry('b', { newMessagesCount: 9 }) });
    expect(world.context().chats[0]).toMatchObject({
      chatId: 'b',
      newMessagesCount: 4,
      connectRequest: true,
    });
    // A chat this list does not hold yet takes the payload's.
    world.send({ type: 'chat.connectRequest', chat: entry('n', { newMessagesCount: 2 }) });
    expect(world.context().chats[0]).toMatchObject({
      chatId: 'n',
      newMessagesCount: 2,
      connectRequest: true,
    });
  });

  it('answers for the open chat are appended once; answers elsewhere only update the entry', () => {
    const world = loaded([entry('a'), entry('b')]);
    world.send(
      { type: 'chat.open', chatId: 'a' },
      { type: 'chat.detailLoaded', detail: detail(entry('a'), []) },
    );
    const held = entry('a', { heldBy: { id: 'u1', name: 'Asha' } });
    const answer = { ...message('r1', 'Bot', 'On its way'), manual: true, agentName: 'Asha' };
    world.send({ type: 'chat.manualAnswer', chat: held, message: answer });
    world.send({ type: 'chat.manualAnswer', chat: held, message: answer });
    expect(world.context().messages).toEqual([answer]);
    expect(world.context().chats[0]?.heldBy).toEqual({ id: 'u1', name: 'Asha' });
    world.send({ type: 'chat.manualAnswer', chat: entry('b'), message: message('r2', 'Bot', 'Hi b') });
    expect(world.context().chats[1]).toMatchObject({ chatId: 'b', lastMessage: 'Hi b', newMessagesCount: 0 });
    expect(world.context().messages).toHaveLength(1);
    world.send({ type: 'chat.handedBack', chat: entry('a') });
    expect(world.context().chats[0]?.heldBy).toBeNull();
  });

  it('ignores a history that arrives for a chat no longer open, and a failed one gives null', () => {
    const world = loaded([entry('a'), entry('b')]);
    world.send({ type: 'chat.open', chatId: 'a' }, { type: 'chat.open', chatId: 'b' });
    world.send({ type: 'chat.detailLoaded', detail: detail(entry('a'), [message('x', 'User', 'x')]) });
    expect(world.context().messages).toBeNull();
    world.send({ type: 'chat.detailFailed', chatId: 'a' });
    expect(world.context().historyFailed).toBe(false);
    world.send({ type: 'chat.detailFailed', chatId: 'b' });
    expect(world.context()).toMatchObject({ messages: null, historyFailed: true });
  });

  it('closing the chat makes its questions count again', () => {
    const world = loaded([entry('a')]);
    world.send({ type: 'chat.open', chatId: 'a' }, { type: 'chat.close' });
    expect(world.context()).toMatchObject({ openChatId: null, showChatbot: false });
    world.send({
      type: 'chat.manualQuestion',
      chat: entry('a'),
      message: message('q', 'User', 'still there?'),
    });
    expect(world.context().chats[0]?.newMessagesCount).toBe(1);
  });

  it('handles broker events before the list was ever loaded (toasts on any page)', () => {
    const world = start();
    world.send({ type: 'chat.connectRequest', chat: entry('a') });
    expect(world.value()).toBe('idle');
    expect(world.ids()).toEqual(['a']);
    expect(world.effects.map((e) => e.type)).toEqual(['announceConnectRequest']);
  });
});
