// Twilio Voice access tokens (issue 6), minted with Twilio's helper library. Loaded on first use:
// the library is large and most installations run the local provider.
import { decodeJwt } from 'jose';

export interface TwilioCredentials {
  accountSid: string;
  apiKey: string;
  apiSecret: string;
  twimlAppSid: string;
}

export const TWILIO_TOKEN_TTL_SECONDS = 3600;

/**
 * A Voice SDK token for `identity`: outgoing calls go through the TwiML app, incoming calls to the
 * client named `identity` ring this device. Signed locally with the API key secret (no network).
 */
export async function mintTwilioVoiceToken(
  credentials: TwilioCredentials,
  identity: string,
): Promise<{ token: string; expiresAt: number }> {
  const { default: twilio } = await import('twilio');
  const { AccessToken } = twilio.jwt;
  const token = new AccessToken(credentials.accountSid, credentials.apiKey, credentials.apiSecret, {
    identity,
    ttl: TWILIO_TOKEN_TTL_SECONDS,
  });
  token.addGrant(
    new AccessToken.VoiceGrant({ outgoingApplicationSid: credentials.twimlAppSid, incomingAllow: true }),
  );
  const jwt = token.toJwt();
  // The library sets exp to its own now + ttl: read it back rather than guess.
  const { exp } = decodeJwt(jwt);
  return { token: jwt, expiresAt: (exp ?? Math.floor(Date.now() / 1000) + TWILIO_TOKEN_TTL_SECONDS) * 1000 };
}

/** The credentials when all four TWILIO_* variables are set (config.ts refuses a partial set). */
export function twilioCredentials(config: {
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_API_KEY?: string;
  TWILIO_API_SECRET?: string;
  TWILIO_TWIML_APP_SID?: string;
}): TwilioCredentials | null {
  const { TWILIO_ACCOUNT_SID, TWILIO_API_KEY, TWILIO_API_SECRET, TWILIO_TWIML_APP_SID } = config;
  if (!TWILIO_ACCOUNT_SID || !TWILIO_API_KEY || !TWILIO_API_SECRET || !TWILIO_TWIML_APP_SID) return null;
  return {
    accountSid: TWILIO_ACCOUNT_SID,
    apiKey: TWILIO_API_KEY,
    apiSecret: TWILIO_API_SECRET,
    twimlAppSid: TWILIO_TWIML_APP_SID,
  };
}
