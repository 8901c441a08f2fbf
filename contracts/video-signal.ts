// What a video call's peers say to each other through the server (issue 13): the `signal` data
// @thaunknown/simple-peer emits and takes. The server relays it without reading it, but validates it
// first, so a client cannot push arbitrary or oversized payloads to another user's tabs.
//
// simple-peer (trickle ICE) emits four shapes:
// - a session description: { type: 'offer' | 'answer', sdp } (an ICE restart is a new offer);
// - a trickled candidate: { type: 'candidate', candidate: { candidate, sdpMLineIndex, sdpMid } };
// - { type: 'renegotiate', renegotiate: true }: the non-initiator asks the initiator for a new offer;
// - { type: 'transceiverRequest', transceiverRequest: { kind, init } }: the non-initiator asks for a
//   transceiver (adding a track it has none for, e.g. a screen share started by the callee).
import { z } from 'zod';
import { iceCandidateSchema, sessionDescriptionSchema } from './voice-signalling';

/** The largest signal relayed, as JSON: a video offer with many codecs is ~10 KB; this leaves room. */
export const MAX_SIGNAL_BYTES = 32_000;
export const SIGNAL_TOO_LARGE_MESSAGE = `signal: larger than ${MAX_SIGNAL_BYTES / 1000} KB`;

const transceiverInitSchema = z
  .object({
    direction: z.enum(['sendrecv', 'sendonly', 'recvonly', 'inactive']).optional(),
    sendEncodings: z.array(z.record(z.string(), z.unknown())).max(8).optional(),
  })
  .strict();

export const videoSignalSchema = z
  .discriminatedUnion('type', [
    sessionDescriptionSchema.strict(),
    z.object({ type: z.literal('candidate'), candidate: iceCandidateSchema.strict() }).strict(),
    z.object({ type: z.literal('renegotiate'), renegotiate: z.literal(true) }).strict(),
    z
      .object({
        type: z.literal('transceiverRequest'),
        transceiverRequest: z
          .object({ kind: z.enum(['audio', 'video']), init: transceiverInitSchema.optional() })
          .strict(),
      })
      .strict(),
  ])
  .superRefine((signal, context) => {
    if (new TextEncoder().encode(JSON.stringify(signal)).length > MAX_SIGNAL_BYTES)
      context.addIssue({ code: 'custom', message: SIGNAL_TOO_LARGE_MESSAGE });
  });
export type VideoSignal = z.infer<typeof videoSignalSchema>;
