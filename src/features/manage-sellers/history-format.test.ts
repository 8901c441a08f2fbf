import { describe, expect, it } from 'vitest';
import { actionText, fieldLabel, formatValue } from './history-format';

describe('history wording', () => {
  it('names fields and actions in words, unknown ones as they are', () => {
    expect(fieldLabel('kycRejectionReason')).toBe('KYC rejection reason');
    expect(fieldLabel('somethingNew')).toBe('somethingNew');
    expect(
      actionText({
        id: '1',
        at: '',
        actor: { id: null, name: 'System' },
        action: 'status',
        changes: [],
        note: null,
      }),
    ).toBe('changed the status');
  });

  it('formats values as plain text', () => {
    expect(formatValue(null)).toBe('—');
    expect(formatValue('')).toBe('—');
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(false)).toBe('No');
    expect(formatValue('<b>x</b>')).toBe('<b>x</b>');
    expect(
      formatValue({
        fullName: 'A',
        email: 'a@b.c',
        addressLine1: '1 MG Road',
        addressLine2: ' ',
        city: 'Pune',
        state: 'MH',
        country: 'IN',
        zipcode: '411001',
      }),
    ).toBe('1 MG Road, Pune, MH, 411001, IN');
  });
});
