// Help chats (issue 5; SPEC §3 chat user entry, chat message, source message fields, chat detail; §7
// "Query bot" and "Message broker"): a storefront customer talks to the seller's sales bot, asks for a
// person, and a seller or staff member takes over. Shared by the server, the back-office, the public
// widget and the tests.
import { z } from 'zod';
import { intParam } from './int-param';

/** SPEC §9: the chat user list pages 20 at a time from skip 0. */
export const CHAT_PAGE_SIZE = 20;
/** A chat message's length limit, on both sides of the conversation. */
export const MAX_CHAT_MESSAGE_LENGTH = 1000;
export const MAX_CHAT_NAME_LENGTH = 80;

export const chatSenders = ['User', 'Bot'] as const;
export type ChatSender = (typeof chatSenders)[number];

/** A button the bot offers (menu options, general-reply actions). `value` is what a tap sends. */
export const chatButtonSchema = z.object({ label: z.string(), value: z.string() });
export type ChatButton = z.infer<typeof chatButtonSchema>;

export const generalReplySchema = z.object({ message: z.string(), actions: z.array(chatButtonSchema) });

/**
 * One message of a chat (SPEC §3). `User` is the customer; `Bot` is the seller's side: the bot, or a
 * person answering by hand (`manual`, with their name in `agentName`).
 */
export const chatMessageSchema = z.object({
  id: z.string(),
  sender: z.enum(chatSenders),
  message: z.string(),
  timestamp: z.string(),
  questions: z.array(z.string()).optional(),
  generalReply: generalReplySchema.optional(),
  buttons: z.array(chatButtonSchema).optional(),
  manual: z.boolean().optional(),
  agentName: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** One entry of the chat user list (SPEC §3). */
export const chatUserEntrySchema = z.object({
  chatId: z.string(),
  sessionId: z.string(),
  /** The full name, otherwise the part of the e-mail before the @. */
  username: z.string(),
  email: z.string(),
  lastMessage: z.string(),
  color: z.string(),
  /** The conversation's last message (any sender) and its time. */
  lastInteractionOn: z.string(),
  /**
   * The reader's own: the customer's messages since they last opened the chat (all of them if they
   * never did), and whether the customer asked for a person since then and nobody has answered yet.
   * Opening a chat resets both for that reader only.
   */
  newMessagesCount: z.number().int(),
  connectRequest: z.boolean(),
  /** Who holds the chat (a person answering; the bot is quiet), or null. */
  heldBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  sellerId: z.string(),
});
export type ChatUserEntry = z.infer<typeof chatUserEntrySchema>;

export const chatListQuerySchema = z.object({
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(CHAT_PAGE_SIZE),
  query: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
});
export const chatListSchema = z.object({ result: z.array(chatUserEntrySchema), count: z.number().int() });
export type ChatList = z.infer<typeof chatListSchema>;

/** `getQueryBotChatDetails/{id}` (SPEC §3 chat detail), with the entry it belongs to. */
export const chatDetailSchema = z.object({
  sessionId: z.string(),
  email: z.string(),
  messages: z.array(chatMessageSchema),
  chat: chatUserEntrySchema,
});
export type ChatDetail = z.infer<typeof chatDetailSchema>;

const messageText = z
  .string()
  .trim()
  .min(1, 'Write a message first')
  .max(MAX_CHAT_MESSAGE_LENGTH, `A message must be at most ${MAX_CHAT_MESSAGE_LENGTH} characters`);

/** The seller or staff member answers by hand (this takes the chat over from the bot). */
export const manualAnswerBodySchema = z.object({ message: messageText });

/**
 * SPEC §3 source message fields: what a message on `/chatBot/salesBot/{sellerId}/{sessionId}` carries
 * in `response`. One event each: the bot's welcome or answer, the customer's query (`userQuery`, or
 * `manualQuestion` while a person holds the chat), a person's `manualAnswer`, a `connectRequest`.
 */
export const sourceMessageSchema = z.object({
  welcomeMessage: z.string().optional(),
  chatBotResponse: z.string().optional(),
  userQuery: z.string().optional(),
  manualAnswer: z.string().optional(),
  manualQuestion: z.string().optional(),
  questions: z.array(z.string()).optional(),
  generalReply: generalReplySchema.optional(),
  menuOptions: z.object({ message: z.string(), buttons: z.array(chatButtonSchema) }).optional(),
  connectRequest: z.boolean().optional(),
});
export type SourceMessage = z.infer<typeof sourceMessageSchema>;

/**
 * The broker payload (SPEC §7): `response` is the event, `result` the chat as of the event (its
 * `lastMessage` is the event's message). One payload reaches every reader, so its counts are nobody's
 * in particular (every customer message; a connect request nobody answered): each client keeps its own
 * counts from its list.
 */
export const chatBrokerPayloadSchema = z.object({
  response: sourceMessageSchema,
  result: chatUserEntrySchema,
  message: chatMessageSchema.optional(),
});
export type ChatBrokerPayload = z.infer<typeof chatBrokerPayloadSchema>;

// The public widget (no sign-in; a chat is identified by its sessionId).

export const startChatBodySchema = z.object({
  name: z.string().trim().min(1, 'Enter your name').max(MAX_CHAT_NAME_LENGTH),
  email: z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254),
});
export const widgetMessageBodySchema = z.object({
  sessionId: z.string().uuid('Unknown chat'),
  message: messageText,
});
export const widgetChatSchema = z.object({
  sessionId: z.string(),
  sellerName: z.string(),
  /** A person holds the chat: the bot is quiet. */
  withPerson: z.boolean(),
  messages: z.array(chatMessageSchema),
});
export type WidgetChat = z.infer<typeof widgetChatSchema>;

/** FAQ entries the seller manages (the bot's `questions` and `chatBotResponse`). */
export const chatFaqSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  keywords: z.array(z.string()),
  position: z.number().int(),
});
export type ChatFaq = z.infer<typeof chatFaqSchema>;
export const chatFaqBodySchema = z.object({
  question: z.string().trim().min(3, 'Write the question').max(300),
  answer: z.string().trim().min(1, 'Write the answer').max(MAX_CHAT_MESSAGE_LENGTH),
  keywords: z.array(z.string().trim().toLowerCase().min(2).max(40)).max(20).default([]),
});

