// The broker payload → chat machine events mapping (SPEC §3 source message fields). The store's effects
// (toasts, sound, fetching) run in tests/model/chat.model.test.tsx against the rendered page.
import { describe, expect, it } from 'vitest';
import type { ChatBrokerPayload, ChatUserEntry } from '../../contracts/help-chats';
import { chatEventsOf, connectRequestText, newMessageText } from './chat-store';

const chat: ChatUserEntry = {
  chatId: 'c1',
  sessionId: 's1',
  username: 'Asha',
  email: 'asha@shop.test',
  lastMessage: 'hi',
  color: '#123456',
  lastInteractionOn: '2030-01-01T00:00:00.000Z',
  newMessagesCount: 0,
  connectRequest: false,
  heldBy: null,
  sellerId: 'seller-1',
};
const payload = (response: ChatBrokerPayload['response'], extra: Partial<ChatBrokerPayload> = {}) => ({
  response,
  result: chat,
  ...extra,
});

describe('chatEventsOf', () => {
  it('a connect request with the bot saying a person will join: both, the request first', () => {
    const events = chatEventsOf(
      payload({ connectRequest: true, chatBotResponse: 'A person will join you.' }),
    );
    expect(events.map((event) => event.type)).toEqual(['chat.connectRequest', 'chat.manualAnswer']);
  });

  it.each([
    ['userQuery', { userQuery: 'Where is my order?' }],
    ['manualQuestion', { manualQuestion: 'Still there?' }],
  ])('%s is the customer asking', (_name, response) => {
    const [event] = chatEventsOf(payload(response));
    expect(event).toMatchObject({ type: 'chat.manualQuestion', chat, message: { sender: 'User' } });
  });

  it("uses the server's message when it sent one (so the POST's answer and the echo are one message)", () => {
    const message = { id: 'm-9', sender: 'Bot' as const, message: 'Done', timestamp: chat.lastInteractionOn };
    expect(chatEventsOf(payload({ manualAnswer: 'Done' }, { message }))).toEqual([
      { type: 'chat.manualAnswer', chat, message },
    ]);
  });

  it('builds the message of a welcome with its menu buttons when none was sent', () => {
    const [event] = chatEventsOf(
      payload({
        welcomeMessage: 'Welcome!',
        menuOptions: { message: 'Pick', buttons: [{ label: 'Track', value: 't' }] },
      }),
    );
    expect(event).toMatchObject({
      type: 'chat.manualAnswer',
      message: { sender: 'Bot', message: 'Welcome!', buttons: [{ label: 'Track', value: 't' }] },
    });
  });

  it('nothing to show: no event', () => {
    expect(chatEventsOf(payload({}))).toEqual([]);
  });

  it('the toast texts are exactly SPEC §8', () => {
    expect(connectRequestText('Asha')).toBe('Connect Request Received From Asha.');
    expect(newMessageText('Asha')).toBe('New Message Received From Asha.');
  });
});
