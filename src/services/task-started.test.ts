// A quick export: its completion can come over the broker before the HTTP answer that started it. The
// user must then see "… Completed" alone — never "… started" after it — and the task must not stay
// "running". Driven through the real http client (its task handler) and the real broker handlers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { taskAcceptedSchema } from '../../contracts/notifications';
import { createBrokerMessageHandler, type RealtimeEffects } from '../app/shell/realtime-handlers';
import { configureHttp, http } from './http';
import { handleTaskResponse, removeTask, resetTasks, taskStore } from './tasks';
import { createFakeAdapter } from './testing/fake-adapter';

const shown: string[] = [];
vi.mock('../ui/notify', () => ({
  notify: (toast: { title: string }) => {
    shown.push(toast.title);
    return `toast-${shown.length}`;
  },
}));

const { notifyTaskStarted } = await import('./task-started');

const STARTED = 'Sellers export started. You will be notified when it is ready.';
const completion = new TextEncoder().encode(
  JSON.stringify({ type: 'NOTIFICATION', taskId: 't-9', taskName: 'Sellers export', status: 'Completed' }),
);

const effects: RealtimeEffects = {
  refreshNotifications: () => {},
  playSound: () => {},
  markNew: () => {},
  toast: (toast) => shown.push(toast.title),
  systemNotification: () => {},
  removeTask,
  emitChat: () => {},
};
const onBrokerMessage = createBrokerMessageHandler(effects);

let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

/** Starts the export; `beforeAnswer` runs while the answer is on its way. */
async function startExport(beforeAnswer: () => void) {
  const fake = createFakeAdapter(() => {
    beforeAnswer();
    return {
      status: 200,
      data: { taskStatus: { taskId: 't-9', taskName: 'Sellers export', status: 'Queued' } },
    };
  });
  http.defaults.adapter = fake.adapter;
  const task = taskAcceptedSchema.parse((await http.post('/api/v1/exports/sellers', {})).data).taskStatus;
  notifyTaskStarted(task, { type: 'info', title: STARTED });
}

beforeEach(() => {
  shown.length = 0;
  unconfigure = configureHttp({
    getAccessToken: () => 'token',
    notifyError: () => {},
    onTask: (body) => handleTaskResponse(body),
  });
});

afterEach(() => {
  unconfigure();
  http.defaults.adapter = originalAdapter;
  resetTasks();
});

describe('the started toast of a task', () => {
  it('comes before the completion toast when the answer is first', async () => {
    await startExport(() => {});
    expect(taskStore.getSnapshot().tasks['t-9']).toBeDefined();
    onBrokerMessage('mp_u-1_message', completion);
    expect(shown).toEqual([STARTED, 'Sellers export Completed']);
    expect(taskStore.getSnapshot().tasks).toEqual({});
  });

  it('is left out when the completion arrived first, and the task does not stay running', async () => {
    await startExport(() => onBrokerMessage('mp_u-1_message', completion));
    expect(shown).toEqual(['Sellers export Completed']);
    expect(taskStore.getSnapshot().tasks).toEqual({});
  });
});
