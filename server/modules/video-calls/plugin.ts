import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { attachPresence } from './presence';
import { attachVideoCalls, type VideoCallOptions, type VideoCalls } from './signalling';

declare module 'fastify' {
  interface FastifyInstance {
    /** Video calls' timings (tests shorten them) and their sweep. */
    videoCalls: VideoCalls;
  }
}

/**
 * Video calls between users (issue 13): their events on the signalling server (signalling.ts) and the
 * records behind them. A missed call leaves a notification, hence `notifications`.
 */
export const videoCallsPlugin = fp(
  async (app: FastifyInstance, options: VideoCallOptions) => {
    const videoCalls = attachVideoCalls({
      io: app.signalling.io,
      db: app.db,
      notifications: app.notifications,
      log: app.log,
      limiter: (limit) => app.createEventLimiter(limit),
      options,
    });
    app.decorate('videoCalls', videoCalls);
    // The people picker follows who comes online while it is open (presence.ts).
    attachPresence({ signalling: app.signalling, db: app.db, log: app.log });
    // Calls that rang out on an instance that has stopped, and answered calls nobody is in any more:
    // looked for once the server is up (and then every sweepIntervalMs), without delaying the start.
    app.addHook('onReady', async () => videoCalls.startSweeping());
    // Before the database closes: no timer may fire into a closed pool.
    app.addHook('preClose', async () => {
      await videoCalls.close();
    });
  },
  { name: 'video-calls', dependencies: ['db', 'signalling', 'notifications', 'rate-limits'] },
);
