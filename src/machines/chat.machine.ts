// The help-chat store's statechart (SPEC §4 "Chat"). Pure (ARCHITECTURE.md "Statecharts"): no invoke, no
// after, no spawn. Every effect (fetching, toasts, the sound) is a named action with a no-op default that
// the adapter (src/services/chat-store.ts) provides; the broker's chat messages and the answers of the
// HTTP calls are namespaced `chat.*` events the adapter sends in.
//
// The counts are this reader's own (each back-office user has their own unread counts and connect
// requests): a broker payload's counts are nobody's in particular, so a listed chat keeps its own.
//
// The chatbot status (SPEC: "starts idle") is the state of the chat user list:
//   idle → loading (chat.load) → ready (chat.listLoaded) / failed (chat.listFailed; SPEC §8: an empty list)
// and from ready or failed a new chat.load (search, paging, retry) loads again. The broker events
// (connect requests, questions, answers) and opening a chat are handled in every state: a toast must fire
// even when the help-chats page (and so the list) was never opened.
import { assign, setup } from 'xstate';
import type { ChatDetail, ChatList, ChatMessage, ChatUserEntry } from '../../contracts/help-chats';

export type ChatbotStatus = 'idle' | 'loading' | 'ready' | 'failed';

export interface ChatContext {
  /** The chat user list, most recent first. */
  chats: ChatUserEntry[];
  /** The total the server counts for the current query (for "Load more"). */
  count: number;
  /** The query the list was (or is being) loaded for. */
  query: string;
  /** Chat ids with an open connect request, the latest first (SPEC §4 "connect-request list"). */
  connectRequests: string[];
  /** The chat open on the help-chats page (`?chatId=`), or null. */
  openChatId: string | null;
  /** The open chat's history; null until it loaded, or when it failed (SPEC §8). */
  messages: ChatMessage[] | null;
  /** The open chat's session and e-mail once its history loaded. */
  openSession: { sessionId: string; email: string } | null;
  /** The open chat's history failed to load (SPEC §8: logged, null). */
  historyFailed: boolean;
  /** SPEC §4 flags. The chat panel is open (a chat is open on the page). */
  showChatbot: boolean;
  /** The chat icon/list shows: the list has loaded at least once. */
  showChatIcon: boolean;
  /** The latest broker event was news for a chat other than the open one (a toast fired for it). */
  isNewMessage: boolean;
  /** Some chat has unread messages or a connect request. */
  isNewMessageAvailable: boolean;
}

export type ChatEvent =
  /** Load the list (first page when skip is 0, else the next page appended). */
  | { type: 'chat.load'; query: string; skip: number }
  | { type: 'chat.listLoaded'; query: string; skip: number; list: ChatList }
  /** Logged by the adapter; the list is empty (SPEC §8). */
  | { type: 'chat.listFailed'; query: string; skip: number }
  /** The page opened a chat (`?chatId=`): counters reset, its history loads. */
  | { type: 'chat.open'; chatId: string }
  | { type: 'chat.detailLoaded'; detail: ChatDetail }
  /** Logged by the adapter; the history is null (SPEC §8). */
  | { type: 'chat.detailFailed'; chatId: string }
  /** The page closed the chat (or was left). */
  | { type: 'chat.close' }
  /** Broker: the customer asked for a person. */
  | { type: 'chat.connectRequest'; chat: ChatUserEntry }
  /** Broker: the customer wrote (`userQuery`, or `manualQuestion` while a person holds the chat). */
  | { type: 'chat.manualQuestion'; chat: ChatUserEntry; message: ChatMessage }
  /**
   * The seller's side wrote in a chat: the bot (`welcomeMessage`, `chatBotResponse`) from the broker, or
   * a person (`manualAnswer`, from the broker or from the composer's POST). No toast: it is not news.
   */
  | { type: 'chat.manualAnswer'; chat: ChatUserEntry; message: ChatMessage }
  /** A person handed the chat back to the bot (the entry as it now stands). */
  | { type: 'chat.handedBack'; chat: ChatUserEntry };

