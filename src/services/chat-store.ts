// The help-chat store (SPEC §4 "Chat", §7 "topics containing chatBot go to the chat store", §8 chat
// toasts): the adapter around the pure chat statechart. It follows the broker's chat messages
// (chat-events.ts), turns each ChatBrokerPayload into the machine's events, and performs the machine's
// named effects: fetching the list and the history, the toasts and the sound. It lives in the shell, so a
// connect request toasts on every page, not only on the help-chats page.
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import {
  type ChatBrokerPayload,
  type ChatMessage,
  type ChatUserEntry,
  chatBrokerPayloadSchema,
} from '../../contracts/help-chats';
import { type ChatAnnouncement, type ChatEvent, chatMachine } from '../machines/chat.machine';
import { notify } from '../ui/notify';
import { playNotificationSound } from '../ui/sound';
import { type ChatBrokerMessage, chatEvents } from './chat-events';
import {
  type ChatScope,
  fetchChatDetail,
  fetchChatList,
  helpChatsPageOf,
  postChatRead,
} from './help-chats-api';

export const CONNECT_REQUEST_TOAST_DURATION = Number.POSITIVE_INFINITY;
export const NEW_MESSAGE_TOAST_DURATION = 3000;

export const connectRequestText = (name: string) => `Connect Request Received From ${name}.`;
export const newMessageText = (name: string) => `New Message Received From ${name}.`;

export type ChatSnapshot = SnapshotFrom<typeof chatMachine>;

export interface ChatStoreOptions {
  scope: ChatScope;
  /** Opens a path in the app (See Details). */
  navigate: (to: string) => void;
  /** Where failed loads and bad payloads are logged (SPEC §8); console by default. */
  log?: (message: string, detail?: unknown) => void;
}

export interface ChatStore {
  actor: Actor<typeof chatMachine>;
  scope: ChatScope;
  /** The page this user's chats live on. */
  page: string;
  send: (event: ChatEvent) => void;
  stop: () => void;
}

/** A message's text from the payload when the server sent none of its own (older publishers). */
function messageFrom(payload: ChatBrokerPayload, sender: ChatMessage['sender'], text: string): ChatMessage {
  const { response, result } = payload;
  return {
    id: `${result.chatId}:${result.lastInteractionOn}:${sender}`,
    sender,
    message: text,
    timestamp: result.lastInteractionOn,
    questions: response.questions,
    generalReply: response.generalReply,
    buttons: response.menuOptions?.buttons,
    manual: response.manualAnswer !== undefined ? true : undefined,
  };
}

/**
 * The machine's events for one broker payload (SPEC §3 source message fields). The customer's words
 * that raised a connect request ("Talk to a person") come first, counted once as their message; then
 * the connect request; then the bot's "a person will join you" that may travel with it, appended like
 * any answer.
 */
export function chatEventsOf(payload: ChatBrokerPayload): ChatEvent[] {
  const { response, result: chat } = payload;
  const events: ChatEvent[] = [];
  const question = response.manualQuestion ?? response.userQuery;
  if (question !== undefined) {
    const message = payload.message ?? messageFrom(payload, 'User', question);
    events.push({ type: 'chat.manualQuestion', chat, message });
  }
  if (response.connectRequest) events.push({ type: 'chat.connectRequest', chat });
  const answer =
    response.manualAnswer ??
    response.chatBotResponse ??
    response.welcomeMessage ??
    response.generalReply?.message ??
    response.menuOptions?.message;
  if (answer !== undefined) {
    const message = payload.message ?? messageFrom(payload, 'Bot', answer);
    events.push({ type: 'chat.manualAnswer', chat, message });
  }
  return events;
}

export function startChatStore(options: ChatStoreOptions): ChatStore {
  const log = options.log ?? ((message, detail) => console.error(message, detail));
  const page = helpChatsPageOf(options.scope);
  const seeDetails = (chatId: string) => options.navigate(`${page}?chatId=${encodeURIComponent(chatId)}`);

  const chime = () => {
    // A failure is only a warning (sound.ts never rejects); guard anyway, the toast matters more.
    playNotificationSound().catch((error: unknown) => console.warn('Notification sound failed', error));
  };

  const announce = (title: string, duration: number, { chatId }: ChatAnnouncement, kind: string) => {
    notify({
      type: 'notification',
      id: `chat-${kind}-${chatId}`,
      title,
      duration,
      closable: true,
      action: { label: 'See Details', onClick: () => seeDetails(chatId) },
    });
    chime();
  };

  let stopped = false;
  // One customer action, one toast (issue 26): "Talk to a person" comes as one payload with the
  // customer's words and the connect request. The connect request's toast announces it; the words are
  // still counted and shown in the chat, without a "New Message" toast of their own.
  let announcedChat: string | null = null;
  const actor = createActor(
    chatMachine.provide({
      actions: {
        fetchList: (_, { query, skip }) => {
          fetchChatList(options.scope, query, skip).then(
            (list) => !stopped && actor.send({ type: 'chat.listLoaded', query, skip, list }),
            (error: unknown) => {
              log('Could not load the chat users list', error);
              if (!stopped) actor.send({ type: 'chat.listFailed', query, skip });
            },
          );
        },
        fetchDetail: (_, { chatId }) => {
          fetchChatDetail(chatId).then(
            (detail) => !stopped && actor.send({ type: 'chat.detailLoaded', detail }),
            (error: unknown) => {
              log('Could not load the chat history', error);
              if (!stopped) actor.send({ type: 'chat.detailFailed', chatId });
            },
          );
        },
        markRead: (_, { chatId }) => {
          // Only the server's count is at stake (the list already shows 0): a failure is logged.
          postChatRead(chatId).catch((error: unknown) => log('Could not mark the chat as read', error));
        },
        announceConnectRequest: (_, params) =>
          announce(connectRequestText(params.username), CONNECT_REQUEST_TOAST_DURATION, params, 'connect'),
        announceNewMessage: (_, params) => {
          if (params.chatId === announcedChat) return;
          announce(newMessageText(params.username), NEW_MESSAGE_TOAST_DURATION, params, 'message');
        },
      },
    }),
  );
  actor.start();

  const onBrokerMessage = ({ topic, payload }: ChatBrokerMessage) => {
    const parsed = chatBrokerPayloadSchema.safeParse(payload);
    if (!parsed.success) {
      log(`Ignored a chat message that does not fit the contract on ${topic}`, parsed.error.issues);
      return;
    }
    announcedChat = parsed.data.response.connectRequest ? parsed.data.result.chatId : null;
    try {
      for (const event of chatEventsOf(parsed.data)) actor.send(event);
    } finally {
      announcedChat = null;
    }
  };
  const unsubscribe = chatEvents.subscribe(onBrokerMessage);

  return {
    actor,
    scope: options.scope,
    page,
    send: (event) => actor.send(event),
    stop: () => {
      stopped = true;
      unsubscribe();
      actor.stop();
    },
  };
}

export const selectChatStatus = (snapshot: ChatSnapshot) => snapshot.value as ChatSnapshot['value'];
export const selectOpenChat = (snapshot: ChatSnapshot): ChatUserEntry | null =>
  snapshot.context.chats.find((chat) => chat.chatId === snapshot.context.openChatId) ?? null;
