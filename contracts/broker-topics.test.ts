import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_SALES_BOT_CHATS,
  adminTopic,
  allowedSubscriptions,
  type BrokerUser,
  filterCovers,
  isValidTopic,
  MAX_TOPIC_BYTES,
  mayPublish,
  mayReceive,
  maySubscribe,
  salesBotFilter,
  salesBotTopic,
  topicMatches,
  userMessageTopic,
} from './broker-topics';

const prefix = 'mp';
const admin: BrokerUser = { id: 'u-admin', role: 'Admin', sellerId: null };
const staff: BrokerUser = { id: 'u-staff', role: 'Staff', sellerId: null };
const seller: BrokerUser = { id: 'u-seller', role: 'Seller', sellerId: 's-1' };

describe('topic names', () => {
  it('follow SPEC §7', () => {
    expect(userMessageTopic(prefix, 'u1')).toBe('mp_u1_message');
    expect(adminTopic(prefix, 'u1')).toBe('mp_u1_admin');
    expect(salesBotTopic('s1', 'abc')).toBe('/chatBot/salesBot/s1/abc');
    expect(salesBotFilter('s1')).toBe('/chatBot/salesBot/s1/+');
  });
});

describe('isValidTopic', () => {
  it.each([
    ['a/b/c', false, true],
    ['/chatBot/salesBot/s1/+', true, true],
    ['sport/#', true, true],
    ['#', true, true],
    ['+/+', true, true],
    ['a/+', false, false],
    ['a/#', false, false],
    ['a/b#', true, false],
    ['a/#/b', true, false],
    ['a+/b', true, false],
    ['', true, false],
    ['a\u0000b', true, false],
  ])('%s (filter %s) → %s', (topic, filter, valid) => {
    expect(isValidTopic(topic, { filter })).toBe(valid);
  });

  it('refuses topics longer than 65,535 bytes', () => {
    expect(isValidTopic('a'.repeat(MAX_TOPIC_BYTES))).toBe(true);
    expect(isValidTopic('a'.repeat(MAX_TOPIC_BYTES + 1))).toBe(false);
    expect(isValidTopic('é'.repeat(MAX_TOPIC_BYTES / 2 + 1))).toBe(false);
  });
});

describe('topicMatches', () => {
  it.each([
    ['a/+/c', 'a/b/c', true],
    ['a/+/c', 'a/b/d', false],
    ['a/#', 'a', true],
    ['a/#', 'a/b/c', true],
    ['#', 'anything/at/all', true],
    ['#', '$SYS/broker', false],
    ['+/broker', '$SYS/broker', false],
    ['/chatBot/salesBot/s1/+', '/chatBot/salesBot/s1/x', true],
    ['/chatBot/salesBot/s1/+', '/chatBot/salesBot/s2/x', false],
    ['a/b', 'a/b/c', false],
  ])('%s matches %s → %s', (filter, topic, matches) => {
    expect(topicMatches(filter, topic)).toBe(matches);
  });
});

