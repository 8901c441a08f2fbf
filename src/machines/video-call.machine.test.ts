import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  isCallAccepted,
  isCallEnded,
  type VideoCallEvent,
  type VideoPeer,
  videoCallMachine,
} from './video-call.machine';

const SELF = '00000000-0000-4000-8000-000000000002';
const LOWER: VideoPeer = { id: '00000000-0000-4000-8000-000000000001', name: 'Asha Admin', avatarUrl: null };
const HIGHER: VideoPeer = { id: '00000000-0000-4000-8000-000000000003', name: 'Sam Seller', avatarUrl: null };
const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);

/** The machine with every effect recorded. */
function run(events: VideoCallEvent[]) {
  const effects: { type: string; params: unknown }[] = [];
  const record = (type: string) => (_: unknown, params: unknown) => effects.push({ type, params });
  const machine = videoCallMachine.provide({
    actions: Object.fromEntries(
      [
        'prepareCall',
        'prepareAnswer',
        'sendDecline',
        'sendHangup',
        'sendConnected',
        'releaseMedia',
        'setMicrophone',
        'setCamera',
        'startScreenShare',
        'stopScreenShare',
        'leaveCall',
      ].map((type) => [type, record(type)]),
    ),
  });
  const actor = createActor(machine, { input: { selfId: SELF } }).start();
  for (const event of events) actor.send(event);
  return { snapshot: actor.getSnapshot(), effects };
}

const start = (peer = HIGHER): VideoCallEvent => ({
  type: 'videoCall.start',
  callId: 'c1',
  peer,
  audioOnly: false,
});
const ring = (peer = LOWER, callId = 'c2'): VideoCallEvent => ({ type: 'videoCall.incoming', callId, peer });

