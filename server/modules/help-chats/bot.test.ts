import { describe, expect, it } from 'vitest';
import {
  answer,
  asksForPerson,
  bestMatch,
  CONNECT_VALUE,
  CONNECTING_MESSAGE,
  DEFAULT_FAQS,
  type FaqEntry,
  MENU_VALUE,
  NOT_UNDERSTOOD_MESSAGE,
  normaliseWords,
  startReply,
} from './bot';

const faqs: FaqEntry[] = [
  {
    question: 'How long does shipping take?',
    answer: 'Three to seven days.',
    keywords: ['delivery', 'courier'],
  },
  { question: 'What is your return policy?', answer: 'Fourteen days.', keywords: ['refund', 'exchange'] },
  { question: 'Which payment methods do you accept?', answer: 'UPI and cards.', keywords: ['upi', 'card'] },
  { question: 'Where is my order?', answer: 'See the tracking link.', keywords: ['tracking', 'status'] },
  { question: 'Can I cancel my order?', answer: 'Until it ships.', keywords: ['cancel'] },
];

describe('the sales bot', () => {
  it('greets by name and shop, then offers the first questions and a person as buttons', () => {
    const reply = startReply({ customerName: 'Asha', sellerName: 'Demo Crafts', faqs });
    expect(reply.connectRequest).toBe(false);
    expect(reply.turns).toHaveLength(2);
    expect(reply.turns[0]?.response).toEqual({
      welcomeMessage: 'Hi Asha! Welcome to Demo Crafts. How can we help?',
    });
    expect(reply.turns[0]?.message).toBe('Hi Asha! Welcome to Demo Crafts. How can we help?');
    const buttons = reply.turns[1]?.response.menuOptions?.buttons;
    expect(buttons?.map((b) => b.value)).toEqual([...faqs.slice(0, 4).map((f) => f.question), CONNECT_VALUE]);
    expect(buttons?.at(-1)).toEqual({ label: 'Talk to a person', value: CONNECT_VALUE });
    expect(reply.turns[1]?.extras.buttons).toEqual(buttons);
  });

  it('answers a question in other words from the question and its keywords, with related questions', () => {
    const reply = answer('When will my delivery arrive??', faqs);
    expect(reply.turns[0]?.response.chatBotResponse).toBe('Three to seven days.');
    const related = reply.turns[0]?.response.questions ?? [];
    expect(related).toHaveLength(3);
    expect(related).not.toContain('How long does shipping take?');
    expect(reply.turns[0]?.extras.questions).toEqual(related);

    expect(answer('I want a REFUND', faqs).turns[0]?.message).toBe('Fourteen days.');
    expect(answer('Do you take UPI payments?', faqs).turns[0]?.message).toBe('UPI and cards.');
    expect(answer('cancel', faqs).turns[0]?.message).toBe('Until it ships.');
  });

  it('answers a tapped menu question exactly', () => {
    expect(answer('Where is my order?', faqs).turns[0]?.message).toBe('See the tracking link.');
    expect(bestMatch('Can I cancel my order?', faqs)?.answer).toBe('Until it ships.');
  });

  it('falls back to a general reply with the menu and a person when nothing matches', () => {
    for (const text of ['Is the blue vase handmade?', 'hello', '???', 'asdf qwerty']) {
      const reply = answer(text, faqs);
      expect(reply.connectRequest, text).toBe(false);
      expect(reply.turns[0]?.response.generalReply, text).toEqual({
        message: NOT_UNDERSTOOD_MESSAGE,
        actions: [
          { label: 'Show the menu', value: MENU_VALUE },
          { label: 'Talk to a person', value: CONNECT_VALUE },
        ],
      });
      expect(reply.turns[0]?.response.chatBotResponse, text).toBeUndefined();
    }
    expect(NOT_UNDERSTOOD_MESSAGE).toMatch(/^Sorry, I did not get that\./);
  });

  it('raises a connect request for the button and for asking in words', () => {
    for (const text of [
      CONNECT_VALUE,
      'Talk to a person',
      'can I speak to a human please',
      'agent',
      'a real person please',
      'Connect me with someone',
    ]) {
      const reply = answer(text, faqs);
      expect(reply.connectRequest, text).toBe(true);
      // The connect request travels with the customer's message (one toast for staff), not the answer.
      expect(reply.turns[0]?.response.connectRequest, text).toBeUndefined();
      expect(reply.turns[0]?.message, text).toBe(CONNECTING_MESSAGE);
    }
    expect(CONNECTING_MESSAGE).toMatch(/^Connecting you with a person…/);
    expect(asksForPerson('How long does shipping take?')).toBe(false);
    expect(asksForPerson('a person-shaped vase for my chat corner is what I am after today')).toBe(false);
  });

  it('shows the menu again on request', () => {
    const reply = answer(MENU_VALUE, faqs);
    expect(reply.turns[0]?.response.menuOptions?.buttons).toHaveLength(5);
  });

  it('normalises words: case, punctuation, stop words, plurals', () => {
    expect(normaliseWords('How do RETURNS work, please?!')).toEqual(['return', 'work']);
    expect(normaliseWords('address')).toEqual(['address']);
  });

  it('has defaults covering shipping, returns, payment and order status', () => {
    for (const [text, topic] of [
      ['shipping time', /ship|deliver/i],
      ['return an item', /return/i],
      ['pay by card', /UPI|card/i],
      ['track my order', /order status|tracking/i],
    ] as const) {
      expect(answer(text, DEFAULT_FAQS).turns[0]?.response.chatBotResponse, text).toMatch(topic);
    }
  });
});
