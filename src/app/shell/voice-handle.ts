// What the shell needs of the voice service (src/services/voice, loaded on demand). Declared here, with
// the service's own names, so the shell compiles and is tested against the contract rather than the
// implementation: `import type` of this file pulls nothing into any chunk.
import type { ActorRefFrom } from 'xstate';
import type { CallMachine } from '../../machines/call.machine';
import type { VoiceDeviceMachine } from '../../machines/voice-device.machine';

export interface VoiceHandle {
  device: ActorRefFrom<VoiceDeviceMachine>;
  call: ActorRefFrom<CallMachine>;
  /** The user's own number and the provider in use, once the voice token arrived. */
  info(): { phoneNumber: string; provider: 'twilio' | 'local' } | null;
  /** Tear the device down (its calls end) and stop both actors. */
  stop(): void;
}

/** The shape of `import('../../services/voice')` the provider relies on. */
export interface VoiceModule {
  startVoice(options?: never): VoiceHandle;
}
