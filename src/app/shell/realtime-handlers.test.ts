import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleTaskResponse, removeTask, resetTasks, taskStore } from '../../services/tasks';
import { createBrokerMessageHandler, type RealtimeEffects, taskToastTitle } from './realtime-handlers';

const TOPIC = 'mp_u-1_message';
const encode = (message: unknown) => new TextEncoder().encode(JSON.stringify(message));

function fakeEffects() {
  const effects = {
    refreshNotifications: vi.fn(),
    playSound: vi.fn(),
    markNew: vi.fn(),
    toast: vi.fn(),
    systemNotification: vi.fn(),
    removeTask: vi.fn(removeTask),
    emitChat: vi.fn(),
  } satisfies RealtimeEffects;
  return { effects, onMessage: createBrokerMessageHandler(effects) };
}

afterEach(() => resetTasks());

describe('a finished task (SPEC §7)', () => {
  it('toasts "{task name} {status}": success when Completed, and leaves the stored tasks', () => {
    handleTaskResponse({ taskStatus: { taskId: 't-1', taskName: 'Sellers export', status: 'Queued' } });
    const { effects, onMessage } = fakeEffects();
    onMessage(
      TOPIC,
      encode({ type: 'NOTIFICATION', taskId: 't-1', taskName: 'Sellers export', status: 'Completed' }),
    );
    expect(effects.toast).toHaveBeenCalledTimes(1);
    expect(effects.toast).toHaveBeenCalledWith({ type: 'success', title: 'Sellers export Completed' });
    expect(taskStore.getSnapshot().tasks).toEqual({});
    expect(effects.refreshNotifications).toHaveBeenCalled();
  });

  it("shows the task's outcome (the notification's body) under the title", () => {
    const { effects, onMessage } = fakeEffects();
    onMessage(
      TOPIC,
      encode({
        type: 'NOTIFICATION',
        taskId: 't-3',
        taskName: 'Bulk status change',
        status: 'Completed',
        title: 'Bulk status change is done',
        body: '12,000 changed, 345 skipped.',
      }),
    );
    expect(effects.toast).toHaveBeenCalledTimes(1);
    expect(effects.toast).toHaveBeenCalledWith({
      type: 'success',
      title: 'Bulk status change Completed',
      description: '12,000 changed, 345 skipped.',
    });
  });

  it('any other status is an error toast', () => {
    const { effects, onMessage } = fakeEffects();
    onMessage(
      TOPIC,
      encode({ type: 'NOTIFICATION', taskId: 't-2', taskName: 'Sellers export', status: 'Failed' }),
    );
    expect(effects.toast).toHaveBeenCalledWith({ type: 'error', title: 'Sellers export Failed' });
  });

  it('takes the name from the stored task when the message has none', () => {
    handleTaskResponse({ taskStatus: { taskId: 42, taskName: 'Tag publish', status: 'Queued' } });
    const { effects, onMessage } = fakeEffects();
    onMessage(TOPIC, encode({ taskId: 42, status: 'Completed' }));
    expect(effects.removeTask).toHaveBeenCalledWith('42');
    expect(effects.toast).toHaveBeenCalledWith({ type: 'success', title: 'Tag publish Completed' });
    // Not of type NOTIFICATION: no chime, no dot.
    expect(effects.playSound).not.toHaveBeenCalled();
    expect(effects.markNew).not.toHaveBeenCalled();
  });

  it('words a missing status', () => {
    expect(taskToastTitle('Sellers export', null)).toBe('Sellers export finished');
  });
});

describe('a notification', () => {
  it('without a task: a notification toast with its title, the list refetched, the chime and the dot', () => {
    const { effects, onMessage } = fakeEffects();
    onMessage(
      TOPIC,
      encode({
        type: 'NOTIFICATION',
        notificationId: 'n-1',
        title: 'KYC approved',
        body: 'Seller SEL-1 is active',
      }),
    );
    expect(effects.toast).toHaveBeenCalledWith({
      type: 'notification',
      title: 'KYC approved',
      description: 'Seller SEL-1 is active',
    });
    expect(effects.refreshNotifications).toHaveBeenCalledTimes(1);
    expect(effects.playSound).toHaveBeenCalledTimes(1);
    expect(effects.markNew).toHaveBeenCalledTimes(1);
    expect(effects.systemNotification).toHaveBeenCalledWith('KYC approved', {
      body: 'Seller SEL-1 is active',
      tag: 'n-1',
    });
  });

  it('of a task: only the task toast, but still the refetch, chime, dot and system notification', () => {
    const { effects, onMessage } = fakeEffects();
    onMessage(
      TOPIC,
      encode({
        type: 'NOTIFICATION',
        notificationId: 'n-2',
        title: 'Sellers export is ready',
        taskId: 't-9',
        taskName: 'Sellers export',
        status: 'Completed',
      }),
    );
    expect(effects.toast.mock.calls.map(([options]) => options)).toEqual([
      { type: 'success', title: 'Sellers export Completed' },
    ]);
    expect(effects.playSound).toHaveBeenCalledTimes(1);
    expect(effects.markNew).toHaveBeenCalledTimes(1);
    expect(effects.refreshNotifications).toHaveBeenCalled();
    expect(effects.systemNotification).toHaveBeenCalledWith('Sellers export is ready', { tag: 'n-2' });
  });

  it('delivered twice is announced once; the second only refetches', () => {
    const { effects, onMessage } = fakeEffects();
    const message = encode({ type: 'NOTIFICATION', notificationId: 'n-3', title: 'Hello' });
    onMessage(TOPIC, message);
    onMessage(TOPIC, message);
    expect(effects.toast).toHaveBeenCalledTimes(1);
    expect(effects.playSound).toHaveBeenCalledTimes(1);
    expect(effects.refreshNotifications).toHaveBeenCalledTimes(2);
  });

  it('lead-product topics are ignored and bad JSON is dropped without effects', () => {
    const { effects, onMessage } = fakeEffects();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    onMessage('mp_leads_product', encode({ type: 'NOTIFICATION', title: 'x' }));
    onMessage(TOPIC, 'not json');
    for (const effect of Object.values(effects)) expect(effect).not.toHaveBeenCalled();
  });
});

describe('a chat message', () => {
  it('goes to the chat events with its topic, and nothing else happens', () => {
    const { effects, onMessage } = fakeEffects();
    const topic = '/chatBot/salesBot/s-1/session-9';
    onMessage(topic, encode({ manualQuestion: 'Where is my order?', notificationId: 'n-1' }));
    onMessage(topic, encode({ manualQuestion: 'Where is my order?', notificationId: 'n-1' }));
    expect(effects.emitChat).toHaveBeenCalledTimes(2);
    expect(effects.emitChat).toHaveBeenCalledWith({
      topic,
      payload: { manualQuestion: 'Where is my order?', notificationId: 'n-1' },
    });
    expect(effects.toast).not.toHaveBeenCalled();
    expect(effects.refreshNotifications).not.toHaveBeenCalled();
  });
});
