import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { jwtSigningKey } from '../auth/tokens';
import { attachLocalSignalling, DIAL_LIMIT } from './local-signalling';
import { createVoiceTokenService, type VoiceTokenService } from './voice-tokens';

declare module 'fastify' {
  interface FastifyInstance {
    /** The local voice provider's device tokens and call tickets. */
    voiceTokens: VoiceTokenService;
  }
}

/**
 * Voice calls (issue 6): the local provider's tokens and its events on the signalling server. Twilio
 * needs no server events (its SDK talks to Twilio); the token route (routes.ts) picks the provider.
 */
export const voicePlugin = fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const voiceTokens = createVoiceTokenService(await jwtSigningKey(app.db, options.config.JWT_SECRET));
    app.decorate('voiceTokens', voiceTokens);
    attachLocalSignalling(app.signalling.io, {
      db: app.db,
      voiceTokens,
      log: app.log,
      dialLimiter: app.createEventLimiter({ name: 'voice-dial', ...DIAL_LIMIT }),
    });
  },
  { name: 'voice', dependencies: ['signalling', 'rate-limits'] },
);
