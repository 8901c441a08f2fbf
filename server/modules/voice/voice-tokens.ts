// The local voice provider's signed tokens (issue 6), HS256 with the access tokens' key
// (jwtSigningKey). Each kind has its own `typ` and audience, and verification demands both: a voice
// token never passes as an access token or a call ticket, nor the other way round.
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'marketplace-backoffice';
const ALGORITHM = 'HS256';
const VOICE = { typ: 'voice+jwt', audience: 'marketplace-backoffice-voice' } as const;
const TICKET = { typ: 'call-ticket+jwt', audience: 'marketplace-backoffice-call' } as const;

export const VOICE_TOKEN_TTL_SECONDS = 3600;
/** A call ticket outlives any reasonable call; a replay after that is refused. */
export const CALL_TICKET_TTL_SECONDS = 2 * 3600;

export const INVALID_VOICE_TOKEN_MESSAGE = 'Invalid voice token';
export const EXPIRED_VOICE_TOKEN_MESSAGE = 'Voice token expired';

/** Who calls whom: what a call ticket states. */
export interface CallTicket {
  callSid: string;
  callerId: string;
  calleeId: string;
  /** The caller's normalised number. */
  callerNumber: string;
}

export interface VoiceTokenService {
  /** A local-provider device token for the user; expiresAt in epoch ms. */
  signVoiceToken(userId: string): Promise<{ token: string; expiresAt: number }>;
  /** The user id the token was issued to; throws VoiceTokenError otherwise. */
  verifyVoiceToken(token: string): Promise<string>;
  signTicket(ticket: CallTicket): Promise<string>;
  /** The ticket's statement, or null when it is forged, expired or not a ticket. */
  verifyTicket(ticket: string): Promise<CallTicket | null>;
}

export class VoiceTokenError extends Error {
  override name = 'VoiceTokenError';
}

async function verify(
  key: Uint8Array,
  token: string,
  kind: typeof VOICE | typeof TICKET,
): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, key, {
    issuer: ISSUER,
    audience: kind.audience,
    typ: kind.typ,
    algorithms: [ALGORITHM],
    requiredClaims: ['sub', 'exp', 'iat'],
  });
  return payload;
}

export function createVoiceTokenService(
  key: Uint8Array,
  options: { voiceTtlSeconds?: number; ticketTtlSeconds?: number } = {},
): VoiceTokenService {
  const voiceTtl = options.voiceTtlSeconds ?? VOICE_TOKEN_TTL_SECONDS;
  const ticketTtl = options.ticketTtlSeconds ?? CALL_TICKET_TTL_SECONDS;
  return {
    async signVoiceToken(userId) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = (issuedAt + voiceTtl) * 1000;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, typ: VOICE.typ })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(VOICE.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + voiceTtl)
        .sign(key);
      return { token, expiresAt };
    },
    async verifyVoiceToken(token) {
      try {
        const payload = await verify(key, token, VOICE);
        return payload.sub as string;
      } catch (error) {
        throw new VoiceTokenError(
          error instanceof errors.JWTExpired ? EXPIRED_VOICE_TOKEN_MESSAGE : INVALID_VOICE_TOKEN_MESSAGE,
        );
      }
    },
    signTicket(ticket) {
      return new SignJWT({ callee: ticket.calleeId, callerNumber: ticket.callerNumber })
        .setProtectedHeader({ alg: ALGORITHM, typ: TICKET.typ })
        .setSubject(ticket.callerId)
        .setJti(ticket.callSid)
        .setIssuer(ISSUER)
        .setAudience(TICKET.audience)
        .setIssuedAt()
        .setExpirationTime(`${ticketTtl}s`)
        .sign(key);
    },
    async verifyTicket(ticket) {
      try {
        const payload = await verify(key, ticket, TICKET);
        const { sub, jti, callee, callerNumber } = payload;
        if (
          typeof sub !== 'string' ||
          typeof jti !== 'string' ||
          typeof callee !== 'string' ||
          typeof callerNumber !== 'string'
        )
          return null;
        return { callSid: jti, callerId: sub, calleeId: callee, callerNumber };
      } catch {
        return null;
      }
    },
  };
}
