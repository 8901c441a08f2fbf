// The follow-up reminder (server/modules/queries/follow-ups.ts) is a stored notification published on
// the assignee's topic, which every open tab of theirs subscribes to: each tab's broker handler turns it
// into a toast, with no code of the queries feature. This pins that path for the reminder's message.
import { describe, expect, it, vi } from 'vitest';
import { createBrokerMessageHandler, type RealtimeEffects } from '../../app/shell/realtime-handlers';

const reminder = {
  type: 'NOTIFICATION',
  notificationId: 'n-7',
  title: 'Follow-up due: Q-12 Where is my order?',
  body: 'Meera: ask for the tracking number',
  link: '/queries/queries-request/0b6f8c1e-8a8e-4d3b-9a0e-2f1f5b6f7a10',
};

function tab() {
  const effects = {
    refreshNotifications: vi.fn(),
    playSound: vi.fn(),
    markNew: vi.fn(),
    toast: vi.fn(),
    systemNotification: vi.fn(),
    removeTask: vi.fn(),
    emitChat: vi.fn(),
  } satisfies RealtimeEffects;
  return { effects, onMessage: createBrokerMessageHandler(effects) };
}

describe('the follow-up reminder', () => {
  it('is a toast in every open tab, and refreshes the stored notifications (the inbox follows them)', () => {
    const tabs = [tab(), tab()];
    for (const { onMessage } of tabs)
      onMessage('mp_u-1_message', new TextEncoder().encode(JSON.stringify(reminder)));
    for (const { effects } of tabs) {
      expect(effects.toast).toHaveBeenCalledWith({
        type: 'notification',
        title: reminder.title,
        description: reminder.body,
      });
      expect(effects.refreshNotifications).toHaveBeenCalled();
    }
  });
});
