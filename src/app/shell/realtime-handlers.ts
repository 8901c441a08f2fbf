// What the signed-in app does with each broker message (SPEC §7 "Message broker"), apart from the
// connection itself: `routeBrokerMessage` decides what a message is, these handlers decide what the user
// sees. Free of React and of MQTT so the tests drive them with plain fakes.
import { type BrokerMessageHandlers, routeBrokerMessage } from '../../services/broker-messages';
import type { ChatBrokerMessage } from '../../services/chat-events';
import type { StoredTask } from '../../services/stored-auth';
import type { NotifyOptions } from '../../ui/notify';

/** The app's side effects, handed in by the realtime provider (or a test). */
export interface RealtimeEffects {
  /** Refetch the stored notifications: the database is the mailbox, the message only rings the bell. */
  refreshNotifications(): void;
  /** The chime; a failure is only warned (SPEC §8). */
  playSound(): void;
  /** Sets the notify flag: a dot on the bell until the drawer is opened. */
  markNew(): void;
  toast(options: NotifyOptions): void;
  /** A system notification, shown only when the page is hidden and permission was granted. */
  systemNotification(title: string, options: { body?: string; tag?: string }): void;
  /** Forgets a stored task and returns it (src/services/tasks.ts `removeTask`). */
  removeTask(taskId: string): StoredTask | undefined;
  /** Hands a help-chat message to the chat feature (src/services/chat-events.ts). */
  emitChat(message: ChatBrokerMessage): void;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

/** The toast of a finished task (SPEC §7): "{task name} {status}". */
export function taskToastTitle(taskName: string, status: string | null): string {
  return `${taskName} ${status ?? 'finished'}`;
}

export function createBrokerHandlers(effects: RealtimeEffects): BrokerMessageHandlers {
  return {
    chat: (topic, payload) => effects.emitChat({ topic, payload }),

    notification(message) {
      const taskName = text(message.taskName);
      const isTask = taskName !== null || text(message.taskId) !== null;
      const body = text(message.body) ?? undefined;
      const title =
        text(message.title) ??
        (taskName ? taskToastTitle(taskName, text(message.status)) : 'New notification');
      // A task's notification is announced by its own toast ("{task name} {status}"), not twice.
      if (!isTask) effects.toast({ type: 'notification', title, ...(body ? { description: body } : {}) });
      effects.refreshNotifications();
      effects.playSound();
      effects.markNew();
      effects.systemNotification(title, { body, tag: text(message.notificationId) ?? undefined });
    },

    taskFinished({ taskId, taskName, status, body }) {
      const stored = taskId ? effects.removeTask(taskId) : undefined;
      const name = taskName ?? stored?.name ?? 'Task';
      effects.toast({
        // A paused task (a bulk mail its user paused) is neither done nor failed.
        type: status === 'Completed' ? 'success' : status === 'Paused' ? 'info' : 'error',
        title: taskToastTitle(name, status),
        // The outcome in words ("12,000 changed, 345 skipped."), under the title SPEC §7 fixes.
        ...(body ? { description: body } : {}),
      });
      effects.refreshNotifications();
    },
  };
}

/** How many notification ids are remembered to recognise a message delivered twice. */
const REMEMBERED_IDS = 200;

function notificationIdOf(payload: Uint8Array | string): string | null {
  try {
    const message: unknown = JSON.parse(
      typeof payload === 'string' ? payload : new TextDecoder().decode(payload),
    );
    if (!message || typeof message !== 'object') return null;
    return text((message as Record<string, unknown>).notificationId);
  } catch {
    return null; // routeBrokerMessage logs it
  }
}

/**
 * The broker client's `onMessage`: routes each message to the handlers, once. A notification delivered
 * again (a broker resending after a reconnect) only refreshes the list: no second toast, sound or task
 * toast.
 */
export function createBrokerMessageHandler(
  effects: RealtimeEffects,
): (topic: string, payload: Uint8Array | string) => void {
  const handlers = createBrokerHandlers(effects);
  const seen: string[] = [];
  return (topic, payload) => {
    const id = topic.includes('chatBot') ? null : notificationIdOf(payload);
    if (id !== null) {
      if (seen.includes(id)) {
        effects.refreshNotifications();
        return;
      }
      seen.push(id);
      if (seen.length > REMEMBERED_IDS) seen.shift();
    }
    routeBrokerMessage(topic, payload, handlers);
  };
}
