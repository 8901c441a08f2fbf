// The Twilio provider against a fake SDK: an EventEmitter with the Device's and Call's method names and
// events (@twilio/voice-sdk 2.x), so the mapping onto the provider surface is checked without a network.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { FAKE_VOICE_TOKEN } from './testing-fakes';
import {
  createTwilioProvider,
  TWILIO_DEVICE_OPTIONS,
  type TwilioCallLike,
  type TwilioDeviceLike,
  type TwilioSdkLike,
} from './twilio-provider';
import type { VoiceCall } from './voice-provider';

class FakeTwilioCall extends EventEmitter implements TwilioCallLike {
  readonly calls: string[] = [];
  readonly customParameters = new Map<string, string>();
  constructor(
    readonly direction: 'INCOMING' | 'OUTGOING',
    readonly parameters: Record<string, string>,
  ) {
    super();
  }
  accept() {
    this.calls.push('accept');
    this.emit('accept', this);
  }
  reject() {
    this.calls.push('reject');
    this.emit('reject');
  }
  ignore() {
    this.calls.push('ignore');
  }
  disconnect() {
    this.calls.push('disconnect');
    this.emit('disconnect', this);
  }
  mute(shouldMute = true) {
    this.calls.push(shouldMute ? 'mute' : 'unmute');
    this.emit('mute', shouldMute, this);
  }
}

class FakeTwilioDevice extends EventEmitter implements TwilioDeviceLike {
  static created: FakeTwilioDevice[] = [];
  readonly calls: string[] = [];
  readonly connects: Record<string, string>[] = [];
  nextCall: FakeTwilioCall | null = null;
  constructor(
    public token: string,
    readonly options?: Record<string, unknown>,
  ) {
    super();
    FakeTwilioDevice.created.push(this);
  }
  async register() {
    this.calls.push('register');
    this.emit('registered');
  }
  async connect(options: { params: Record<string, string> }) {
    this.connects.push(options.params);
    const call = this.nextCall ?? new FakeTwilioCall('OUTGOING', {});
    return call;
  }
  updateToken(token: string) {
    this.token = token;
    this.calls.push(`updateToken ${token}`);
  }
  destroy() {
    this.calls.push('destroy');
  }
}

function setup() {
  FakeTwilioDevice.created = [];
  const loadSdk = vi.fn(async (): Promise<TwilioSdkLike> => ({ Device: FakeTwilioDevice }));
  const provider = createTwilioProvider(
    { ...FAKE_VOICE_TOKEN, provider: 'twilio', token: 'twilio-jwt' },
    { loadSdk },
  );
  const seen: string[] = [];
  provider.on('registered', () => seen.push('registered'));
  provider.on('unregistered', () => seen.push('unregistered'));
  provider.on('error', (message) => seen.push(`error ${message}`));
  provider.on('tokenWillExpire', () => seen.push('tokenWillExpire'));
  const incoming: VoiceCall[] = [];
  provider.on('incoming', (call) => incoming.push(call));
  const device = () => {
    const created = FakeTwilioDevice.created[0];
    if (!created) throw new Error('no Device yet');
    return created;
  };
  return { provider, loadSdk, seen, incoming, device };
}

function watch(call: VoiceCall) {
  const seen: string[] = [];
  call.on('answered', (sid) => seen.push(`answered ${sid}`));
  call.on('remoteEnded', (reason) => seen.push(`remoteEnded ${reason}`));
  call.on('reconnecting', () => seen.push('reconnecting'));
  call.on('reconnected', () => seen.push('reconnected'));
  call.on('error', (message) => seen.push(`error ${message}`));
  call.on('muted', (muted) => seen.push(`muted ${muted}`));
  return seen;
}

