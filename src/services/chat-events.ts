// The broker's help-chat messages (topics containing `chatBot`, SPEC §7 "go to the chat store"), handed
// from the shell's broker client to whoever follows them: the help-chats feature subscribes here. A plain
// EventTarget, so the broker side needs no React and no knowledge of the chat store, and a listener that
// throws is reported by the platform without stopping the others.

export interface ChatBrokerMessage {
  /** The broker topic, e.g. `/chatBot/salesBot/{sellerId}/{sessionId}`. */
  topic: string;
  /** The message as decoded JSON (the chat feature validates it). */
  payload: unknown;
}

export type ChatListener = (message: ChatBrokerMessage) => void;

const EVENT = 'chat-message';
const target = new EventTarget();

export const chatEvents = {
  emit(message: ChatBrokerMessage): void {
    target.dispatchEvent(new CustomEvent<ChatBrokerMessage>(EVENT, { detail: message }));
  },
  /** Calls `listener` for every chat message from now on; returns the unsubscribe function. */
  subscribe(listener: ChatListener): () => void {
    const handle = (event: Event) => listener((event as CustomEvent<ChatBrokerMessage>).detail);
    target.addEventListener(EVENT, handle);
    return () => target.removeEventListener(EVENT, handle);
  },
};
