// The seller's sales bot (SPEC §3 source message fields): a pure function from the seller's FAQ and
// what the customer typed or tapped to the bot's next messages. No I/O, so it is unit-tested alone
// and the routes only store and publish what it says.
import type { ChatButton, SourceMessage } from '../../../contracts/help-chats';

/** What a "Talk to a person" button sends. */
export const CONNECT_VALUE = '__connect__';
/** What a "Show the menu" button sends. */
export const MENU_VALUE = '__menu__';

export const CONNECTING_MESSAGE =
  'Connecting you with a person… Someone from our team will answer here shortly.';
export const NOT_UNDERSTOOD_MESSAGE =
  'Sorry, I did not get that. You can pick a topic from the menu or talk to a person.';
export const MENU_MESSAGE = 'Pick a topic, or type your question:';
export const HAND_BACK_MESSAGE = 'You are back with our assistant.';

const TALK_TO_PERSON: ChatButton = { label: 'Talk to a person', value: CONNECT_VALUE };
const SHOW_MENU: ChatButton = { label: 'Show the menu', value: MENU_VALUE };
/** How many FAQ questions the menu offers as buttons, and how many related questions an answer lists. */
const MENU_SIZE = 4;
const RELATED_SIZE = 3;
/** The share of the customer's words that must be found in an entry for it to be the answer. */
const MATCH_THRESHOLD = 0.3;

export interface FaqEntry {
  question: string;
  answer: string;
  keywords: string[];
}

/** Extras a stored bot message carries (chat_messages.extras). */
export interface BotMessageExtras {
  questions?: string[];
  generalReply?: { message: string; actions: ChatButton[] };
  buttons?: ChatButton[];
}

/** One message the bot sends: the event to publish (`response`) and the text and extras to store. */
export interface BotTurn {
  response: SourceMessage;
  message: string;
  extras: BotMessageExtras;
}

export interface BotReply {
  turns: BotTurn[];
  /** The customer asked for a person: the chat raises a connect request. */
  connectRequest: boolean;
}

/** Every seller without entries of their own gets these: the bot is never empty. */
export const DEFAULT_FAQS: FaqEntry[] = [
  {
    question: 'How long does shipping take?',
    answer:
      'Orders ship within 2 business days. Delivery usually takes 3–7 days within India; you get a tracking link by e-mail.',
    keywords: ['shipping', 'delivery', 'deliver', 'ship', 'courier', 'dispatch'],
  },
  {
    question: 'What is your return policy?',
    answer:
      'You can return unused items within 14 days of delivery. Write to us with your order number and we arrange the pickup; the refund follows within 5 days of the return.',
    keywords: ['return', 'returns', 'refund', 'exchange', 'replace'],
  },
  {
    question: 'Which payment methods do you accept?',
    answer:
      'We accept UPI, credit and debit cards, net banking and cash on delivery for orders up to ₹5,000.',
    keywords: ['payment', 'pay', 'upi', 'card', 'cod', 'cash'],
  },
  {
    question: 'Where is my order?',
    answer:
      'Your order status and tracking link are in the confirmation e-mail. If it has not moved for 3 days, talk to a person and we will check with the courier.',
    keywords: ['order', 'status', 'track', 'tracking', 'where'],
  },
  {
    question: 'Can I cancel my order?',
    answer:
      'Yes, until it ships. Talk to a person with your order number and we cancel it and refund you in full.',
    keywords: ['cancel', 'cancellation'],
  },
];

const STOP_WORDS = new Set(
  'a an the is are was were be been am i me my you your we our us it its to of in on at for and or do does did can could would should will how what when where which who why this that with from there here please hi hello hey any about have has had get got'.split(
    ' ',
  ),
);

/** Lower case, letters and digits only, without stop words, plurals folded ("returns" → "return"). */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
}

/** How much of the customer's text this entry covers (0–1): the share of their words it contains. */
export function matchScore(text: string, entry: FaqEntry): number {
  const asked = new Set(normaliseWords(text));
  if (asked.size === 0) return 0;
  const known = new Set([...normaliseWords(entry.question), ...entry.keywords.flatMap(normaliseWords)]);
  let found = 0;
  for (const word of asked) if (known.has(word)) found += 1;
  return found / asked.size;
}

