// The customer's side of one help chat: the shop, the session (kept per shop in localStorage so a
// reload resumes it), the messages (deduplicated by id), sending, and the live stream of answers.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../../../contracts/help-chats';
import { ApiError, getErrorMessage } from '../../services/api-error';
import { asWidgetEvent, CONNECT_VALUE, type WidgetApi, type WidgetShop, widgetApi } from './widget-api';
import { messageProblem } from './widget-form';

export type WidgetPhase =
  | { kind: 'loading' }
  /** The shop is unknown or closed, or the page could not load: nothing to do but read the message. */
  | { kind: 'failed'; message: string; retry?: () => void }
  | { kind: 'start'; notice?: string }
  | { kind: 'chat' };

export const storageKey = (sellerCode: string) => `help-chat:${sellerCode}`;

function readSession(sellerCode: string): string | null {
  try {
    return localStorage.getItem(storageKey(sellerCode));
  } catch {
    return null; // storage blocked (e.g. third-party iframe): the chat simply does not survive a reload
  }
}
function writeSession(sellerCode: string, sessionId: string | null): void {
  try {
    if (sessionId) localStorage.setItem(storageKey(sellerCode), sessionId);
    else localStorage.removeItem(storageKey(sellerCode));
  } catch {
    // see readSession
  }
}

/** `incoming` after `current`, skipping ids already there. */
export function appendMessages(current: ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const ids = new Set(current.map((message) => message.id));
  const added = incoming.filter((message) => !ids.has(message.id) && ids.add(message.id));
  return added.length ? [...current, ...added] : current;
}

const LOCAL_PREFIX = 'local-';

/**
 * `current` without this page's in-flight copies of customer messages the server has now stored: the
 * live stream can deliver the stored one before the send's answer does (the bot's reply may take a
 * while), and the customer must not see their message twice meanwhile.
 */
function withoutStoredCopies(current: ChatMessage[], stored: readonly ChatMessage[]): ChatMessage[] {
  let kept = current;
  for (const message of stored) {
    if (message.sender !== 'User' || kept.some((known) => known.id === message.id)) continue;
    const copy = kept.findIndex(
      (known) =>
        known.id.startsWith(LOCAL_PREFIX) && known.sender === 'User' && known.message === message.message,
    );
    if (copy >= 0) kept = kept.filter((_, index) => index !== copy);
  }
  return kept;
}

/** Messages from the server (the live stream) after `current`, each shown once. */
export function receiveMessages(current: ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  return appendMessages(withoutStoredCopies(current, incoming), incoming);
}

/** The stored history, then what this page has that the history does not (in flight, or newer). */
function mergeHistory(current: ChatMessage[], history: readonly ChatMessage[]): ChatMessage[] {
  return appendMessages([...history], withoutStoredCopies(current, history));
}
const RECONNECT_MS = [1000, 2000, 5000, 10_000, 30_000];

interface Dependencies {
  api?: WidgetApi;
  /** The EventSource constructor (tests pass a fake). */
  EventSourceImpl?: typeof EventSource;
}