describe('who may subscribe to what', () => {
  it('each role gets exactly its own topics', () => {
    expect(allowedSubscriptions(admin, prefix)).toEqual([
      'mp_u-admin_message',
      'mp_u-admin_admin',
      'mp_settings',
    ]);
    expect(allowedSubscriptions(staff, prefix)).toEqual(['mp_u-staff_message', 'mp_settings']);
    expect(allowedSubscriptions(seller, prefix)).toEqual([
      'mp_u-seller_message',
      'mp_settings',
      '/chatBot/salesBot/s-1/+',
    ]);
    // Everyone hears settings changes; nobody but the server publishes them.
    expect(mayPublish(admin, 'mp_settings', prefix)).toBe(false);
    // Anyone signed in may watch one auction (its page), never all at once; nobody publishes there.
    expect(maySubscribe(seller, 'auctions/a-1', prefix)).toBe(true);
    expect(maySubscribe(staff, 'auctions/+', prefix)).toBe(false);
    expect(maySubscribe(staff, 'auctions/#', prefix)).toBe(false);
    expect(mayReceive(staff, 'auctions/a-1', prefix)).toBe(true);
    expect(mayPublish(admin, 'auctions/a-1', prefix)).toBe(false);
  });

  it('an auction’s public page watches its one auction and publishes nowhere', () => {
    const watcher: BrokerUser = {
      id: 'watcher:auction-a-1-t',
      role: 'Watcher',
      sellerId: null,
      auctionId: 'a-1',
    };
    expect(allowedSubscriptions(watcher, prefix)).toEqual(['auctions/a-1']);
    expect(maySubscribe(watcher, 'auctions/a-1', prefix)).toBe(true);
    expect(maySubscribe(watcher, 'auctions/a-2', prefix)).toBe(false);
    expect(maySubscribe(watcher, 'auctions/+', prefix)).toBe(false);
    expect(maySubscribe(watcher, 'mp_settings', prefix)).toBe(false);
    expect(mayReceive(watcher, 'auctions/a-2', prefix)).toBe(false);
    expect(mayPublish(watcher, 'auctions/a-1', prefix)).toBe(false);
  });

  it("admins and staff who may view all help chats also get every seller's chats, sellers never", () => {
    const inbox = (user: BrokerUser) => ({ ...user, readsAllChats: true });
    expect(allowedSubscriptions(inbox(admin), prefix)).toEqual([
      'mp_u-admin_message',
      'mp_u-admin_admin',
      'mp_settings',
      ALL_SALES_BOT_CHATS,
    ]);
    expect(allowedSubscriptions(inbox(staff), prefix)).toEqual([
      'mp_u-staff_message',
      'mp_settings',
      '/chatBot/salesBot/+/+',
    ]);
    expect(allowedSubscriptions(inbox(seller), prefix)).toEqual(allowedSubscriptions(seller, prefix));
    expect(maySubscribe(inbox(staff), '/chatBot/salesBot/s-9/x', prefix)).toBe(true);
    expect(maySubscribe(inbox(staff), '/chatBot/salesBot/#', prefix)).toBe(false);
    expect(maySubscribe(inbox(staff), 'mp_u-admin_message', prefix)).toBe(false);
  });

  it('a browser publishes only on its own topics, never on a sales-bot chat (those come from the server)', () => {
    expect(mayPublish(admin, 'mp_u-admin_message', prefix)).toBe(true);
    expect(mayPublish(admin, 'mp_u-admin_admin', prefix)).toBe(true);
    expect(mayPublish(staff, 'mp_u-staff_admin', prefix)).toBe(false);
    expect(mayPublish(seller, '/chatBot/salesBot/s-1/session-9', prefix)).toBe(false);
    expect(mayPublish({ ...admin, readsAllChats: true }, '/chatBot/salesBot/s-1/x', prefix)).toBe(false);
    expect(mayPublish(seller, 'mp_u-admin_message', prefix)).toBe(false);
  });

  it('allows own topics and one chat of the own sales bot, refuses everything else', () => {
    expect(maySubscribe(seller, '/chatBot/salesBot/s-1/+', prefix)).toBe(true);
    expect(maySubscribe(seller, '/chatBot/salesBot/s-1/session-9', prefix)).toBe(true);
    expect(maySubscribe(seller, '/chatBot/salesBot/s-2/+', prefix)).toBe(false);
    expect(maySubscribe(seller, '/chatBot/salesBot/+/+', prefix)).toBe(false);
    expect(maySubscribe(seller, '/chatBot/#', prefix)).toBe(false);
    expect(maySubscribe(staff, 'mp_u-admin_message', prefix)).toBe(false);
    expect(maySubscribe(staff, 'mp_u-staff_admin', prefix)).toBe(false);
    expect(maySubscribe(admin, '#', prefix)).toBe(false);
    expect(maySubscribe(admin, 'mp_u-admin_admin', prefix)).toBe(true);
    expect(maySubscribe(admin, 'a/+x', prefix)).toBe(false);
  });

  it('filterCovers treats wildcards as wider than any name', () => {
    expect(filterCovers('a/+', 'a/b')).toBe(true);
    expect(filterCovers('a/b', 'a/+')).toBe(false);
    expect(filterCovers('a/#', 'a/b/c')).toBe(true);
    expect(filterCovers('a/#', 'a/#')).toBe(true);
    expect(filterCovers('a/+', 'a/#')).toBe(false);
  });

  // The property the broker's authoriser rests on: whatever a user is allowed to subscribe to never
  // matches a topic that belongs to somebody else.
  it('never lets a user subscribe to a filter that matches another user’s topic (property)', () => {
    const ids = ['u1', 'u2', 'u3'];
    const sellerIds = ['s1', 's2'];
    const userArb = fc.record({
      id: fc.constantFrom(...ids),
      role: fc.constantFrom('Admin' as const, 'Staff' as const, 'Seller' as const),
      sellerId: fc.constantFrom(...sellerIds),
      readsAllChats: fc.boolean(),
    });
    const level = fc.constantFrom(
      '+',
      '#',
      'chatBot',
      'salesBot',
      '',
      'x',
      ...ids,
      ...sellerIds,
      'mp_u1_message',
      'mp_u2_message',
      'mp_u1_admin',
      'mp_u2_admin',
    );
    const filterArb = fc.oneof(
      fc.array(level, { minLength: 1, maxLength: 5 }).map((levels) => levels.join('/')),
      fc
        .constantFrom(...ids)
        .chain((id) => fc.constantFrom(userMessageTopic(prefix, id), adminTopic(prefix, id))),
      fc
        .tuple(fc.constantFrom(...sellerIds), fc.constantFrom('+', 'abc'))
        .map(([s, last]) => `/chatBot/salesBot/${s}/${last}`),
    );
    const othersTopics = (user: BrokerUser) => [
      ...ids
        .filter((id) => id !== user.id)
        .flatMap((id) => [userMessageTopic(prefix, id), adminTopic(prefix, id)]),
      ...(user.role === 'Admin' ? [] : [adminTopic(prefix, user.id)]),
      // Sales-bot chats are another seller's, unless the reader is an all-chats inbox.
      ...(user.role !== 'Seller' && user.readsAllChats
        ? []
        : sellerIds
            .filter((s) => user.role !== 'Seller' || s !== user.sellerId)
            .map((s) => salesBotTopic(s, 'abc'))),
    ];
    fc.assert(
      fc.property(userArb, filterArb, (user, filter) => {
        const subject: BrokerUser = { ...user, sellerId: user.role === 'Seller' ? user.sellerId : null };
        // Publishing reaches whoever listens: a topic one may publish on is nobody else's, and no
        // all-chats inbox listens to it.
        if (mayPublish(subject, filter, prefix) && topicMatches(ALL_SALES_BOT_CHATS, filter)) return false;
        if (!maySubscribe(subject, filter, prefix)) return true;
        return othersTopics(subject).every((topic) => !topicMatches(filter, topic));
      }),
      { numRuns: 5000 },
    );
  });
});