/** The entry that answers `text` best, if any passes the threshold (a tapped question matches exactly). */
export function bestMatch(text: string, faqs: FaqEntry[]): FaqEntry | undefined {
  const exact = faqs.find((entry) => entry.question.trim().toLowerCase() === text.trim().toLowerCase());
  if (exact) return exact;
  let best: { entry: FaqEntry; score: number } | undefined;
  for (const entry of faqs) {
    const score = matchScore(text, entry);
    if (score >= MATCH_THRESHOLD && (!best || score > best.score)) best = { entry, score };
  }
  return best?.entry;
}

const PERSON = '(person|human|agent|someone|somebody|representative|people)';
const ASK_FOR_PERSON = new RegExp(
  `\\b(talk|speak|chat|connect)\\b.{0,20}\\b(to|with)\\b.{0,20}\\b${PERSON}\\b`,
);
const ONLY_PERSON = new RegExp(`^(a |an |the |real )*${PERSON}( please)?$`);

/** Whether the customer asks for a person in their own words ("talk to a person", "a human please"). */
export function asksForPerson(text: string): boolean {
  if (text.trim() === CONNECT_VALUE) return true;
  const plain = text
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return ASK_FOR_PERSON.test(plain) || ONLY_PERSON.test(plain);
}

/** What a button's value means, stored as the words the customer saw on it (typed text as typed). */
export function customerText(message: string): string {
  if (message === CONNECT_VALUE) return TALK_TO_PERSON.label;
  if (message === MENU_VALUE) return SHOW_MENU.label;
  return message;
}

/**
 * The bot's texts from Settings → Content (the shop's, else the marketplace's, in the chat's language),
 * as plain text (settings-content/texts.ts); empty means the built-in text.
 */
export interface BotTexts {
  welcome?: string;
  generalReply?: string;
}

export function welcomeText(customerName: string, sellerName: string, configured = ''): string {
  return configured || `Hi ${customerName}! Welcome to ${sellerName}. How can we help?`;
}

function menuTurn(faqs: FaqEntry[]): BotTurn {
  const buttons = [
    ...faqs.slice(0, MENU_SIZE).map((entry) => ({ label: entry.question, value: entry.question })),
    TALK_TO_PERSON,
  ];
  return {
    response: { menuOptions: { message: MENU_MESSAGE, buttons } },
    message: MENU_MESSAGE,
    extras: { buttons },
  };
}

/** The greeting when a chat starts: the welcome message, then the menu with buttons. */
export function startReply(input: {
  customerName: string;
  sellerName: string;
  faqs: FaqEntry[];
  texts?: BotTexts;
}): BotReply {
  const welcome = welcomeText(input.customerName, input.sellerName, input.texts?.welcome);
  return {
    turns: [{ response: { welcomeMessage: welcome }, message: welcome, extras: {} }, menuTurn(input.faqs)],
    connectRequest: false,
  };
}

/**
 * The bot's answer to what the customer typed or tapped. `closedNotice`: outside office hours, what it
 * says to a request for a person instead of "connecting" (when a person will answer).
 */
export function answer(
  text: string,
  faqs: FaqEntry[],
  options: { closedNotice?: string | null; generalReply?: string } = {},
): BotReply {
  if (asksForPerson(text)) {
    const reply = options.closedNotice ?? CONNECTING_MESSAGE;
    return {
      turns: [
        {
          // The connect request travels with the customer's own message (widget-routes.ts), not with
          // this answer: one customer action, one connect request, one toast for the back-office.
          response: { chatBotResponse: reply },
          message: reply,
          extras: {},
        },
      ],
      connectRequest: true,
    };
  }
  if (text.trim() === MENU_VALUE) return { turns: [menuTurn(faqs)], connectRequest: false };

  const match = bestMatch(text, faqs);
  if (match) {
    const others = faqs.filter((entry) => entry !== match);
    const related = others
      .map((entry) => ({ entry, score: matchScore(`${text} ${match.question}`, entry) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, RELATED_SIZE)
      .map(({ entry }) => entry.question);
    return {
      turns: [
        {
          response: { chatBotResponse: match.answer, questions: related },
          message: match.answer,
          extras: { questions: related },
        },
      ],
      connectRequest: false,
    };
  }

  // Settings → Content's general reply (plain text), else the built-in one.
  const notUnderstood = options.generalReply || NOT_UNDERSTOOD_MESSAGE;
  const generalReply = { message: notUnderstood, actions: [SHOW_MENU, TALK_TO_PERSON] };
  return {
    turns: [{ response: { generalReply }, message: notUnderstood, extras: { generalReply } }],
    connectRequest: false,
  };
}