type EventOf<T extends ChatEvent['type']> = Extract<ChatEvent, { type: T }>;

function hasNews(chats: ChatUserEntry[]): boolean {
  return chats.some((chat) => chat.newMessagesCount > 0 || chat.connectRequest);
}

/** `chat` first, without its previous copy. */
function toFront(chats: ChatUserEntry[], chat: ChatUserEntry): ChatUserEntry[] {
  return [chat, ...chats.filter((entry) => entry.chatId !== chat.chatId)];
}

/** Replaces the entry in place (or leaves the list as it is when the chat is not listed). */
function replaceEntry(chats: ChatUserEntry[], chat: ChatUserEntry): ChatUserEntry[] {
  return chats.map((entry) => (entry.chatId === chat.chatId ? chat : entry));
}

const findChat = (context: ChatContext, chatId: string) =>
  context.chats.find((entry) => entry.chatId === chatId);

/** Appends unless the message is already there (the POST's answer and the broker's echo are one message). */
function appendOnce(messages: ChatMessage[] | null, message: ChatMessage): ChatMessage[] | null {
  if (!messages) return messages;
  return messages.some((m) => m.id === message.id) ? messages : [...messages, message];
}

function withFlags(chats: ChatUserEntry[]): Pick<ChatContext, 'chats' | 'isNewMessageAvailable'> {
  return { chats, isNewMessageAvailable: hasNews(chats) };
}

/** Names kept for the toasts' texts and links. */
export interface ChatAnnouncement {
  chatId: string;
  username: string;
}

const load = {
  target: 'loading',
  actions: [
    'startLoading',
    {
      type: 'fetchList',
      params: ({ event }: { event: ChatEvent }) => {
        const { query, skip } = event as EventOf<'chat.load'>;
        return { query, skip };
      },
    },
  ],
} as const;

