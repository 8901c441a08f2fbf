// Broker topics (SPEC §4, §5, §7, §9): their names, MQTT's rules for them, and who may subscribe to
// what. Pure and shared: the embedded broker's authoriser, the browser's broker client and the tests
// all decide with these same functions.

/** SPEC §5: subscribing to or unsubscribing from an invalid topic fails with this text. */
export const INVALID_TOPIC_MESSAGE = 'Invalid topic';

/** MQTT 3.1.1/5: a topic is at most 65,535 bytes of UTF-8. */
export const MAX_TOPIC_BYTES = 65_535;

/** The user's own notification and task topic: `{prefix}_{userId}_message`. */
export function userMessageTopic(prefix: string, userId: string): string {
  return `${prefix}_${userId}_message`;
}

/** An admin's extra topic: `{prefix}_{userId}_admin`. */
export function adminTopic(prefix: string, userId: string): string {
  return `${prefix}_${userId}_admin`;
}

/**
 * Settings changes (issue 29): every signed-in browser subscribes and refetches what changed. Only the
 * server publishes here, and a message names a section and a scope, never a value.
 */
export function settingsTopic(prefix: string): string {
  return `${prefix}_settings`;
}

/** One help chat of a seller's sales bot (SPEC §7): `/chatBot/salesBot/{sellerId}/{sessionId}`. */
export function salesBotTopic(sellerId: string, sessionId: string): string {
  return `/chatBot/salesBot/${sellerId}/${sessionId}`;
}

/** All the help chats of a seller: `/chatBot/salesBot/{sellerId}/+`. */
export function salesBotFilter(sellerId: string): string {
  return `/chatBot/salesBot/${sellerId}/+`;
}

/** Every seller's help chats: the admins' and staff's inbox (/customers/help-chats) listens here. */
export const ALL_SALES_BOT_CHATS = '/chatBot/salesBot/+/+';

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * Whether `topic` is a valid MQTT topic name (to publish to: no wildcards) or, with `filter`, a valid
 * topic filter (to subscribe to: `+` fills a whole level, `#` only as the whole last level).
 */
export function isValidTopic(topic: string, options: { filter?: boolean } = {}): boolean {
  if (typeof topic !== 'string' || topic.length === 0) return false;
  if (topic.includes('\u0000') || byteLength(topic) > MAX_TOPIC_BYTES) return false;
  const levels = topic.split('/');
  return levels.every((level, index) => {
    if (!level.includes('+') && !level.includes('#')) return true;
    if (!options.filter) return false;
    if (level === '+') return true;
    return level === '#' && index === levels.length - 1;
  });
}

/** Whether the topic filter `filter` matches the topic name `topic` (MQTT matching rules). */
export function topicMatches(filter: string, topic: string): boolean {
  const filterLevels = filter.split('/');
  const topicLevels = topic.split('/');
  // Topics starting with `$` are the broker's own; wildcards at the first level never match them.
  if (topic.startsWith('$') && (filterLevels[0] === '+' || filterLevels[0] === '#')) return false;
  for (let index = 0; index < filterLevels.length; index++) {
    const level = filterLevels[index];
    if (level === '#') return true;
    if (index >= topicLevels.length) return false;
    if (level !== '+' && level !== topicLevels[index]) return false;
  }
  return filterLevels.length === topicLevels.length;
}

/** Who is asking, as the broker knows them from the verified access token. */
export interface BrokerUser {
  id: string;
  /**
   * 'Watcher': an auction's public page, with no account: it connects with the auction's signed public
   * token and may only read that auction's topic.
   */
  role: 'Admin' | 'Staff' | 'Seller' | 'Watcher';
  sellerId: string | null;
  /** The auction a watcher watches. */
  auctionId?: string;
  /**
   * An admin or staff member who may view every seller's help chats (holds `view` on
   * /customers/help-chats), so their inbox is live. Decided from their permissions when they connect.
   */
  readsAllChats?: boolean;
}

