// The voice chunk (issue 6): loaded only with `import('…/services/voice')` when the call service is on
// (SPEC §5), never statically from the app entry. Twilio's SDK is a further chunk of its own.

export { createLocalProvider, type LocalProviderOptions } from './local-provider';
export { createTwilioProvider, type TwilioProviderOptions } from './twilio-provider';
export type {
  RemoteEndReason,
  VoiceCall,
  VoiceCallEvents,
  VoiceDeviceEvents,
  VoiceProviderDevice,
} from './voice-provider';
export {
  fetchVoiceToken,
  GENERATE_CALL_PATH,
  NO_CALL_LOG_MESSAGE,
  type StartVoiceOptions,
  startVoice,
  updateHistoryPath,
  VOICE_TOKEN_PATH,
  type VoiceHandle,
} from './voice-session';
