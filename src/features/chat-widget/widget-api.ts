// The public help-chat endpoints (no sign-in; a chat is its sessionId), through the public pages' fetch
// (services/public-api.ts). Answers are shape-checked by hand (see widget-form.ts for why not the
// classic-zod contract).
import { isHexColour } from '../../../contracts/domain/colour-contrast';
import type { ChatButton, ChatMessage, WidgetChat, WidgetSeller } from '../../../contracts/help-chats';
import { isRecord, publicApi, unexpectedAnswer as unexpected } from '../../services/public-api';

export const WIDGET_BASE = '/api/v1/queryBot/widget';

/** What a button tap sends to ask for a person (the bot's "Talk to a person"). */
export const CONNECT_VALUE = '__connect__';

/** Settings → Website: the launcher's look, which the chat page takes on too. */
export type WidgetLook = NonNullable<WidgetSeller['look']>;

export interface WidgetShop {
  sellerName: string;
  /** Whether the shop's chat is open (the bot always answers then). */
  available: boolean;
  /** Whether a person answers now: within the marketplace's office hours (Settings → Communication). */
  personAvailable: boolean;
  /** Outside office hours: when a person will answer ("Our team answers from Monday 09:00 …"). */
  personNotice: string | null;
  /** Null from an older server or when malformed: the page keeps the app's own colours. */
  look: WidgetLook | null;
}

const shopPath = (sellerCode: string) => `${WIDGET_BASE}/${encodeURIComponent(sellerCode)}`;
const chatPath = (sellerCode: string, sessionId: string) =>
  `${shopPath(sellerCode)}/chats/${encodeURIComponent(sessionId)}`;

const request = publicApi({
  unreachable: 'Could not reach the chat. Check your connection and try again.',
  tooMany: 'Too many messages. Please wait a moment and try again.',
});

export const widgetApi = {
  shop: (sellerCode: string) => request('GET', shopPath(sellerCode)).then(asShop),
  start: (sellerCode: string, body: { name: string; email: string }) =>
    request('POST', `${shopPath(sellerCode)}/start`, body).then(asWidgetChat),
  /** The new messages (the customer's as stored, and the bot's answer unless a person holds the chat). */
  send: (sellerCode: string, sessionId: string, message: string) =>
    request('POST', `${shopPath(sellerCode)}/messages`, { sessionId, message }).then(asSendAnswer),
  chat: (sellerCode: string, sessionId: string) =>
    request('GET', chatPath(sellerCode, sessionId)).then(asWidgetChat),
  eventsUrl: (sellerCode: string, sessionId: string) => `${chatPath(sellerCode, sessionId)}/events`,
};
export type WidgetApi = typeof widgetApi;

function asButtons(value: unknown): ChatButton[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (button): button is ChatButton =>
      isRecord(button) && typeof button.label === 'string' && typeof button.value === 'string',
  );
}

/** A chat message, or null when the value is not one (a malformed event is dropped, not shown). */
export function asChatMessage(value: unknown): ChatMessage | null {
  if (!isRecord(value)) return null;
  const { id, sender, message, timestamp } = value;
  if (typeof id !== 'string' || typeof message !== 'string') return null;
  if (sender !== 'User' && sender !== 'Bot') return null;
  const result: ChatMessage = {
    id,
    sender,
    message,
    timestamp: typeof timestamp === 'string' ? timestamp : '',
  };
  if (Array.isArray(value.questions))
    result.questions = value.questions.filter((q): q is string => typeof q === 'string');
  const buttons = asButtons(value.buttons);
  if (buttons) result.buttons = buttons;
  if (isRecord(value.generalReply) && typeof value.generalReply.message === 'string')
    result.generalReply = {
      message: value.generalReply.message,
      actions: asButtons(value.generalReply.actions) ?? [],
    };
  if (value.manual === true) result.manual = true;
  if (typeof value.agentName === 'string') result.agentName = value.agentName;
  return result;
}

function asMessageList(value: unknown): ChatMessage[] {
  if (!Array.isArray(value)) return unexpected(value);
  return value.map(asChatMessage).filter((message): message is ChatMessage => message !== null);
}

function asShop(data: unknown): WidgetShop {
  if (!isRecord(data) || typeof data.sellerName !== 'string') return unexpected(data);
  const available = data.available !== false;
  return {
    sellerName: data.sellerName,
    available,
    // An older server says nothing of office hours: a person is as available as the chat.
    personAvailable: available && data.personAvailable !== false,
    personNotice: typeof data.personNotice === 'string' ? data.personNotice : null,
    look: asLook(data.look),
  };
}

/** The colours must be #rrggbb: they go into the page's styles and its contrast check. */
function asLook(value: unknown): WidgetLook | null {
  if (!isRecord(value) || !isHexColour(value.colour) || !isHexColour(value.textColour)) return null;
  return {
    colour: value.colour,
    textColour: value.textColour,
    greeting: typeof value.greeting === 'string' ? value.greeting : '',
    position: value.position === 'bottom-left' ? 'bottom-left' : 'bottom-right',
  };
}

function asWidgetChat(data: unknown): WidgetChat {
  if (!isRecord(data) || typeof data.sessionId !== 'string') return unexpected(data);
  return {
    sessionId: data.sessionId,
    sellerName: typeof data.sellerName === 'string' ? data.sellerName : '',
    withPerson: data.withPerson === true,
    messages: asMessageList(data.messages),
  };
}

function asSendAnswer(data: unknown): { messages: ChatMessage[]; withPerson?: boolean } {
  if (!isRecord(data)) return unexpected(data);
  const messages = asMessageList(data.messages);
  return typeof data.withPerson === 'boolean' ? { messages, withPerson: data.withPerson } : { messages };
}

/**
 * One event of the live stream: `{ message, withPerson }` (contracts/help-chats.ts `widgetEventSchema`);
 * a bare ChatMessage is accepted too. Null when the data is neither (dropped, not shown).
 */
export function asWidgetEvent(data: unknown): { message: ChatMessage; withPerson?: boolean } | null {
  if (isRecord(data) && isRecord(data.message)) {
    const message = asChatMessage(data.message);
    if (!message) return null;
    return typeof data.withPerson === 'boolean' ? { message, withPerson: data.withPerson } : { message };
  }
  const message = asChatMessage(data);
  return message ? { message } : null;
}
