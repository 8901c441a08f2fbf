import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from './chat-events';

describe('chat events', () => {
  it('hands every message to each subscriber until it unsubscribes', () => {
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = chatEvents.subscribe(first);
    const stopSecond = chatEvents.subscribe(second);
    chatEvents.emit({ topic: '/chatBot/salesBot/s/1', payload: { userQuery: 'hi' } });
    stopFirst();
    chatEvents.emit({ topic: '/chatBot/salesBot/s/2', payload: null });
    stopSecond();
    chatEvents.emit({ topic: '/chatBot/salesBot/s/3', payload: null });
    expect(first.mock.calls).toEqual([[{ topic: '/chatBot/salesBot/s/1', payload: { userQuery: 'hi' } }]]);
    expect(second).toHaveBeenCalledTimes(2);
  });
});
