import { describe, expect, it } from 'vitest';
import { MAX_SIGNAL_BYTES, SIGNAL_TOO_LARGE_MESSAGE, videoSignalSchema } from './video-signal';

const sdp = 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

describe('the video signal contract', () => {
  it('takes every shape simple-peer emits with trickle ICE', () => {
    const signals = [
      { type: 'offer', sdp },
      { type: 'answer', sdp },
      {
        type: 'candidate',
        candidate: {
          candidate: 'candidate:842163049 1 udp 1677729535 192.0.2.10 50000 typ srflx',
          sdpMLineIndex: 0,
          sdpMid: '0',
        },
      },
      { type: 'renegotiate', renegotiate: true },
      { type: 'transceiverRequest', transceiverRequest: { kind: 'video', init: { direction: 'sendrecv' } } },
    ];
    for (const signal of signals) expect(videoSignalSchema.parse(signal)).toEqual(signal);
  });

  it('refuses what is not a signal: unknown types, extra fields, wrong kinds', () => {
    const refused = [
      null,
      'offer',
      { type: 'pranswer', sdp },
      { type: 'offer' },
      { type: 'offer', sdp, extra: 'smuggled' },
      { type: 'candidate', candidate: { candidate: 'x', sdpMLineIndex: -1 } },
      { type: 'renegotiate', renegotiate: false },
      { type: 'transceiverRequest', transceiverRequest: { kind: 'data' } },
    ];
    for (const value of refused)
      expect(videoSignalSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it(`caps a signal at ${MAX_SIGNAL_BYTES / 1000} KB of JSON, counting bytes rather than characters`, () => {
    // Within the SDP's own bound in characters, but over the cap in UTF-8 bytes.
    const wide = { type: 'offer', sdp: 'é'.repeat(MAX_SIGNAL_BYTES / 2) };
    const result = videoSignalSchema.safeParse(wide);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(SIGNAL_TOO_LARGE_MESSAGE);
    expect(videoSignalSchema.safeParse({ type: 'offer', sdp: 'a'.repeat(15_000) }).success).toBe(true);
  });
});
