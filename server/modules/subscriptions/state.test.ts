import { describe, expect, it } from 'vitest';
import { daysLeft, EXPIRING_SOON_DAYS, subscriptionState } from '../../../contracts/subscriptions';

const now = new Date('2026-03-01T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);
const paying = { blocked: false, isFree: false };

describe('subscription state rule', () => {
  it('puts a block above everything, then a free plan, then the latest period', () => {
    expect(subscriptionState({ blocked: true, isFree: true }, inDays(100), now)).toBe('Blocked');
    expect(subscriptionState({ blocked: false, isFree: true }, inDays(-5), now)).toBe('Free');
    expect(subscriptionState(paying, null, now)).toBe('No subscription');
  });

  it('counts a period as expiring within the last week and expired once it ends', () => {
    expect(subscriptionState(paying, inDays(EXPIRING_SOON_DAYS + 0.01), now)).toBe('Active');
    expect(subscriptionState(paying, inDays(EXPIRING_SOON_DAYS), now)).toBe('Expiring soon');
    expect(subscriptionState(paying, inDays(0.01), now)).toBe('Expiring soon');
    expect(subscriptionState(paying, now, now)).toBe('Expired');
    expect(subscriptionState(paying, inDays(-1), now)).toBe('Expired');
  });

  it('rounds days left up and never below zero', () => {
    expect(daysLeft(inDays(0.1), now)).toBe(1);
    expect(daysLeft(inDays(30), now)).toBe(30);
    expect(daysLeft(inDays(-3), now)).toBe(0);
  });
});