describe('the video-call statechart', () => {
  it('calls: prepares, rings, connects, and reloads the page when hung up, with the call’s duration', () => {
    const { snapshot, effects } = run([
      start(),
      { type: 'videoCall.ringing' },
      { type: 'videoCall.accepted' },
      { type: 'videoCall.connected', at: T0 },
      { type: 'videoCall.hangup', at: T0 + 65_400 },
    ]);
    expect(snapshot.value).toBe('ended');
    expect(isCallAccepted(snapshot)).toBe(true);
    expect(isCallEnded(snapshot)).toBe(true);
    expect(effects.map((effect) => effect.type)).toEqual([
      'prepareCall',
      'sendConnected',
      'sendHangup',
      'leaveCall',
    ]);
    expect(effects.at(-1)?.params).toEqual({ peerName: HIGHER.name, durationSeconds: 65, message: null });
  });

  it('answers: accepting prepares the answer; the other side leaving ends and reloads', () => {
    const { snapshot, effects } = run([
      ring(),
      { type: 'videoCall.accept' },
      { type: 'videoCall.answered' },
      { type: 'videoCall.connected', at: T0 },
      { type: 'videoCall.remoteEnded', reason: 'hangup', at: T0 + 3_000 },
    ]);
    expect(snapshot.value).toBe('ended');
    expect(snapshot.context.leaveReason).toBe('hangup');
    expect(effects.find((effect) => effect.type === 'prepareAnswer')?.params).toEqual({
      callId: 'c2',
      callerId: LOWER.id,
      audioOnly: false,
    });
    expect(effects.map((effect) => effect.type)).not.toContain('sendHangup');
  });

  it('stops ringing when another tab answers, without touching the server', () => {
    const { snapshot, effects } = run([ring(), { type: 'videoCall.cancelled', reason: 'answeredElsewhere' }]);
    expect(snapshot.value).toBe('idle');
    expect(effects.map((effect) => effect.type)).toEqual(['releaseMedia']);
  });

  it('tells the caller a decline, no answer, busy and unavailable, and releases the camera without a reload', () => {
    const declined = run([
      start(),
      { type: 'videoCall.ringing' },
      { type: 'videoCall.declined', message: 'no' },
    ]);
    expect(declined.snapshot.value).toBe('declined');
    expect(declined.effects.map((effect) => effect.type)).toEqual(['prepareCall', 'releaseMedia']);
    const noAnswer = run([
      start(),
      { type: 'videoCall.ringing' },
      { type: 'videoCall.remoteEnded', reason: 'noAnswer', at: T0 },
    ]);
    expect(noAnswer.snapshot.value).toBe('notAnswered');
    expect(noAnswer.snapshot.context.message).toBe('Sam Seller did not answer.');
    const busy = run([
      start(),
      { type: 'videoCall.refused', reason: 'busy', message: 'Sam is in another call.' },
    ]);
    expect(busy.snapshot.value).toBe('busy');
    const offline = run([start(), { type: 'videoCall.refused', reason: 'unavailable', message: 'offline' }]);
    expect(offline.snapshot.value).toBe('notAnswered');
    expect(
      run([
        ...[start(), { type: 'videoCall.refused', reason: 'busy', message: 'x' } as const],
        { type: 'videoCall.dismiss' },
      ]).snapshot.value,
    ).toBe('idle');
  });

  it('offers audio only when the camera is refused, on both sides', () => {
    const caller = run([
      start(),
      { type: 'videoCall.mediaRefused', message: 'blocked' },
      { type: 'videoCall.audioOnly' },
    ]);
    expect(caller.snapshot.value).toBe('preparing');
    expect(caller.snapshot.context).toMatchObject({ audioOnly: true, cameraOff: true });
    expect(caller.effects.filter((effect) => effect.type === 'prepareCall').at(-1)?.params).toMatchObject({
      audioOnly: true,
    });
    const callee = run([
      ring(),
      { type: 'videoCall.accept' },
      { type: 'videoCall.mediaRefused', message: 'blocked' },
    ]);
    expect(callee.snapshot.value).toBe('mediaRefused');
    const declined = run([
      ring(),
      { type: 'videoCall.accept' },
      { type: 'videoCall.mediaRefused', message: 'x' },
      { type: 'videoCall.decline' },
    ]);
    expect(declined.snapshot.value).toBe('idle');
    expect(declined.effects.map((effect) => effect.type)).toContain('sendDecline');
  });

  it('resolves glare by user id: the polite (lower id) side takes the other call, the other ignores it', () => {
    // SELF (…02) calls HIGHER (…03) and HIGHER calls SELF: SELF is polite and takes HIGHER's call.
    const polite = run([start(HIGHER), { type: 'videoCall.ringing' }, ring(HIGHER, 'c9')]);
    expect(polite.snapshot.value).toBe('incoming');
    expect(polite.snapshot.context.callId).toBe('c9');
    expect(polite.effects.map((effect) => effect.type)).toEqual([
      'prepareCall',
      'sendHangup',
      'releaseMedia',
    ]);
    // SELF calls LOWER (…01) and LOWER calls SELF: SELF is impolite and keeps ringing LOWER.
    const impolite = run([start(LOWER), { type: 'videoCall.ringing' }, ring(LOWER, 'c9')]);
    expect(impolite.snapshot.value).toBe('outgoing');
    expect(impolite.effects.map((effect) => effect.type)).toEqual(['prepareCall']);
  });

  it('declines any other ring as busy while on a call', () => {
    const { snapshot, effects } = run([
      start(HIGHER),
      { type: 'videoCall.ringing' },
      { type: 'videoCall.accepted' },
      { type: 'videoCall.connected', at: T0 },
      ring(LOWER, 'c7'),
    ]);
    expect(snapshot.value).toBe('inCall');
    expect(effects.at(-1)).toEqual({ type: 'sendDecline', params: { callId: 'c7', busy: true } });
  });

  it('mutes, turns the camera off and shares the screen, and shows reconnecting and quality', () => {
    const { snapshot, effects } = run([
      start(),
      { type: 'videoCall.ringing' },
      { type: 'videoCall.accepted' },
      { type: 'videoCall.connected', at: T0 },
      { type: 'videoCall.toggleMute' },
      { type: 'videoCall.toggleCamera' },
      { type: 'videoCall.startShare' },
      { type: 'videoCall.shareStarted' },
      { type: 'videoCall.reconnecting' },
      { type: 'videoCall.quality', quality: 'poor' },
    ]);
    expect(snapshot.context).toMatchObject({
      muted: true,
      cameraOff: true,
      sharing: true,
      reconnecting: true,
      quality: 'poor',
    });
    expect(effects.filter((effect) => effect.type.startsWith('set'))).toEqual([
      { type: 'setMicrophone', params: { enabled: false } },
      { type: 'setCamera', params: { enabled: false } },
    ]);
    expect(effects.map((effect) => effect.type)).toContain('startScreenShare');
  });

  it('ends a call that fails after it was accepted with a reload that says why', () => {
    const { snapshot, effects } = run([
      ring(),
      { type: 'videoCall.accept' },
      { type: 'videoCall.answered' },
      { type: 'videoCall.failed', message: 'lost', at: T0 },
    ]);
    expect(snapshot.value).toBe('ended');
    expect(effects.at(-1)).toEqual({
      type: 'leaveCall',
      params: { peerName: LOWER.name, durationSeconds: 0, message: 'lost' },
    });
  });
});
