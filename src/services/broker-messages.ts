// Where a broker message goes (SPEC §7 "Message broker"), decided in one place. Messages are JSON:
// - a topic containing `chatBot` goes to the chat store (the help-chats feature consumes it);
// - a topic containing `leads_product` is ignored;
// - a message of type NOTIFICATION adds a notification (the handler refetches the stored list, plays
//   the sound and sets the notify flag);
// - a message with `taskName` or `taskId` also finishes that task: it leaves the stored tasks and a
//   toast "{task name} {status}" shows, success when the status is Completed and error otherwise.
// A message that is not JSON is logged and dropped: one bad publisher must not break the client.

/** What the app does with each kind of message; the shell provides these. */
export interface BrokerMessageHandlers {
  chat(topic: string, payload: unknown): void;
  notification(message: Record<string, unknown>): void;
  /**
   * `taskName` may be missing: the stored task under `taskId` then names the toast. `body`, when the
   * message has one, is the task's outcome in words ("12,000 changed, 345 skipped.").
   */
  taskFinished(task: {
    taskId: string | null;
    taskName: string | null;
    status: string | null;
    body?: string;
  }): void;
}

export type RoutedAs = 'chat' | 'ignored' | 'notification' | 'task' | 'notification+task' | 'invalid';

function decode(payload: Uint8Array | string): unknown {
  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return JSON.parse(text);
}

const asText = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** Routes one message; returns what it was taken for (the tests and the logs use it). */
export function routeBrokerMessage(
  topic: string,
  payload: Uint8Array | string,
  handlers: BrokerMessageHandlers,
): RoutedAs {
  if (topic.includes('leads_product')) return 'ignored';
  let message: unknown;
  try {
    message = decode(payload);
  } catch {
    console.warn(`Broker message on ${topic} is not JSON; dropped.`);
    return 'invalid';
  }
  if (topic.includes('chatBot')) {
    handlers.chat(topic, message);
    return 'chat';
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return 'invalid';
  const record = message as Record<string, unknown>;
  const isNotification = record.type === 'NOTIFICATION';
  if (isNotification) handlers.notification(record);
  const taskId = asText(record.taskId);
  const taskName = asText(record.taskName);
  if (taskId === null && taskName === null) return isNotification ? 'notification' : 'invalid';
  const body = asText(record.body);
  handlers.taskFinished({ taskId, taskName, status: asText(record.status), ...(body ? { body } : {}) });
  return isNotification ? 'notification+task' : 'task';
}
