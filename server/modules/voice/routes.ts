import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CALL_PERMISSION,
  normalisePhoneNumber,
  type VoiceToken,
  voiceTokenResponseSchema,
} from '../../../contracts/calls';
import type { Config } from '../../config';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { ensureUserNumber } from './phone-numbers';
import { mintTwilioVoiceToken, twilioCredentials } from './twilio-token';
import type { VoiceTokenService } from './voice-tokens';

export const CALL_SERVICE_DISABLED_MESSAGE =
  'The call service is turned off on this server (CALL_SERVICE_ENABLED).';

/** A number as callees see it ("From: +919000000002"); a stored number that does not parse stays as is. */
export function displayNumber(phone: string): string {
  return normalisePhoneNumber(phone) ?? phone;
}

/**
 * GET /api/v1/voice/method/getAccessToken (SPEC §7): the voice device's token, for a signed-in user who
 * may call (CALL_PERMISSION; a blocked seller is refused with SELLER_BLOCKED before that).
 * Twilio's when the server has TWILIO_* set, otherwise the local provider's (socket.io signalling).
 */
export async function voiceRoutes(
  app: FastifyInstance,
  options: { config: Config; voiceTokens: VoiceTokenService },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const twilio = twilioCredentials(options.config);

  api.get(
    '/method/getAccessToken',
    {
      config: { permission: CALL_PERMISSION },
      schema: {
        tags: ['voice'],
        summary: "The signed-in user's voice device token (Twilio or the local provider) and number",
        response: {
          200: voiceTokenResponseSchema,
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      if (!options.config.CALL_SERVICE_ENABLED)
        throw new HttpError(404, CALL_SERVICE_DISABLED_MESSAGE, 'CALL_SERVICE_DISABLED');
      const identity = request.user.id;
      const phoneNumber = displayNumber(await ensureUserNumber(app.db, identity));
      const minted = twilio
        ? await mintTwilioVoiceToken(twilio, identity)
        : await options.voiceTokens.signVoiceToken(identity);
      const data: VoiceToken = {
        token: minted.token,
        provider: twilio ? 'twilio' : 'local',
        identity,
        phoneNumber,
        expiresAt: minted.expiresAt,
      };
      return { data };
    },
  );
}
