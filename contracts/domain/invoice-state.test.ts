import { describe, expect, it } from 'vitest';
import {
  creditableMinor,
  invoiceActionProblem,
  invoiceBalanceMinor,
  issuedInvoiceStatus,
} from './invoice-state';

const money = (paidMinor: number, creditedMinor = 0) => ({ totalMinor: 10_000, paidMinor, creditedMinor });
const today = '2026-11-29';

describe('invoice state', () => {
  it('follows the money and the due date', () => {
    expect(issuedInvoiceStatus(money(0), { dueDate: '2026-12-01', today })).toBe('unpaid');
    expect(issuedInvoiceStatus(money(1), { dueDate: '2026-12-01', today })).toBe('pending');
    expect(issuedInvoiceStatus(money(1), { dueDate: '2026-11-28', today })).toBe('overdue');
    expect(issuedInvoiceStatus(money(10_000), { dueDate: '2026-11-28', today })).toBe('paid');
    expect(issuedInvoiceStatus(money(0), { dueDate: null, today, failed: true })).toBe('failed');
    expect(issuedInvoiceStatus(money(0, 10_000), { dueDate: null, today })).toBe('cancelled');
    // A partial credit leaves less to pay: what was paid may now cover it.
    expect(issuedInvoiceStatus(money(7_000, 3_000), { dueDate: null, today })).toBe('paid');
  });

  it('computes what is left to pay and to credit', () => {
    expect(invoiceBalanceMinor(money(2_000, 3_000))).toBe(5_000);
    expect(invoiceBalanceMinor(money(10_000, 3_000))).toBe(0);
    expect(creditableMinor(money(0, 3_000))).toBe(7_000);
  });

  it('allows only what the state permits, in words', () => {
    const facts = { kind: 'invoice' as const, status: 'draft' as const, fromOrder: false, ...money(0) };
    expect(invoiceActionProblem('issue', facts)).toBeNull();
    expect(invoiceActionProblem('delete', facts)).toBeNull();
    expect(invoiceActionProblem('pay', facts)).toBe('Issue it first: a draft has no number.');
    const issued = { ...facts, status: 'unpaid' as const };
    expect(invoiceActionProblem('delete', issued)).toBe(
      'An issued invoice is never deleted: cancel it with a credit note.',
    );
    expect(invoiceActionProblem('pay', issued)).toBeNull();
    expect(invoiceActionProblem('pay', { ...issued, fromOrder: true })).toBe(
      'Its order takes the payments: record them there.',
    );
    expect(invoiceActionProblem('cancel', { ...issued, ...money(1) })).toContain('refund it first');
    expect(invoiceActionProblem('pay', { ...issued, kind: 'credit_note', status: 'issued' })).toBe(
      'A credit note is not paid.',
    );
  });
});
