// The back-office help chats (SPEC §2): `/sellers/help-chats?chatId={id}` for sellers (their own chats,
// the seller endpoints) and `/customers/help-chats?chatId={id}` for admins and staff (all chats). One
// page for both: the shell's chat store knows the user's scope; the open chat is the URL's `chatId`, so
// a toast's See Details link and a reload open the same chat.
import { Box, Card, Grid } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { ChatStore } from '../../services/chat-store';
import { selectOpenChat } from '../../services/chat-store';
import { LoadingState, PageHeader } from '../../ui/page-states';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useHandBack, useManualAnswer } from './api';
import { ChatConversation } from './ChatConversation';
import { ChatList } from './ChatList';
import { useChatSnapshot, useChatStore } from './chat-store-context';
import { BotAnswersButton } from './FaqDrawer';

export const SEARCH_DEBOUNCE_MS = 300;

export default function HelpChatsPage() {
  const store = useChatStore();
  if (!store) return <LoadingState label="Starting the chats" />;
  return <HelpChats store={store} />;
}

function HelpChats({ store }: { store: ChatStore }) {
  const snapshot = useChatSnapshot(store);
  const [location] = useLocation();
  const chatId = new URLSearchParams(useSearch()).get('chatId');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const answer = useManualAnswer();
  const handBack = useHandBack();
  const { context } = snapshot;
  const openChat = selectOpenChat(snapshot);

  useEffect(() => {
    store.send({ type: 'chat.load', query, skip: 0 });
  }, [store, query]);

  useEffect(() => {
    if (chatId && store.actor.getSnapshot().context.openChatId !== chatId) {
      store.send({ type: 'chat.open', chatId });
    } else if (!chatId) {
      store.send({ type: 'chat.close' });
    }
  }, [store, chatId]);

  // Leaving the page closes the chat: its new messages count (and toast) again.
  useEffect(() => () => store.send({ type: 'chat.close' }), [store]);

  const onSend = async (message: string) => {
    if (!chatId) return;
    const result = await answer.mutateAsync({ chatId, message });
    // The broker echoes it too; the store appends a message id once.
    if (result.message && result.chat) {
      store.send({ type: 'chat.manualAnswer', chat: result.chat, message: result.message });
    }
  };

  const onHandBack = () => {
    if (!chatId) return;
    handBack.mutate(chatId, {
      onSuccess: (chat) => {
        const entry = chat ?? (openChat ? { ...openChat, heldBy: null } : null);
        if (entry) store.send({ type: 'chat.handedBack', chat: entry });
      },
    });
  };

  return (
    <Box>
      <PageHeader
        title="Help Chats"
        description="Customers talking to your sales bot, and the ones asking for a person."
        actions={store.scope === 'seller' ? <BotAnswersButton /> : undefined}
      />
      <Grid templateColumns={{ base: '1fr', lg: '22rem 1fr' }} gap="4" alignItems="start">
        <Card.Root data-tour="chat-list">
          <Card.Body>
            <ChatList
              chats={context.chats}
              count={context.count}
              status={snapshot.value}
              search={search}
              query={context.query}
              onSearch={setSearch}
              onLoadMore={() => store.send({ type: 'chat.load', query, skip: context.chats.length })}
              onRefresh={() => store.send({ type: 'chat.load', query, skip: 0 })}
              openChatId={context.openChatId}
              page={location}
            />
          </Card.Body>
        </Card.Root>
        <Card.Root minH="28rem" data-tour="chat-conversation">
          <Card.Body>
            {chatId && context.openChatId === chatId ? (
              <ChatConversation
                key={chatId}
                chatId={chatId}
                chat={openChat}
                messages={context.messages}
                email={context.openSession?.email ?? null}
                historyFailed={context.historyFailed}
                sending={answer.isPending}
                handingBack={handBack.isPending}
                onSend={onSend}
                onHandBack={onHandBack}
              />
            ) : (
              <Box color="fg.muted" p="6" textAlign="center">
                Choose a chat to read it and answer.
              </Box>
            )}
          </Card.Body>
        </Card.Root>
      </Grid>
    </Box>
  );
}