export function useWidgetChat(sellerCode: string, { api = widgetApi, EventSourceImpl }: Dependencies = {}) {
  const [phase, setPhase] = useState<WidgetPhase>({ kind: 'loading' });
  const [shop, setShop] = useState<WidgetShop | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [withPerson, setWithPerson] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [live, setLive] = useState<'connecting' | 'open' | 'reconnecting'>('connecting');
  const [attempt, setAttempt] = useState(0);
  const localIds = useRef(0);

  const openChat = useCallback(
    (chat: { sessionId: string; withPerson: boolean; messages: ChatMessage[] }) => {
      writeSession(sellerCode, chat.sessionId);
      setSessionId(chat.sessionId);
      setWithPerson(chat.withPerson);
      setMessages(appendMessages([], chat.messages));
      setSendError(null);
      setPhase({ kind: 'chat' });
    },
    [sellerCode],
  );

  // Load the shop, then resume the stored chat if there is one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load on "Try again".
  useEffect(() => {
    let cancelled = false;
    const retry = () => setAttempt((n) => n + 1);
    setPhase({ kind: 'loading' });
    (async () => {
      let shopNow: WidgetShop;
      try {
        shopNow = await api.shop(sellerCode);
        if (cancelled) return;
        setShop(shopNow);
      } catch (error) {
        if (cancelled) return;
        const unknownShop = error instanceof ApiError && error.status === 404;
        return setPhase({
          kind: 'failed',
          message: unknownShop ? 'This chat is not available.' : getErrorMessage(error),
          retry: unknownShop ? undefined : retry,
        });
      }
      const stored = readSession(sellerCode);
      if (!stored) {
        // A chat already going may carry on; a closed shop takes no new ones (the server refuses them).
        return setPhase(
          shopNow.available
            ? { kind: 'start' }
            : { kind: 'failed', message: 'This chat is not available right now.' },
        );
      }
      try {
        const chat = await api.chat(sellerCode, stored);
        if (!cancelled) openChat(chat);
      } catch (error) {
        if (cancelled) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
          writeSession(sellerCode, null);
          return setPhase({ kind: 'start', notice: 'Your previous chat has ended. Start a new one.' });
        }
        setPhase({ kind: 'failed', message: getErrorMessage(error), retry });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [api, sellerCode, openChat, attempt]);

  const start = useCallback(
    async (body: { name: string; email: string }) => openChat(await api.start(sellerCode, body)),
    [api, sellerCode, openChat],
  );

  /** Forget this chat and show the start form again. */
  const startOver = useCallback(() => {
    writeSession(sellerCode, null);
    setSessionId(null);
    setMessages([]);
    setWithPerson(false);
    setSendError(null);
    setPhase({ kind: 'start' });
  }, [sellerCode]);

  /** Sends `text` (typed, or a button's value). Resolves false when it was not sent (the error shows). */
  const send = useCallback(
    async (text: string): Promise<boolean> => {
      if (!sessionId) return false;
      const problem = messageProblem(text);
      if (problem) {
        setSendError(problem);
        return false;
      }
      setSendError(null);
      const local: ChatMessage = {
        id: `${LOCAL_PREFIX}${++localIds.current}`,
        sender: 'User',
        message: text.trim(),
        timestamp: new Date().toISOString(),
      };
      setMessages((current) => [...current, local]);
      const withoutLocal = (current: ChatMessage[]) => current.filter((message) => message.id !== local.id);
      try {
        const answer = await api.send(sellerCode, sessionId, local.message);
        setMessages((current) => appendMessages(withoutLocal(current), answer.messages));
        if (answer.withPerson !== undefined) setWithPerson(answer.withPerson);
        return true;
      } catch (error) {
        setMessages(withoutLocal);
        setSendError(getErrorMessage(error));
        return false;
      }
    },
    [api, sellerCode, sessionId],
  );

  // The live stream: answers from the seller's people (and anything else the server pushes).
  useEffect(() => {
    if (phase.kind !== 'chat' || !sessionId) return;
    const Source = EventSourceImpl ?? globalThis.EventSource;
    if (!Source) return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let hadError = false;
    let closed = false;

    const refetchHistory = () =>
      api.chat(sellerCode, sessionId).then(
        (chat) => {
          if (closed) return;
          setMessages((current) => mergeHistory(current, chat.messages));
          setWithPerson(chat.withPerson);
        },
        () => {}, // the stream keeps going; the next reconnect tries again
      );

    const connect = () => {
      setLive(failures ? 'reconnecting' : 'connecting');
      source = new Source(api.eventsUrl(sellerCode, sessionId));
      source.onopen = () => {
        setLive('open');
        failures = 0;
        // Whatever was said while the stream was down arrives with the history.
        if (hadError) refetchHistory();
        hadError = false;
      };
      source.onmessage = (received: MessageEvent) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(received.data));
        } catch {
          return;
        }
        const event = asWidgetEvent(parsed);
        if (!event) return;
        setMessages((current) => receiveMessages(current, [event.message]));
        if (event.withPerson !== undefined) setWithPerson(event.withPerson);
        else if (event.message.sender === 'Bot') setWithPerson(!!event.message.manual);
      };
      source.onerror = () => {
        hadError = true;
        setLive('reconnecting');
        // CONNECTING: the browser retries by itself. CLOSED (an HTTP error): retry here, backing off.
        if (source?.readyState === 2 && !closed) {
          source.close();
          timer = setTimeout(connect, RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]);
        }
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [api, sellerCode, sessionId, phase.kind, EventSourceImpl]);

  return {
    phase,
    shop,
    sessionId,
    messages,
    withPerson,
    waitingForPerson: !withPerson && isWaitingForPerson(messages),
    sendError,
    live,
    start,
    startOver,
    send,
  };
}

/** The customer asked for a person, and no person has written since. */
export function isWaitingForPerson(messages: readonly ChatMessage[]): boolean {
  const asked = messages.findLastIndex((m) => m.sender === 'User' && isConnectText(m.message, messages));
  const answered = messages.findLastIndex((m) => m.sender === 'Bot' && m.manual);
  return asked >= 0 && asked > answered;
}

function isConnectText(text: string, messages: readonly ChatMessage[]): boolean {
  return text === CONNECT_VALUE || labelOfValue(CONNECT_VALUE, messages) === text;
}

/** The label of the button that sends `value`, from the buttons offered in `messages`. */
export function labelOfValue(value: string, messages: readonly ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    const buttons = [...(message?.buttons ?? []), ...(message?.generalReply?.actions ?? [])];
    const found = buttons.find((button) => button.value === value);
    if (found) return found.label;
  }
  return value === CONNECT_VALUE ? 'Talk to a person' : undefined;
}
