// The chat user list (SPEC §3 chat user entry): avatar in the chat's colour, username, last message,
// relative time, the unread counter and a connect-request badge; search and "Load more" (pages of 20).
import { Badge, Box, Button, Flex, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { Link as RouterLink } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import type { ChatUserEntry } from '../../../contracts/help-chats';
import { relativeTime } from '../../lib/relative-time';
import { EmptyMessage, LoadingState } from '../../ui/page-states';

export interface ChatListProps {
  chats: ChatUserEntry[];
  count: number;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  /** What the search box holds. */
  search: string;
  /** The search the listed chats answer ('' for all chats). */
  query: string;
  onSearch: (value: string) => void;
  onLoadMore: () => void;
  /** Loads the first page again (e.g. after a failed load). */
  onRefresh: () => void;
  openChatId: string | null;
  /** The page's path, for each entry's `?chatId=` link. */
  page: string;
}

export const unreadBadgeLabel = (count: number) => plural(count, 'new message');
export const noMatchTitle = (query: string) => `No chats match “${query}”.`;

/** Why the list is empty: the load failed, the search found nothing, or no customer wrote yet. */
function emptyText(status: ChatListProps['status'], query: string) {
  if (status === 'failed')
    return { title: 'Chats could not be loaded', description: 'Try again in a moment.' };
  if (query) {
    return { title: noMatchTitle(query), description: 'Search looks at names, e-mails and last messages.' };
  }
  return { title: 'No chats yet', description: 'Chats appear here when customers write.' };
}

function ChatAvatar({ chat }: { chat: ChatUserEntry }) {
  return (
    <Flex
      aria-hidden
      flexShrink={0}
      w="9"
      h="9"
      rounded="full"
      align="center"
      justify="center"
      color="white"
      fontWeight="bold"
      style={{ background: chat.color }}
    >
      {chat.username.slice(0, 1).toUpperCase()}
    </Flex>
  );
}

function ChatEntry({ chat, open, page }: { chat: ChatUserEntry; open: boolean; page: string }) {
  return (
    <RouterLink
      href={`${page}?chatId=${encodeURIComponent(chat.chatId)}`}
      aria-current={open ? 'true' : undefined}
      data-chat-id={chat.chatId}
    >
      <Flex gap="3" p="3" rounded="md" bg={open ? 'bg.emphasized' : undefined} _hover={{ bg: 'bg.muted' }}>
        <ChatAvatar chat={chat} />
        <Box flex="1" minW="0">
          <Flex justify="space-between" gap="2">
            <Text fontWeight="semibold" truncate data-testid="chat-username">
              {chat.username}
            </Text>
            <Text fontSize="xs" color="fg.muted" flexShrink={0}>
              {relativeTime(chat.lastInteractionOn)}
            </Text>
          </Flex>
          <Flex justify="space-between" gap="2" align="center">
            <Text fontSize="sm" color="fg.muted" truncate data-testid="chat-last-message">
              {chat.lastMessage}
            </Text>
            <Flex gap="1" flexShrink={0}>
              {chat.connectRequest ? <Badge colorPalette="orange">Connect request</Badge> : null}
              {chat.newMessagesCount > 0 ? (
                <Badge
                  colorPalette="brand"
                  variant="solid"
                  rounded="full"
                  aria-label={unreadBadgeLabel(chat.newMessagesCount)}
                  data-testid="chat-unread"
                >
                  {chat.newMessagesCount}
                </Badge>
              ) : null}
            </Flex>
          </Flex>
        </Box>
      </Flex>
    </RouterLink>
  );
}

export function ChatList(props: ChatListProps) {
  const { chats, count, status, openChatId, page } = props;
  return (
    <Stack gap="3" h="full">
      <Flex gap="2">
        <Input
          type="search"
          placeholder="Search chats"
          aria-label="Search chats"
          value={props.search}
          maxLength={100}
          onChange={(event) => props.onSearch(event.target.value)}
        />
        <IconButton aria-label="Refresh chats" variant="outline" onClick={props.onRefresh}>
          <RefreshCw aria-hidden />
        </IconButton>
      </Flex>
      {status === 'loading' && chats.length === 0 ? (
        <LoadingState label="Loading chats" />
      ) : chats.length === 0 ? (
        <EmptyMessage {...emptyText(status, props.query)} />
      ) : (
        <Stack as="ul" gap="1" aria-label="Chats" listStyleType="none">
          {chats.map((chat) => (
            <li key={chat.chatId}>
              <ChatEntry chat={chat} open={chat.chatId === openChatId} page={page} />
            </li>
          ))}
        </Stack>
      )}
      {chats.length < count ? (
        <Button variant="outline" onClick={props.onLoadMore} loading={status === 'loading'}>
          Load more
        </Button>
      ) : null}
    </Stack>
  );
}
