// Starts the help-chat store for users who may view help chats (SPEC §7: topics containing chatBot go to
// the chat store), so its toasts fire on every page; the help-chats page reads the same store.
import { type ReactNode, useEffect, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { CUSTOMER_HELP_CHATS, SELLER_HELP_CHATS } from '../../../contracts/help-chats';
import { canOpenRoute } from '../../../contracts/routes';
import { ChatStoreContext } from '../../features/help-chats/chat-store-context';
import { type ChatStore, startChatStore } from '../../services/chat-store';
import { useCurrentUser, useSidebar } from '../../services/session-queries';

export function ChatStoreProvider({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const sidebar = useSidebar();
  const isSeller = user.data?.isSeller ?? false;
  const page = isSeller ? SELLER_HELP_CHATS : CUSTOMER_HELP_CHATS;
  const allowed = Boolean(sidebar.data && user.data && canOpenRoute(page, sidebar.data.permissions));
  const [store, setStore] = useState<ChatStore | null>(null);

  useEffect(() => {
    if (!allowed) return;
    const started = startChatStore({ scope: isSeller ? 'seller' : 'all', navigate: (to) => navigate(to) });
    setStore(started);
    return () => {
      started.stop();
      setStore(null);
    };
  }, [allowed, isSeller]);

  return <ChatStoreContext.Provider value={store}>{children}</ChatStoreContext.Provider>;
}
