// The widget's own validation, in zod/mini: the chat page loads inside storefronts and must stay light,
// and contracts/help-chats.ts is classic zod (about 25 kB gzip more). widget-form.test.ts checks that
// these rules and messages agree with the contract's `startChatBodySchema` and `widgetMessageBodySchema`.
import * as z from 'zod/mini';
import { emailSchema } from '../../../contracts/auth';

/** The same limits as contracts/help-chats.ts (a value import from there would pull classic zod in). */
export const MAX_MESSAGE_LENGTH = 1000;
export const MAX_NAME_LENGTH = 80;

export const startFormSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter your name'),
      z.maxLength(MAX_NAME_LENGTH, `Your name must be at most ${MAX_NAME_LENGTH} characters`),
    ),
  email: emailSchema,
});
export type StartForm = z.infer<typeof startFormSchema>;

/** The first problem of each start-form field, or the cleaned values. */
export function validateStartForm(
  input: StartForm,
): { ok: true; value: StartForm } | { ok: false; errors: Partial<Record<keyof StartForm, string>> } {
  const parsed = z.safeParse(startFormSchema, input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: Partial<Record<keyof StartForm, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof StartForm;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** Why a message cannot be sent, or null when it can. */
export function messageProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return 'Write a message first';
  if (trimmed.length > MAX_MESSAGE_LENGTH)
    return `A message must be at most ${MAX_MESSAGE_LENGTH} characters`;
  return null;
}
