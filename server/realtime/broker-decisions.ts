// Who may connect to the broker and what they may do on a topic, for any broker that asks: the
// embedded one decides with the same rules (contracts/broker-topics.ts, embedded-broker.ts), and an
// external broker asks over HTTP (server/modules/broker-access). Pure apart from the token check and
// the permission read the caller hands in.
import { type BrokerUser, mayPublish, mayReceive, maySubscribe } from '../../contracts/broker-topics';
import type { TokenService, TokenUser, VerifiedTokenUser } from '../lib/auth-types';

/** What a client asks to do on a topic: subscribe to a filter, publish, or receive a message. */
export type TopicAccess = 'subscribe' | 'publish' | 'read';

export type ConnectDecision =
  | { allowed: true; user: BrokerUser; token: VerifiedTokenUser }
  | { allowed: false; reason: string };

/**
 * A connection: the username is the user's id and the password a valid access token of that user
 * (its session still live). What they may read of the help chats is decided now, from their
 * permissions, as the embedded broker does.
 */
export async function decideConnect(
  deps: { tokens: TokenService; readsAllChats(user: TokenUser): Promise<boolean> },
  username: string | undefined,
  password: string | undefined,
): Promise<ConnectDecision> {
  if (!username || !password) return { allowed: false, reason: 'Username and access token are required' };
  let token: VerifiedTokenUser;
  try {
    token = await deps.tokens.verify(password);
  } catch {
    return { allowed: false, reason: 'Invalid or expired access token' };
  }
  if (token.id !== username) return { allowed: false, reason: 'The token belongs to another user' };
  const readsAllChats = await deps.readsAllChats(token).catch(() => false);
  return {
    allowed: true,
    user: { id: token.id, role: token.role, sellerId: token.sellerId, readsAllChats },
    token,
  };
}

/** Whether `user` may do `access` on `topic` (a topic filter for subscribe, a topic name otherwise). */
export function decideTopic(user: BrokerUser, access: TopicAccess, topic: string, prefix: string): boolean {
  if (access === 'subscribe') return maySubscribe(user, topic, prefix);
  if (access === 'publish') return mayPublish(user, topic, prefix);
  return mayReceive(user, topic, prefix);
}
