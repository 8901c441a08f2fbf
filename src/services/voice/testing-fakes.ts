// Test support: a scripted voice provider (the device and its calls), for the session's tests and the
// model-based tests of the call UI. Never imported by the app.
import type { VoiceToken } from '../../../contracts/calls';
import {
  Emitter,
  type VoiceCall,
  type VoiceCallEvents,
  type VoiceDeviceEvents,
  type VoiceProviderDevice,
} from './voice-provider';

export const FAKE_VOICE_TOKEN: VoiceToken = {
  token: 'voice-token-1',
  provider: 'local',
  identity: 'user-1',
  phoneNumber: '+919000000001',
  expiresAt: Date.UTC(2030, 0, 1),
};

export class FakeVoiceCall implements VoiceCall {
  readonly events = new Emitter<VoiceCallEvents>();
  readonly actions: string[] = [];

  constructor(
    readonly direction: 'INCOMING' | 'OUTGOING',
    public callSid: string | null,
    readonly from: string,
    readonly fromName = '',
  ) {}

  on<E extends keyof VoiceCallEvents>(event: E, handler: VoiceCallEvents[E]) {
    return this.events.on(event, handler);
  }
  accept() {
    this.actions.push('accept');
  }
  reject() {
    this.actions.push('reject');
  }
  ignore() {
    this.actions.push('ignore');
  }
  hangup() {
    this.actions.push('hangup');
  }
  mute(muted: boolean) {
    this.actions.push(muted ? 'mute' : 'unmute');
  }
}

export class FakeVoiceDevice implements VoiceProviderDevice {
  readonly events = new Emitter<VoiceDeviceEvents>();
  readonly actions: string[] = [];
  readonly tokens: string[] = [];
  readonly dialled: FakeVoiceCall[] = [];
  /** What the next register() does. */
  registerResult: () => Promise<void> = async () => {
    queueMicrotask(() => this.events.emit('registered'));
  };
  /** What the next dial() does. */
  dialResult: ((number: string) => Promise<FakeVoiceCall>) | null = null;

  constructor(readonly token: VoiceToken) {}

  register() {
    this.actions.push('register');
    return this.registerResult();
  }
  dial(number: string) {
    this.actions.push(`dial ${number}`);
    if (this.dialResult) return this.dialResult(number);
    const call = new FakeVoiceCall('OUTGOING', null, number);
    this.dialled.push(call);
    return Promise.resolve(call);
  }
  updateToken(token: string) {
    this.tokens.push(token);
  }
  destroy() {
    this.actions.push('destroy');
  }
  on<E extends keyof VoiceDeviceEvents>(event: E, handler: VoiceDeviceEvents[E]) {
    return this.events.on(event, handler);
  }
  /** Rings this device. */
  ring(callSid: string, from: string): FakeVoiceCall {
    const call = new FakeVoiceCall('INCOMING', callSid, from, 'Caller');
    this.events.emit('incoming', call);
    return call;
  }
}
