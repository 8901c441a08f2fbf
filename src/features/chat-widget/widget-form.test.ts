import { describe, expect, it } from 'vitest';
import {
  MAX_CHAT_MESSAGE_LENGTH,
  MAX_CHAT_NAME_LENGTH,
  startChatBodySchema,
  widgetMessageBodySchema,
} from '../../../contracts/help-chats';
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH, messageProblem, validateStartForm } from './widget-form';

describe('the widget validation agrees with the help-chats contract', () => {
  it('has the same limits', () => {
    expect(MAX_MESSAGE_LENGTH).toBe(MAX_CHAT_MESSAGE_LENGTH);
    expect(MAX_NAME_LENGTH).toBe(MAX_CHAT_NAME_LENGTH);
  });

  it.each([
    { name: 'Ann', email: 'ann@example.com' },
    { name: '  Ann  ', email: ' ANN@Example.com ' },
    { name: '', email: 'ann@example.com' },
    { name: '   ', email: 'ann@example.com' },
    { name: 'Ann', email: 'not-an-email' },
    { name: 'Ann', email: '' },
    { name: 'x'.repeat(80), email: 'a@b.co' },
    { name: 'x'.repeat(81), email: 'a@b.co' },
  ])('start form %j', (input) => {
    const contract = startChatBodySchema.safeParse(input);
    const widget = validateStartForm(input);
    expect(widget.ok).toBe(contract.success);
    if (widget.ok && contract.success) expect(widget.value).toEqual(contract.data);
    if (!widget.ok && !contract.success) {
      const contractFields = new Set(contract.error.issues.map((issue) => issue.path[0]));
      expect(new Set(Object.keys(widget.errors))).toEqual(contractFields);
      for (const issue of contract.error.issues) {
        // The contract leaves the name's max length with zod's default wording.
        if (issue.code !== 'too_big') expect(Object.values(widget.errors)).toContain(issue.message);
      }
    }
  });

  it.each(['hi', '', '   ', 'x'.repeat(1000), ` ${'x'.repeat(1000)} `, 'x'.repeat(1001)])(
    'message of %#',
    (message) => {
      const contract = widgetMessageBodySchema.safeParse({ sessionId: crypto.randomUUID(), message });
      const problem = messageProblem(message);
      expect(problem === null).toBe(contract.success);
      if (!contract.success) expect(problem).toBe(contract.error.issues[0]?.message);
    },
  );
});
