// The help-chats calls (SPEC §7 "Query bot"). The list and the history are fetched by the chat store
// (src/services/chat-store.ts, through src/services/help-chats-api.ts), which keeps them in its
// statechart; the page's own calls are the two a person makes: answering by hand and handing the chat
// back to the bot.
import { useMutation } from '@tanstack/react-query';
import {
  type ChatMessage,
  type ChatUserEntry,
  chatMessageSchema,
  chatUserEntrySchema,
} from '../../../contracts/help-chats';
import { HELP_CHATS_API } from '../../services/help-chats-api';
import { http } from '../../services/http';

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
  const response = await http.post(`${HELP_CHATS_API}/manualAnswer/${encodeURIComponent(chatId)}`, {
    message,
  });
  const data = (response.data ?? {}) as Record<string, unknown>;
  return { message: pick(chatMessageSchema, data.message), chat: pick(chatUserEntrySchema, data.chat) };
}

export async function postHandBack(chatId: string): Promise<ChatUserEntry | null> {
  const response = await http.post(`${HELP_CHATS_API}/handBack/${encodeURIComponent(chatId)}`, {});
  const data = (response.data ?? {}) as Record<string, unknown>;
  return pick(chatUserEntrySchema, data.chat ?? data);
}

export const useManualAnswer = () =>
  useMutation({
    mutationFn: (input: { chatId: string; message: string }) => postManualAnswer(input.chatId, input.message),
  });

export const useHandBack = () => useMutation({ mutationFn: (chatId: string) => postHandBack(chatId) });
