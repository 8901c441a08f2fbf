// What happens in a chat, as stored: a customer starts it (the bot greets), writes (the bot answers
// unless a person holds the chat), a person answers by hand or hands the chat back. The widget and
// back-office routes call these and then publish; the demo seed replays its conversations through
// them on a clock of its own, so a seeded chat is exactly what the live product would have stored.
import type { ChatMessage } from '../../../contracts/help-chats';
import type { Db } from '../../db/client';
import {
  answer,
  asksForPerson,
  type BotReply,
  type BotTexts,
  type BotTurn,
  customerText,
  HAND_BACK_MESSAGE,
  startReply,
} from './bot';
import { type ChatReader, markRead } from './read-state';
import {
  appendMessages,
  botFaqs,
  type ChatRow,
  type Clock,
  createChat,
  nextTimestamp,
  type StoredMessage,
} from './repository';

const botMessages = (turns: BotTurn[]): StoredMessage[] =>
  turns.map((turn) => ({ sender: 'Bot', message: turn.message, extras: turn.extras }));

export interface StartedChat {
  chat: ChatRow;
  /** The bot's greeting, each turn with its stored message (same order). */
  turns: BotTurn[];
  messages: ChatMessage[];
}

/** A customer starts a chat with a shop: the bot's welcome and menu. */
export async function startChat(
  db: Db,
  input: {
    seller: { id: string; sellerName: string };
    sessionId: string;
    name: string;
    email: string;
    color: string;
    /** Settings → Content's texts (the widget passes them; the seed keeps the built-in ones). */
    texts?: BotTexts;
  },
  clock: Clock = nextTimestamp,
): Promise<StartedChat> {
  const faqs = await botFaqs(db, input.seller.id);
  const reply = startReply({
    customerName: input.name,
    sellerName: input.seller.sellerName,
    faqs,
    texts: input.texts,
  });
  return db.transaction(async (tx) => {
    const { seller, texts: _texts, ...values } = input;
    const chat = await createChat(tx, { ...values, sellerId: seller.id }, clock());
    const messages = await appendMessages(tx, chat.id, botMessages(reply.turns), {}, clock);
    return { chat, turns: reply.turns, messages };
  });
}

export interface CustomerTurn {
  /** What the customer's message says (a button's label for a tapped button). */
  text: string;
  /** A person holds the chat: the bot stayed quiet, the question is theirs to answer. */
  withPerson: boolean;
  /** The bot's answer, unless a person holds the chat. */
  reply: BotReply | undefined;
  /** The message asks for a person: the chat raises a connect request. */
  connectRequest: boolean;
  /** The customer's message, then the bot's (one per turn of `reply`). */
  messages: ChatMessage[];
}

/** The customer writes or taps a button: stored with the bot's answer, counted for every reader. */
export async function customerWrites(
  db: Db,
  chat: ChatRow,
  message: string,
  clock: Clock = nextTimestamp,
  /** Outside office hours: what the bot answers a request for a person (office-hours.ts). */
  closedNotice: string | null = null,
  /** Settings → Content's general reply (plain text); empty for the built-in one. */
  generalReply = '',
): Promise<CustomerTurn> {
  const text = customerText(message);
  const withPerson = chat.heldBy !== null;
  const reply = withPerson
    ? undefined
    : answer(message, await botFaqs(db, chat.sellerId), {
        closedNotice,
        generalReply,
      });
  const connectRequest = !withPerson && (reply?.connectRequest ?? asksForPerson(message));
  const messages = await appendMessages(
    db,
    chat.id,
    [{ sender: 'User', message: text }, ...botMessages(reply?.turns ?? [])],
    { customerWrote: { connectRequest } },
    clock,
  );
  return { text, withPerson, reply, connectRequest, messages };
}

/**
 * A seller or staff member answers by hand: they hold the chat (the bot is quiet until they hand it
 * back), the connect request is answered for everyone, and they have read the chat.
 */
export async function personAnswers(
  db: Db,
  chatId: string,
  person: { userId: string; name: string; reader: ChatReader },
  text: string,
  clock: Clock = nextTimestamp,
): Promise<ChatMessage> {
  return db.transaction(async (tx) => {
    const [message] = await appendMessages(
      tx,
      chatId,
      [{ sender: 'Bot', message: text, extras: { manual: true, agentName: person.name } }],
      {
        set: {
          heldBy: person.userId,
          heldAt: clock(),
          connectRequest: false,
          connectRequestMark: null,
          status: 'open',
        },
      },
      clock,
    );
    if (!message) throw new Error('the answer was not stored');
    await markRead(tx, chatId, person.reader, new Date(message.timestamp));
    return message;
  });
}

/** The person hands the chat back to the bot, which tells the customer. */
export async function handBack(db: Db, chatId: string, clock: Clock = nextTimestamp): Promise<ChatMessage> {
  const [message] = await appendMessages(
    db,
    chatId,
    [{ sender: 'Bot', message: HAND_BACK_MESSAGE }],
    { set: { heldBy: null, heldAt: null } },
    clock,
  );
  if (!message) throw new Error('the hand-back message was not stored');
  return message;
}
