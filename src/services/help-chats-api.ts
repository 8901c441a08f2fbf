// The help-chat calls the chat store makes (SPEC §7 "Query bot"): the list, the history and the read
// mark. They live in services because the store (src/services/chat-store.ts) runs in the shell, on every
// page; the help-chats page's own calls stay in src/features/help-chats/api.ts.
import {
  CHAT_PAGE_SIZE,
  type ChatDetail,
  type ChatList,
  CUSTOMER_HELP_CHATS,
  chatDetailSchema,
  chatListSchema,
  SELLER_HELP_CHATS,
} from '../../contracts/help-chats';
import { http } from './http';

/** Sellers see their own chats (the seller endpoints); admins and staff see all of them. */
export type ChatScope = 'seller' | 'all';

export const HELP_CHATS_API = '/api/v1/queryBot';

export const helpChatsPageOf = (scope: ChatScope): string =>
  scope === 'seller' ? SELLER_HELP_CHATS : CUSTOMER_HELP_CHATS;

export const scopeOfPage = (path: string): ChatScope => (path === SELLER_HELP_CHATS ? 'seller' : 'all');

/** The list endpoint for the scope, the search endpoint when there is a query (SPEC §7). */
export function chatListUrl(scope: ChatScope, query: string): string {
  const name =
    scope === 'seller'
      ? query
        ? 'searchSellerQueryBotChats'
        : 'listSellerQueryBotChats'
      : query
        ? 'searchQueryBotChats'
        : 'listQueryBotChats';
  return `${HELP_CHATS_API}/${name}`;
}

/** Failures are logged by the store (SPEC §8), not toasted. */
export async function fetchChatList(scope: ChatScope, query: string, skip: number): Promise<ChatList> {
  const response = await http.get(chatListUrl(scope, query), {
    params: { skip, limit: CHAT_PAGE_SIZE, query: query || undefined },
    silent: true,
  });
  return chatListSchema.parse(response.data);
}

export async function fetchChatDetail(chatId: string): Promise<ChatDetail> {
  const response = await http.get(`${HELP_CHATS_API}/getQueryBotChatDetails/${encodeURIComponent(chatId)}`, {
    silent: true,
  });
  return chatDetailSchema.parse(response.data);
}

/** The reader saw the open chat's new messages as they came (their unread count on the server resets). */
export async function postChatRead(chatId: string): Promise<void> {
  await http.post(`${HELP_CHATS_API}/readQueryBotChat/${encodeURIComponent(chatId)}`, {}, { silent: true });
}
