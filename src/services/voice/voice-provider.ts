// The one device surface both voice providers implement (issue 6): Twilio's Voice SDK (production) and
// the embedded local WebRTC provider. It follows the SDK's Device and Call 1:1 (register, connect →
// dial, updateToken, destroy; accept, reject, ignore, disconnect → hangup, mute), with the events
// already in the words of the statecharts (voice-device.machine.ts, call.machine.ts), so the session
// (voice-session.ts) only forwards them.
import type { RemoteEndReason } from '../../machines/call.machine';

export type { RemoteEndReason };

export interface VoiceDeviceEvents {
  /** A call rings this device (Twilio `incoming`). The call is still to be accepted/rejected/ignored. */
  incoming: (call: VoiceCall) => void;
  /** The provider accepted the registration (Twilio `registered`). */
  registered: () => void;
  /** The device is no longer registered (Twilio `unregistered`; local: another tab registered). */
  unregistered: () => void;
  /** The connection to the provider dropped (local: the signalling socket disconnected). */
  offline: () => void;
  /** A device failure (Twilio `error` without a call). */
  error: (message: string) => void;
  /** The token expires soon: fetch a new one and hand it to `updateToken` (Twilio `tokenWillExpire`). */
  tokenWillExpire: () => void;
}

export interface VoiceCallEvents {
  /** The callee answered our call (Twilio `accept` on an outgoing call). */
  answered: (callSid: string) => void;
  /**
   * The other side ended, or never took, the call (Twilio `disconnect`/`cancel`/`reject` not caused by
   * us). `message` says why when the provider knows (e.g. "No one has the number …").
   */
  remoteEnded: (reason: RemoteEndReason, message?: string) => void;
  /** The media connection dropped and is being restored. */
  reconnecting: () => void;
  reconnected: () => void;
  /** The call failed; it is over. */
  error: (message: string) => void;
  /** The provider confirms the mute state (Twilio `mute`). */
  muted: (muted: boolean) => void;
}

export type Unsubscribe = () => void;

export interface VoiceCall {
  readonly direction: 'INCOMING' | 'OUTGOING';
  /** The provider's id of the call (Twilio CallSid). Twilio knows it for outgoing calls once answered. */
  readonly callSid: string | null;
  /** The other party's number. */
  readonly from: string;
  /** The caller's name, when the provider knows it (local calls); otherwise ''. */
  readonly fromName: string;
  accept(): void;
  reject(): void;
  ignore(): void;
  /** Ends our side (Twilio `disconnect()`); cancels an outgoing call not yet answered. */
  hangup(): void;
  mute(muted: boolean): void;
  on<E extends keyof VoiceCallEvents>(event: E, handler: VoiceCallEvents[E]): Unsubscribe;
}

export interface VoiceProviderDevice {
  /** Registers for incoming calls; rejects with the provider's message. */
  register(): Promise<void>;
  /** Dials a number (Twilio `connect({ params: { To } })`); rejects when no call could be started. */
  dial(number: string): Promise<VoiceCall>;
  /** Hands a fresh token to the device (Twilio `updateToken`). */
  updateToken(token: string): void;
  /** Tears the device down; its calls end. */
  destroy(): void;
  on<E extends keyof VoiceDeviceEvents>(event: E, handler: VoiceDeviceEvents[E]): Unsubscribe;
}

/** A tiny typed event emitter (no Node `events` in the browser bundle). Handler errors are logged. */
export class Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly handlers = new Map<keyof Events, Set<Events[keyof Events]>>();

  on<E extends keyof Events>(event: E, handler: Events[E]): Unsubscribe {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      try {
        (handler as (...values: Parameters<Events[E]>) => void)(...args);
      } catch (error) {
        console.error(`Voice ${String(event)} handler failed`, error);
      }
    }
  }

  clear(): void {
    this.handlers.clear();
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
    return (error as { message: string }).message;
  return String(error);
}
