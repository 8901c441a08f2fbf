// The help-chats calls (SPEC §7 "Query bot"). The list and the history are fetched by the chat store
// (src/services/chat-store.ts), which keeps them in its statechart; the page's own calls are the two a
// person makes: answering by hand and handing the chat back to the bot.
import { useMutation } from '@tanstack/react-query';
import {
  CHAT_PAGE_SIZE,
  type ChatDetail,
  type ChatList,
  type ChatMessage,
  type ChatUserEntry,
  CUSTOMER_HELP_CHATS,
  chatDetailSchema,
  chatListSchema,
  chatMessageSchema,
  chatUserEntrySchema,
  SELLER_HELP_CHATS,
} from '../../../contracts/help-chats';
import { http } from '../../services/http';

/** Sellers see their own chats (the seller endpoints); admins and staff see all of them. */
export type ChatScope = 'seller' | 'all';

const BASE = '/api/v1/queryBot';

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
  return `${BASE}/${name}`;
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
  const response = await http.get(`${BASE}/getQueryBotChatDetails/${encodeURIComponent(chatId)}`, {
    silent: true,
  });
  return chatDetailSchema.parse(response.data);
}

/** The reader saw the open chat's new messages as they came (their unread count on the server resets). */
export async function postChatRead(chatId: string): Promise<void> {
  await http.post(`${BASE}/readQueryBotChat/${encodeURIComponent(chatId)}`, {}, { silent: true });
}

/** What a manual answer's POST may answer with: the stored message and the entry, when the server says. */
export interface ManualAnswerResult {
  message: ChatMessage | null;
  chat: ChatUserEntry | null;
}

function pick<T>(schema: { safeParse: (value: unknown) => { success: boolean; data?: T } }, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success ? (parsed.data as T) : null;
}

/** Both calls toast their failure through the HTTP client. */
export async function postManualAnswer(chatId: string, message: string): Promise<ManualAnswerResult> {
  const response = await http.post(`${BASE}/manualAnswer/${encodeURIComponent(chatId)}`, { message });
  const data = (response.data ?? {}) as Record<string, unknown>;
  return { message: pick(chatMessageSchema, data.message), chat: pick(chatUserEntrySchema, data.chat) };
}

export async function postHandBack(chatId: string): Promise<ChatUserEntry | null> {
  const response = await http.post(`${BASE}/handBack/${encodeURIComponent(chatId)}`, {});
  const data = (response.data ?? {}) as Record<string, unknown>;
  return pick(chatUserEntrySchema, data.chat ?? data);
}

export const useManualAnswer = () =>
  useMutation({
    mutationFn: (input: { chatId: string; message: string }) => postManualAnswer(input.chatId, input.message),
  });

export const useHandBack = () => useMutation({ mutationFn: (chatId: string) => postHandBack(chatId) });
