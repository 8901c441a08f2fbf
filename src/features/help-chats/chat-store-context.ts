// The shell's chat store, for the help-chats page (null for users who may not view help chats).
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { ChatSnapshot, ChatStore } from '../../services/chat-store';

export const ChatStoreContext = createContext<ChatStore | null>(null);

export const useChatStore = (): ChatStore | null => useContext(ChatStoreContext);

/** The store's current snapshot, re-rendering on every change. */
export function useChatSnapshot(store: ChatStore): ChatSnapshot {
  const subscribe = useCallback(
    (listener: () => void) => {
      const subscription = store.actor.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    [store],
  );
  return useSyncExternalStore(subscribe, () => store.actor.getSnapshot());
}
