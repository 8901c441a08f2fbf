import { describe, expect, it, vi } from 'vitest';
import { type BrokerMessageHandlers, routeBrokerMessage } from './broker-messages';

function handlers() {
  return {
    chat: vi.fn(),
    notification: vi.fn(),
    taskFinished: vi.fn(),
  } satisfies BrokerMessageHandlers;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('routeBrokerMessage (SPEC §7)', () => {
  it('gives topics containing chatBot to the chat store, whatever the message says', () => {
    const h = handlers();
    const payload = { response: 'Hi', result: { type: 'NOTIFICATION', taskId: 't1' } };
    expect(routeBrokerMessage('/chatBot/salesBot/s1/abc', json(payload), h)).toBe('chat');
    expect(h.chat).toHaveBeenCalledWith('/chatBot/salesBot/s1/abc', payload);
    expect(h.notification).not.toHaveBeenCalled();
    expect(h.taskFinished).not.toHaveBeenCalled();
  });

  it('ignores topics containing leads_product, even when they are not JSON', () => {
    const h = handlers();
    expect(routeBrokerMessage('mp_leads_product_1', 'not json', h)).toBe('ignored');
    expect(routeBrokerMessage('x/leads_product', json({ type: 'NOTIFICATION' }), h)).toBe('ignored');
    expect(Object.values(h).every((fn) => fn.mock.calls.length === 0)).toBe(true);
  });

  it('adds a NOTIFICATION without task fields as a notification only', () => {
    const h = handlers();
    const message = { type: 'NOTIFICATION', title: 'Hello' };
    expect(routeBrokerMessage('mp_u1_message', json(message), h)).toBe('notification');
    expect(h.notification).toHaveBeenCalledWith(message);
    expect(h.taskFinished).not.toHaveBeenCalled();
  });

  it('finishes the task of a NOTIFICATION carrying taskId and taskName, with its status', () => {
    const h = handlers();
    const message = { type: 'NOTIFICATION', taskName: 'Sellers export', taskId: 't1', status: 'Completed' };
    expect(routeBrokerMessage('mp_u1_message', json(message), h)).toBe('notification+task');
    expect(h.notification).toHaveBeenCalledOnce();
    expect(h.taskFinished).toHaveBeenCalledWith({
      taskId: 't1',
      taskName: 'Sellers export',
      status: 'Completed',
    });
  });

  it('finishes a task named only by id (a numeric id is kept as text), without a notification', () => {
    const h = handlers();
    expect(routeBrokerMessage('mp_u1_message', json({ taskId: 42, status: 'Failed' }), h)).toBe('task');
    expect(h.notification).not.toHaveBeenCalled();
    expect(h.taskFinished).toHaveBeenCalledWith({ taskId: '42', taskName: null, status: 'Failed' });
  });

  it('drops messages that are not JSON objects, without calling anyone', () => {
    const h = handlers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(routeBrokerMessage('mp_u1_message', '{oops', h)).toBe('invalid');
    expect(routeBrokerMessage('mp_u1_message', json([1, 2]), h)).toBe('invalid');
    expect(routeBrokerMessage('mp_u1_message', json({ type: 'OTHER' }), h)).toBe('invalid');
    expect(warn).toHaveBeenCalledOnce();
    expect(Object.values(h).every((fn) => fn.mock.calls.length === 0)).toBe(true);
    warn.mockRestore();
  });
});
