// The seller's FAQ for their sales bot (SPEC §7 "Query bot"): the entries the bot answers with. While
// the seller has none, the server lists the built-in defaults (ids `default-N`), which cannot be changed
// or removed: the seller's first own entry replaces them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type ChatFaq,
  type ChatFaqList,
  type chatFaqBodySchema,
  chatFaqListSchema,
  chatFaqSchema,
} from '../../../contracts/help-chats';
import { http } from '../../services/http';

const FAQS = '/api/v1/queryBot/faqs';

export type ChatFaqBody = z.output<typeof chatFaqBodySchema>;

export const faqKeys = { all: ['help-chats', 'faqs'] as const };

/** True for the built-in answers the server lists while the seller has none of their own. */
export const isDefaultFaq = (entry: ChatFaq): boolean => entry.id.startsWith('default-');

/** "price, delivery time ," → ["price", "delivery time"]: the form's one field to the body's list. */
export const parseKeywords = (text: string): string[] =>
  text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword !== '');

/** The drawer shows a failed load itself (with a retry), so it is not toasted. */
export async function fetchFaqs(signal?: AbortSignal): Promise<ChatFaqList> {
  const response = await http.get(FAQS, { signal, silent: true });
  return chatFaqListSchema.parse(response.data);
}

/** The dialogs show the server's refusal themselves, so these failures are not toasted either. */
export async function postFaq(body: ChatFaqBody): Promise<ChatFaq> {
  return chatFaqSchema.parse((await http.post(FAQS, body, { silent: true })).data);
}

export async function patchFaq(id: string, body: Partial<ChatFaqBody>): Promise<ChatFaq> {
  const response = await http.patch(`${FAQS}/${encodeURIComponent(id)}`, body, { silent: true });
  return chatFaqSchema.parse(response.data);
}

export async function deleteFaq(id: string): Promise<void> {
  await http.delete(`${FAQS}/${encodeURIComponent(id)}`, { silent: true });
}

/** Fetched only while the drawer is open. */
export const useFaqs = (enabled: boolean) =>
  useQuery({ queryKey: faqKeys.all, queryFn: ({ signal }) => fetchFaqs(signal), enabled });

function useInvalidateFaqs() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: faqKeys.all });
}

/** Adds an entry (no id) or changes one. */
export const useSaveFaq = () => {
  const invalidate = useInvalidateFaqs();
  return useMutation({
    mutationFn: (input: { id?: string; body: ChatFaqBody }) =>
      input.id ? patchFaq(input.id, input.body) : postFaq(input.body),
    onSuccess: invalidate,
  });
};

export const useDeleteFaq = () => {
  const invalidate = useInvalidateFaqs();
  return useMutation({ mutationFn: deleteFaq, onSuccess: invalidate });
};
