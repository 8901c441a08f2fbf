import { describe, expect, it } from 'vitest';
import { checkContactForm, emptyContactForm } from './contact-form';

describe('contact form', () => {
  it('normalises the e-mail and the tags', () => {
    const checked = checkContactForm({
      ...emptyContactForm,
      email: ' Ada@Example.com ',
      tags: 'vip, , VIP, london',
    });
    expect(checked).toEqual({
      ok: true,
      body: expect.objectContaining({ email: 'ada@example.com', tags: ['vip', 'london'], country: null }),
    });
  });

  it('answers the messages beside their fields', () => {
    const checked = checkContactForm({ ...emptyContactForm, email: 'nope', phone: 'call me' });
    expect(checked).toEqual({
      ok: false,
      errors: {
        email: 'Enter a valid e-mail address, like name@example.com.',
        phone: 'A phone number has digits, spaces and + ( ) - . / only.',
      },
    });
  });
});