export const chatMachine = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
  },
  actions: {
    // Context only (pure).
    startLoading: assign(({ event }) => {
      const { query } = event as EventOf<'chat.load'>;
      return { query };
    }),
    storeList: assign(({ context, event }) => {
      const { list, skip } = event as EventOf<'chat.listLoaded'>;
      const chats =
        skip > 0
          ? [...context.chats, ...list.result.filter((entry) => !findChat(context, entry.chatId))]
          : list.result;
      return {
        ...withFlags(chats),
        count: list.count,
        showChatIcon: true,
        // Connect requests the list knows about, plus the ones that arrived live meanwhile.
        connectRequests: [
          ...context.connectRequests,
          ...list.result
            .filter((entry) => entry.connectRequest && !context.connectRequests.includes(entry.chatId))
            .map((entry) => entry.chatId),
        ],
      };
    }),
    emptyList: assign({ chats: [], count: 0, isNewMessageAvailable: false }),
    /** SPEC §4: opening a chat resets newMessagesCount to 0 and connectRequest to false. */
    openChat: assign(({ context, event }) => {
      const { chatId } = event as EventOf<'chat.open'>;
      const chats = context.chats.map((entry) =>
        entry.chatId === chatId ? { ...entry, newMessagesCount: 0, connectRequest: false } : entry,
      );
      return {
        ...withFlags(chats),
        connectRequests: context.connectRequests.filter((id) => id !== chatId),
        openChatId: chatId,
        messages: null,
        openSession: null,
        historyFailed: false,
        showChatbot: true,
        isNewMessage: false,
      };
    }),
    storeDetail: assign(({ context, event }) => {
      const { detail } = event as EventOf<'chat.detailLoaded'>;
      // The server reset the counters as it answered.
      const entry = { ...detail.chat, newMessagesCount: 0, connectRequest: false };
      const chats = findChat(context, entry.chatId) ? replaceEntry(context.chats, entry) : context.chats;
      return {
        ...withFlags(chats),
        messages: detail.messages,
        openSession: { sessionId: detail.sessionId, email: detail.email },
      };
    }),
    forgetDetail: assign({ messages: null, openSession: null, historyFailed: true }),
    closeChat: assign({
      openChatId: null,
      messages: null,
      openSession: null,
      historyFailed: false,
      showChatbot: false,
    }),
    /**
     * SPEC §4: added to the connect-request list, or moved to its front; the chat goes to the front too.
     * Its unread count stays this reader's own (a payload's counts are nobody's in particular).
     */
    addConnectRequest: assign(({ context, event }) => {
      const { chat } = event as EventOf<'chat.connectRequest'>;
      const known = findChat(context, chat.chatId);
      const entry = {
        ...chat,
        newMessagesCount: known?.newMessagesCount ?? chat.newMessagesCount,
        connectRequest: true,
      };
      return {
        ...withFlags(toFront(context.chats, entry)),
        connectRequests: [chat.chatId, ...context.connectRequests.filter((id) => id !== chat.chatId)],
        isNewMessage: chat.chatId !== context.openChatId,
      };
    }),
    /**
     * SPEC §4 says a manual question for the open chat "appends a Bot message". In our contract `User` is
     * the customer and `Bot` the seller's side; the manual question is the customer's own words awaiting a
     * person, so it is appended as written, with sender `User`: showing the customer's words as the bot's
     * would mislead the person answering. The entry's lastMessage follows; its counter stays 0 (it is read).
     */
    appendQuestion: assign(({ context, event }) => {
      const { chat, message } = event as EventOf<'chat.manualQuestion'>;
      const entry = { ...chat, lastMessage: message.message, newMessagesCount: 0, connectRequest: false };
      return {
        ...withFlags(toFront(context.chats, entry)),
        messages: appendOnce(context.messages, { ...message, sender: 'User' }),
      };
    }),
    /**
     * SPEC §4: another chat's counter goes up, its lastMessage follows, it moves to the front (or is
     * added). The counts are this reader's own: a connect request they already saw stays seen (one they
     * did not see comes as chat.connectRequest).
     */
    countQuestion: assign(({ context, event }) => {
      const { chat, message } = event as EventOf<'chat.manualQuestion'>;
      const known = findChat(context, chat.chatId);
      const entry: ChatUserEntry = {
        ...chat,
        lastMessage: message.message,
        newMessagesCount: (known?.newMessagesCount ?? 0) + 1,
        connectRequest: known ? known.connectRequest : chat.connectRequest,
      };
      return { ...withFlags(toFront(context.chats, entry)), isNewMessage: true };
    }),
    appendAnswer: assign(({ context, event }) => {
      const { chat, message } = event as EventOf<'chat.manualAnswer'>;
      const known = findChat(context, chat.chatId);
      const entry = { ...chat, lastMessage: message.message, newMessagesCount: 0, connectRequest: false };
      return {
        ...withFlags(known ? replaceEntry(context.chats, entry) : context.chats),
        messages: appendOnce(context.messages, message),
      };
    }),
    /** An answer in a chat not open here (another tab, a colleague, the bot): the entry follows, quietly. */
    updateAnsweredEntry: assign(({ context, event }) => {
      const { chat, message } = event as EventOf<'chat.manualAnswer'>;
      const known = findChat(context, chat.chatId);
      if (!known) return {};
      const entry = {
        ...known,
        lastMessage: message.message,
        heldBy: chat.heldBy,
        lastInteractionOn: chat.lastInteractionOn,
      };
      return withFlags(replaceEntry(context.chats, entry));
    }),
    releaseEntry: assign(({ context, event }) => {
      const { chat } = event as EventOf<'chat.handedBack'>;
      const known = findChat(context, chat.chatId);
      return known ? withFlags(replaceEntry(context.chats, { ...known, heldBy: null })) : {};
    }),
    // Effects: no-ops here, provided by the adapter with `chatMachine.provide({ actions })`.
    /** Fetch the list page; answer with chat.listLoaded or chat.listFailed (logged). */
    fetchList: (_, _params: { query: string; skip: number }) => {},
    /** Fetch the chat's history; answer with chat.detailLoaded or chat.detailFailed (logged). */
    fetchDetail: (_, _params: { chatId: string }) => {},
    /** Tell the server this reader saw the open chat's new message (their unread count stays 0). */
    markRead: (_, _params: { chatId: string }) => {},
    /** SPEC §8: "Connect Request Received From {name}." (never expires), See Details, Close; the sound. */
    announceConnectRequest: (_, _params: ChatAnnouncement) => {},
    /** SPEC §8: "New Message Received From {name}." (3000 ms), See Details, Close; the sound. */
    announceNewMessage: (_, _params: ChatAnnouncement) => {},
  },
  guards: {
    isOpenChat: ({ context, event }) => 'chat' in event && event.chat.chatId === context.openChatId,
    isOpenChatDetail: ({ context, event }) =>
      (event as EventOf<'chat.detailLoaded'>).detail.chat.chatId === context.openChatId,
    isOpenChatFailure: ({ context, event }) =>
      (event as EventOf<'chat.detailFailed'>).chatId === context.openChatId,
    hasOpenChat: ({ context }) => context.openChatId !== null,
    isCurrentQuery: ({ context, event }) =>
      (event as EventOf<'chat.listLoaded' | 'chat.listFailed'>).query === context.query,
  },
}).createMachine({
  id: 'chat',
  context: {
    chats: [],
    count: 0,
    query: '',
    connectRequests: [],
    openChatId: null,
    messages: null,
    openSession: null,
    historyFailed: false,
    showChatbot: false,
    showChatIcon: false,
    isNewMessage: false,
    isNewMessageAvailable: false,
  },
  initial: 'idle',
  on: {
    'chat.open': {
      actions: ['openChat', { type: 'fetchDetail', params: ({ event }) => ({ chatId: event.chatId }) }],
    },
    // An answer for a chat that is no longer open is dropped (a newer chat.open asked for its own).
    'chat.detailLoaded': { guard: 'isOpenChatDetail', actions: 'storeDetail' },
    'chat.detailFailed': { guard: 'isOpenChatFailure', actions: 'forgetDetail' },
    'chat.close': { guard: 'hasOpenChat', actions: 'closeChat' },
    'chat.connectRequest': {
      actions: [
        'addConnectRequest',
        {
          type: 'announceConnectRequest',
          params: ({ event }) => ({ chatId: event.chat.chatId, username: event.chat.username }),
        },
      ],
    },
    'chat.manualQuestion': [
      {
        guard: 'isOpenChat',
        actions: [
          'appendQuestion',
          { type: 'markRead', params: ({ event }) => ({ chatId: event.chat.chatId }) },
        ],
      },
      {
        actions: [
          'countQuestion',
          {
            type: 'announceNewMessage',
            params: ({ event }) => ({ chatId: event.chat.chatId, username: event.chat.username }),
          },
        ],
      },
    ],
    'chat.manualAnswer': [
      { guard: 'isOpenChat', actions: 'appendAnswer' },
      { actions: 'updateAnsweredEntry' },
    ],
    'chat.handedBack': { actions: 'releaseEntry' },
  },
  states: {
    idle: { on: { 'chat.load': load } },
    loading: {
      on: {
        // A newer search while loading: the older answer is dropped (see the guards).
        'chat.load': load,
        'chat.listLoaded': { guard: 'isCurrentQuery', target: 'ready', actions: 'storeList' },
        'chat.listFailed': { guard: 'isCurrentQuery', target: 'failed', actions: 'emptyList' },
      },
    },
    ready: { on: { 'chat.load': load } },
    failed: { on: { 'chat.load': load } },
  },
});

export type ChatMachine = typeof chatMachine;
