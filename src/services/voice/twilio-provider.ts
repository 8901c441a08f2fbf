// The Twilio voice provider (issue 6, production): wraps `@twilio/voice-sdk`'s Device and Call onto
// the provider surface (voice-provider.ts). The SDK is imported dynamically here only, so it is fetched
// when a Twilio token arrives and never otherwise. Tests inject a fake SDK (`loadSdk`).
//
// Event mapping:
//   Device registered / unregistered / error / incoming / tokenWillExpire → the same device events
//     (an `error` that names a call belongs to that call, which reports it itself).
//   Call accept     → answered (outgoing only: our own accept of an incoming call is not an answer)
//   Call disconnect → remoteEnded 'hangup' once answered; before: 'unavailable' (outgoing, never picked
//                     up; Twilio does not tell a callee's rejection from no answer) or 'cancelled'
//                     (incoming); nothing when we ended the call ourselves.
//   Call cancel     → remoteEnded 'cancelled' (the caller gave up while it rang)
//   Call reject     → remoteEnded 'rejected' unless we rejected it
//   Call reconnecting / reconnected / error / mute → the same call events.
import type { VoiceToken } from '../../../contracts/calls';
import {
  Emitter,
  errorMessage,
  type VoiceCall,
  type VoiceCallEvents,
  type VoiceDeviceEvents,
  type VoiceProviderDevice,
} from './voice-provider';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's listeners take each event's own arguments
type Listener = (...args: any[]) => void;

/** What this adapter uses of the SDK's Call. */
export interface TwilioCallLike {
  readonly direction: 'INCOMING' | 'OUTGOING';
  readonly parameters: Record<string, string>;
  readonly customParameters?: Map<string, string>;
  accept(): void;
  reject(): void;
  ignore(): void;
  disconnect(): void;
  mute(shouldMute?: boolean): void;
  on(event: string, listener: Listener): unknown;
}

/** What this adapter uses of the SDK's Device. */
export interface TwilioDeviceLike {
  register(): Promise<void>;
  connect(options: { params: Record<string, string> }): Promise<TwilioCallLike>;
  updateToken(token: string): void;
  destroy(): void;
  on(event: string, listener: Listener): unknown;
}

export interface TwilioSdkLike {
  Device: new (token: string, options?: Record<string, unknown>) => TwilioDeviceLike;
}

export interface TwilioProviderOptions {
  /** Test seam: the SDK module. Defaults to `import('@twilio/voice-sdk')`. */
  loadSdk?: () => Promise<TwilioSdkLike>;
  /** Passed to `new Device(token, options)`. */
  deviceOptions?: Record<string, unknown>;
}

const loadTwilioSdk = async (): Promise<TwilioSdkLike> =>
  (await import('@twilio/voice-sdk')) as unknown as TwilioSdkLike;

/** Twilio's default codec order, and: ask for a new token 30 s before the current one expires. */
export const TWILIO_DEVICE_OPTIONS: Record<string, unknown> = {
  codecPreferences: ['opus', 'pcmu'],
  tokenRefreshMs: 30_000,
  closeProtection: true,
};

class TwilioCall implements VoiceCall {
  private readonly events = new Emitter<VoiceCallEvents>();
  private answered = false;
  private endedLocally = false;
  private over = false;
  readonly direction: 'INCOMING' | 'OUTGOING';
  readonly from: string;
  readonly fromName: string;

  constructor(
    private readonly call: TwilioCallLike,
    dialled?: string,
  ) {
    this.direction = call.direction === 'OUTGOING' ? 'OUTGOING' : 'INCOMING';
    this.from = dialled ?? call.parameters.From ?? '';
    this.fromName = call.customParameters?.get('fromName') ?? '';
    call.on('accept', () => {
      this.answered = true;
      if (this.direction === 'OUTGOING' && !this.over) this.events.emit('answered', this.callSid ?? '');
    });
    call.on('disconnect', () => {
      if (this.endedLocally || this.over) return;
      this.over = true;
      const reason = this.answered ? 'hangup' : this.direction === 'OUTGOING' ? 'unavailable' : 'cancelled';
      this.events.emit('remoteEnded', reason);
    });
    call.on('cancel', () => this.endedRemotely('cancelled'));
    call.on('reject', () => {
      if (!this.endedLocally) this.endedRemotely('rejected');
    });
    call.on('reconnecting', () => this.events.emit('reconnecting'));
    call.on('reconnected', () => this.events.emit('reconnected'));
    call.on('error', (error: unknown) => {
      if (this.over) return;
      this.over = true;
      this.events.emit('error', errorMessage(error));
    });
    call.on('mute', (isMuted: boolean) => this.events.emit('muted', isMuted));
  }

  private endedRemotely(reason: 'cancelled' | 'rejected') {
    if (this.over) return;
    this.over = true;
    this.events.emit('remoteEnded', reason);
  }

  get callSid(): string | null {
    return this.call.parameters.CallSid || null;
  }

  on<E extends keyof VoiceCallEvents>(event: E, handler: VoiceCallEvents[E]) {
    return this.events.on(event, handler);
  }

  accept() {
    this.call.accept();
  }

  reject() {
    this.endedLocally = true;
    this.call.reject();
  }

  ignore() {
    this.endedLocally = true;
    this.call.ignore();
  }

  hangup() {
    this.endedLocally = true;
    this.call.disconnect();
  }

  mute(muted: boolean) {
    this.call.mute(muted);
  }
}

export function createTwilioProvider(
  token: VoiceToken,
  options: TwilioProviderOptions = {},
): VoiceProviderDevice {
  const events = new Emitter<VoiceDeviceEvents>();
  const loadSdk = options.loadSdk ?? loadTwilioSdk;
  let currentToken = token.token;
  let destroyed = false;
  let devicePromise: Promise<TwilioDeviceLike> | null = null;

  function wire(device: TwilioDeviceLike) {
    device.on('registered', () => events.emit('registered'));
    device.on('unregistered', () => events.emit('unregistered'));
    device.on('error', (error: unknown, call?: unknown) => {
      // An error of a call is the call's (it emits `error` as well); only the device's own fail it.
      if (call) return;
      events.emit('error', errorMessage(error));
    });
    device.on('incoming', (call: TwilioCallLike) => events.emit('incoming', new TwilioCall(call)));
    device.on('tokenWillExpire', () => events.emit('tokenWillExpire'));
  }

  function device(): Promise<TwilioDeviceLike> {
    devicePromise ??= loadSdk().then(
      (sdk) => {
        if (destroyed) throw new Error('The voice device was destroyed.');
        const created = new sdk.Device(currentToken, { ...TWILIO_DEVICE_OPTIONS, ...options.deviceOptions });
        wire(created);
        return created;
      },
      (error: unknown) => {
        devicePromise = null; // a failed load (offline) is tried again by the next register
        throw error;
      },
    );
    return devicePromise;
  }

  return {
    async register() {
      await (await device()).register();
    },
    async dial(number) {
      const call = await (await device()).connect({ params: { To: number } });
      return new TwilioCall(call, number);
    },
    updateToken(next) {
      currentToken = next;
      devicePromise?.then((created) => created.updateToken(next)).catch(() => {});
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      devicePromise?.then((created) => created.destroy()).catch(() => {});
      events.clear();
    },
    on(event, handler) {
      return events.on(event, handler);
    },
  };
}
