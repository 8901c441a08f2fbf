// What the base layers (the auth plugin, the broker, signalling) know of authentication: who an access
// token names, and the two services that server/modules/auth implements and server/app.ts hands them —
// tokens (sign and verify) and the session gate (is a session still live).
import type { ServerRole } from '../../contracts/roles';

/** What an access token says about its bearer; the server trusts nothing else from the client. */
export interface TokenUser {
  id: string;
  role: ServerRole;
  sellerId: string | null;
  /** The signed-in session (user_sessions.id) the token belongs to; it ends when that session does. */
  sessionId: string;
}

/** A verified token's bearer plus when the token expires (epoch ms): long-lived connections end then. */
export interface VerifiedTokenUser extends TokenUser {
  expiresAt: number;
}

export interface TokenService {
  sign(user: TokenUser): Promise<string>;
  verify(token: string): Promise<VerifiedTokenUser>;
  ttlSeconds: number;
}

/** A listener for ended sessions: the user whose sessions may have ended, or null for anyone's. */
export type RevocationListener = (userId: string | null) => void;

export interface SessionGate {
  /** Whether the session is still live; answered from memory when this instance knows it. */
  isLive(sessionId: string, userId: string): Promise<boolean>;
  /**
   * Forgets what this instance knows of the user's sessions and tells the listeners. Revoking code
   * calls it after its transaction commits, so the next request on this instance sees the revocation
   * without waiting for the notification (which comes too, to every instance).
   */
  forget(userId: string): void;
  /** Long-lived connections (broker, signalling) hear of ended sessions to close theirs. */
  onRevoked(listener: RevocationListener): () => void;
  close(): Promise<void>;
}