/**
 * Every auction's public topic (issue 32): anyone signed in may watch any auction, and only the server
 * publishes there. The name is contracts/auctions.ts `auctionTopic`.
 */
export const ALL_AUCTIONS = 'auctions/+';
export const auctionTopicOf = (auctionId: string) => `auctions/${auctionId}`;

/** The topics that are the user's own: their message topic, and an admin's admin topic. */
export function ownTopics(user: BrokerUser, prefix: string): string[] {
  if (user.role === 'Watcher') return [];
  const topics = [userMessageTopic(prefix, user.id)];
  if (user.role === 'Admin') topics.push(adminTopic(prefix, user.id));
  return topics;
}

/**
 * The topic filters a user's browser subscribes to on every connect (SPEC §6/§7): their own topics and
 * the settings topic; a watcher only their auction's; sellers also
 * their own sales-bot chats; admins and staff who may view all help chats, every seller's. Nothing
 * else: no wildcard that would reach anyone else's notifications.
 */
export function allowedSubscriptions(user: BrokerUser, prefix: string): string[] {
  if (user.role === 'Watcher') return user.auctionId ? [auctionTopicOf(user.auctionId)] : [];
  const topics = [...ownTopics(user, prefix), settingsTopic(prefix)];
  if (user.role === 'Seller' && user.sellerId) topics.push(salesBotFilter(user.sellerId));
  if (user.role !== 'Seller' && user.readsAllChats) topics.push(ALL_SALES_BOT_CHATS);
  return topics;
}

/**
 * Whether every topic `requested` can match is also matched by `allowed`: the same levels, where
 * `requested` has a wildcard only where `allowed` has one too (so one chat of one's own sales bot is
 * fine, anyone else's is not).
 */
export function filterCovers(allowed: string, requested: string): boolean {
  const allowedLevels = allowed.split('/');
  const requestedLevels = requested.split('/');
  if (requestedLevels.includes('#') && !allowedLevels.includes('#')) return false;
  if (allowedLevels.at(-1) === '#') {
    const fixed = allowedLevels.slice(0, -1);
    return (
      requestedLevels.length >= fixed.length && fixed.every((level, i) => covers(level, requestedLevels[i]))
    );
  }
  return (
    allowedLevels.length === requestedLevels.length &&
    allowedLevels.every((level, i) => covers(level, requestedLevels[i]))
  );
}

function covers(allowedLevel: string, requestedLevel: string | undefined): boolean {
  if (requestedLevel === undefined || requestedLevel === '#') return false;
  return allowedLevel === '+' || allowedLevel === requestedLevel;
}

/**
 * An auction's public topic that a signed-in user may watch on top of their own (one auction at a time,
 * as its page does: never every auction at once).
 */
function isWatchableAuction(user: BrokerUser, topic: string): boolean {
  return user.role !== 'Watcher' && isValidTopic(topic) && topicMatches(ALL_AUCTIONS, topic);
}

/** Whether the broker accepts this subscription (anything else is refused with a SUBACK failure). */
export function maySubscribe(user: BrokerUser, filter: string, prefix: string): boolean {
  if (!isValidTopic(filter, { filter: true })) return false;
  if (isWatchableAuction(user, filter)) return true;
  return allowedSubscriptions(user, prefix).some((allowed) => filterCovers(allowed, filter));
}

/** Whether `user` may receive a message published on `topic` (one of their filters, or an auction's). */
export function mayReceive(user: BrokerUser, topic: string, prefix: string): boolean {
  if (isWatchableAuction(user, topic)) return true;
  return allowedSubscriptions(user, prefix).some((filter) => topicMatches(filter, topic));
}

/**
 * Whether the broker accepts a browser's publish on `topic`: only on the user's own topics. Chat events
 * come from the server alone (a seller's browser publishing on its sales-bot topic would reach the
 * admins' inboxes as if it were the customer), so no user publishes on a sales-bot topic.
 */
export function mayPublish(user: BrokerUser, topic: string, prefix: string): boolean {
  return isValidTopic(topic) && ownTopics(user, prefix).includes(topic);
}