/** The back-office chat pages (SPEC §2). */
export const SELLER_HELP_CHATS = '/sellers/help-chats';
export const CUSTOMER_HELP_CHATS = '/customers/help-chats';

// Added with the server module (server/modules/help-chats): the answers of the widget's seller
// lookup, the widget's live stream, the back-office's manual answer and hand-back, and the FAQ list.

/** `GET /api/v1/queryBot/widget/{sellerCode}`. */
export const widgetSellerSchema = z.object({
  sellerName: z.string(),
  /** The chat may start (the shop is active); the bot always answers then. */
  available: z.boolean(),
  /** A person answers now: within the marketplace's office hours (Settings → Communication). */
  personAvailable: z.boolean().optional(),
  /** Outside office hours: when a person will answer. */
  personNotice: z.string().nullable().optional(),
  /** Settings → Website: the launcher's look (public/widget.js and the chat page apply it). */
  look: z
    .object({
      colour: z.string(),
      /** The chosen text colour, or black or white where it would not read on `colour` (WCAG AA). */
      textColour: z.string(),
      greeting: z.string(),
      position: z.enum(['bottom-right', 'bottom-left']),
    })
    .optional(),
});
export type WidgetSeller = z.infer<typeof widgetSellerSchema>;

/**
 * One `message` event of the widget's Server-Sent Events stream
 * (`GET /api/v1/queryBot/widget/{sellerCode}/chats/{sessionId}/events`): every new message of the chat,
 * the customer's own included (dedupe by id), and whether a person now holds the chat.
 */
export const widgetEventSchema = z.object({ message: chatMessageSchema, withPerson: z.boolean() });
export type WidgetEvent = z.infer<typeof widgetEventSchema>;

/** `POST manualAnswer/{id}` and `POST handBack/{id}`: the stored message and the chat as it now stands. */
export const chatEventResultSchema = z.object({ chat: chatUserEntrySchema, message: chatMessageSchema });
export type ChatEventResult = z.infer<typeof chatEventResultSchema>;

/**
 * `GET /api/v1/queryBot/faqs`: the seller's entries, or, while they have none (`usingDefaults`), the
 * built-in defaults the bot answers with (ids `default-N`; adding an entry replaces them all).
 */
export const chatFaqListSchema = z.object({ result: z.array(chatFaqSchema), usingDefaults: z.boolean() });
export type ChatFaqList = z.infer<typeof chatFaqListSchema>;
/** `PATCH /api/v1/queryBot/faqs/{id}`: only the fields given change. */
export const chatFaqPatchBodySchema = z
  .object({
    question: z.string().trim().min(3, 'Write the question').max(300).optional(),
    answer: z.string().trim().min(1, 'Write the answer').max(MAX_CHAT_MESSAGE_LENGTH).optional(),
    keywords: z.array(z.string().trim().toLowerCase().min(2).max(40)).max(20).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Nothing to update',
  });
