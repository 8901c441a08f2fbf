// The two pages an e-mail recipient reaches without an account (SPEC §2 public routes): /unsubscribe
// and /responseCollection. Each mail that may carry them gets links signed for its recipient
// (`email` + `token`, and the `campaign` it belongs to), so nobody can unsubscribe or answer for
// someone else. zod/mini: public pages load these (see contracts/auth.ts).
import * as z from 'zod/mini';
import { emailSchema } from './auth';

const tokenSchema = z.string().check(z.minLength(20, 'This link is incomplete'), z.maxLength(200));
/** A campaign (or other mailing) identifier, as chosen by the feature that sends the mail. */
export const campaignSchema = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(100), z.regex(/^[\w.:-]+$/, 'Invalid campaign'));

/** POST /api/v1/helperQuery/method/unsubscribeEmailUser (SPEC §7 Record service). */
export const unsubscribeBodySchema = z.object({ email: emailSchema, token: tokenSchema });
export type UnsubscribeBody = z.infer<typeof unsubscribeBodySchema>;

export const RESPONSE_MAX_LENGTH = 100;
export const COMMENT_MAX_LENGTH = 2000;

/** POST /api/v1/helperQuery/method/collectResponse: a recipient's answer to a campaign mail. */
export const collectResponseBodySchema = z.object({
  email: emailSchema,
  token: tokenSchema,
  campaign: campaignSchema,
  response: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Choose or write an answer'),
      z.maxLength(RESPONSE_MAX_LENGTH, `The answer must be at most ${RESPONSE_MAX_LENGTH} characters`),
    ),
  comment: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(COMMENT_MAX_LENGTH, `The comment must be at most ${COMMENT_MAX_LENGTH} characters`),
      ),
  ),
});
export type CollectResponseBody = z.infer<typeof collectResponseBodySchema>;

/**
 * GET /api/v1/helperQuery/method/responseOptions?email&campaign&token: the answers the campaign offers
 * (the page shows them as choices; no other answer is recorded) and the recipient's current one.
 */
export const responseLinkQuerySchema = z.object({
  email: emailSchema,
  token: tokenSchema,
  campaign: campaignSchema,
});
export type ResponseLinkQuery = z.infer<typeof responseLinkQuerySchema>;
export const responseOptionsSchema = z.object({
  options: z.array(z.string()),
  /** The options as the recipient's mail worded them (its template language), in the same order. */
  labels: z.array(z.string()),
  current: z.nullable(z.string()),
});
export type ResponseOptions = z.infer<typeof responseOptionsSchema>;

export const UNSUBSCRIBED_MESSAGE =
  'You have been unsubscribed. You will not receive these e-mails any more.';
export const RESPONSE_RECORDED_MESSAGE = 'Thank you, your response has been recorded.';
export const INVALID_LINK_MESSAGE = 'This link is not valid. Use the link from your latest e-mail.';
export const CAMPAIGN_GONE_MESSAGE = 'This campaign no longer takes answers.';
/** A response outside the campaign's answers: the link's `response` was edited by hand. */
export const unknownAnswerMessage = (options: readonly string[]) =>
  options.length
    ? `Choose one of the campaign’s answers: ${options.join(', ')}.`
    : 'This campaign asks for no answer.';