describe('Twilio provider', () => {
  it('loads the SDK only when registering, creates the Device with the token, and maps device events', async () => {
    const { provider, loadSdk, seen, device } = setup();
    expect(loadSdk).not.toHaveBeenCalled();
    await provider.register();
    expect(loadSdk).toHaveBeenCalledTimes(1);
    expect(device().token).toBe('twilio-jwt');
    expect(device().options).toMatchObject(TWILIO_DEVICE_OPTIONS);
    device().emit('unregistered');
    device().emit('tokenWillExpire', device());
    device().emit('error', { message: 'AccessTokenExpired', code: 20104 });
    // An error of a call is reported by the call itself.
    device().emit('error', { message: 'ConnectionError' }, new FakeTwilioCall('INCOMING', {}));
    expect(seen).toEqual(['registered', 'unregistered', 'tokenWillExpire', 'error AccessTokenExpired']);
    provider.updateToken('twilio-jwt-2');
    await Promise.resolve();
    expect(device().calls).toContain('updateToken twilio-jwt-2');
    provider.destroy();
    await Promise.resolve();
    expect(device().calls).toContain('destroy');
    // A destroyed provider reports nothing more.
    device().emit('registered');
    expect(seen.filter((event) => event === 'registered')).toHaveLength(1);
  });

  it('a failed SDK load rejects register and is tried again next time', async () => {
    FakeTwilioDevice.created = [];
    const loadSdk = vi
      .fn<() => Promise<TwilioSdkLike>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ Device: FakeTwilioDevice });
    const provider = createTwilioProvider({ ...FAKE_VOICE_TOKEN, provider: 'twilio' }, { loadSdk });
    await expect(provider.register()).rejects.toThrow('Failed to fetch dynamically imported module');
    await expect(provider.register()).resolves.toBeUndefined();
    expect(loadSdk).toHaveBeenCalledTimes(2);
  });

  it('incoming: From and CallSid; accept is not an answer; the caller hanging up ends it', async () => {
    const { provider, incoming, device } = setup();
    await provider.register();
    const twilioCall = new FakeTwilioCall('INCOMING', { CallSid: 'CA123', From: '+15551230000' });
    device().emit('incoming', twilioCall);
    const call = incoming[0];
    if (!call) throw new Error('no incoming call');
    expect(call).toMatchObject({ direction: 'INCOMING', callSid: 'CA123', from: '+15551230000' });
    const seen = watch(call);
    call.accept();
    call.mute(true);
    call.mute(false);
    twilioCall.emit('reconnecting', { message: 'ICE lost' });
    twilioCall.emit('reconnected');
    twilioCall.emit('disconnect', twilioCall);
    expect(twilioCall.calls).toEqual(['accept', 'mute', 'unmute']);
    expect(seen).toEqual(['muted true', 'muted false', 'reconnecting', 'reconnected', 'remoteEnded hangup']);
  });

  it('incoming: the caller cancelling ends it as cancelled; our own reject, ignore and hang-up report nothing', async () => {
    const { provider, incoming, device } = setup();
    await provider.register();
    const calls = ['a', 'b', 'c', 'd'].map(
      (sid) => new FakeTwilioCall('INCOMING', { CallSid: sid, From: '1' }),
    );
    for (const call of calls) device().emit('incoming', call);
    const seen = incoming.map(watch);
    calls[0]?.emit('cancel');
    calls[0]?.emit('disconnect');
    incoming[1]?.reject();
    incoming[2]?.ignore();
    incoming[3]?.accept();
    incoming[3]?.hangup();
    expect(seen).toEqual([['remoteEnded cancelled'], [], [], []]);
    expect(calls.map((call) => call.calls)).toEqual([[], ['reject'], ['ignore'], ['accept', 'disconnect']]);
  });

  it('outgoing: connect with To; accept → answered with the CallSid; a disconnect before is not picked up', async () => {
    const { provider, device } = setup();
    await provider.register();
    const answered = new FakeTwilioCall('OUTGOING', {});
    device().nextCall = answered;
    const call = await provider.dial('+919000000003');
    expect(device().connects).toEqual([{ To: '+919000000003' }]);
    expect(call).toMatchObject({ direction: 'OUTGOING', from: '+919000000003', callSid: null });
    const seen = watch(call);
    (answered.parameters as Record<string, string>).CallSid = 'CA-out';
    answered.emit('accept', answered);
    answered.emit('disconnect', answered);
    expect(seen).toEqual(['answered CA-out', 'remoteEnded hangup']);

    const unanswered = new FakeTwilioCall('OUTGOING', {});
    device().nextCall = unanswered;
    const second = watch(await provider.dial('123456'));
    unanswered.emit('disconnect', unanswered);
    expect(second).toEqual(['remoteEnded unavailable']);

    const failing = new FakeTwilioCall('OUTGOING', {});
    device().nextCall = failing;
    const third = watch(await provider.dial('123456'));
    failing.emit('error', { message: 'Media connection failed', code: 53405 });
    failing.emit('disconnect', failing);
    expect(third).toEqual(['error Media connection failed']);
  });
});
