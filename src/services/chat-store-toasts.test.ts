// One customer action, one toast (issue 26): "Talk to a person" reaches the back-office as the server
// publishes it (widget-routes.ts): the customer's words with the connect request, then the bot's "a
// person will join you". Staff see one toast, the connect request, and the words still count in the chat.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatBrokerPayload, ChatMessage, ChatUserEntry } from '../../contracts/help-chats';
import { chatEvents } from './chat-events';
import { type ChatStore, connectRequestText, newMessageText, startChatStore } from './chat-store';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../ui/notify', () => ({ notify }));
vi.mock('../ui/sound', () => ({ playNotificationSound: () => Promise.resolve() }));
vi.mock('./help-chats-api', () => ({
  helpChatsPageOf: () => '/help-chats',
  fetchChatList: () => new Promise(() => {}),
  fetchChatDetail: () => new Promise(() => {}),
  postChatRead: () => Promise.resolve(),
}));

const chat: ChatUserEntry = {
  chatId: '0b0e8f5e-6c1a-4a8e-9a51-3c1f4b7d2a10',
  sessionId: 's1',
  username: 'Ravi',
  email: 'ravi@shop.test',
  lastMessage: 'Talk to a person',
  color: '#123456',
  lastInteractionOn: '2030-01-01T00:00:00.000Z',
  newMessagesCount: 1,
  connectRequest: true,
  heldBy: null,
  sellerId: 'seller-1',
};
const message = (sender: ChatMessage['sender'], text: string, at: string): ChatMessage => ({
  id: `${sender}-${at}`,
  sender,
  message: text,
  timestamp: at,
});
const publish = (payload: ChatBrokerPayload) =>
  chatEvents.emit({ topic: `/chatBot/salesBot/${chat.sellerId}/${chat.sessionId}`, payload });

describe('the chat store’s toasts', () => {
  let store: ChatStore;
  beforeEach(() => {
    notify.mockClear();
    store = startChatStore({ scope: 'all', navigate: () => {}, log: () => {} });
  });
  afterEach(() => store.stop());

  it('"Talk to a person" raises one toast, the connect request, and the message still counts', () => {
    publish({
      response: { userQuery: 'Talk to a person', connectRequest: true },
      result: chat,
      message: message('User', 'Talk to a person', '2030-01-01T00:00:01.000Z'),
    });
    publish({
      response: { chatBotResponse: 'Connecting you with a person…' },
      result: chat,
      message: message('Bot', 'Connecting you with a person…', '2030-01-01T00:00:02.000Z'),
    });

    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify.mock.calls[0]?.[0]).toMatchObject({ title: connectRequestText('Ravi') });
    const entry = store.actor.getSnapshot().context.chats.find((known) => known.chatId === chat.chatId);
    expect(entry).toMatchObject({ connectRequest: true, newMessagesCount: 1 });
    expect(store.actor.getSnapshot().context.connectRequests).toEqual([chat.chatId]);
  });

  it('a message without a connect request still toasts as a new message', () => {
    publish({
      response: { userQuery: 'Where is my order?' },
      result: { ...chat, connectRequest: false },
      message: message('User', 'Where is my order?', '2030-01-01T00:00:03.000Z'),
    });
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify.mock.calls[0]?.[0]).toMatchObject({ title: newMessageText('Ravi') });
  });
});
