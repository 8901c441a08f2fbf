// How the voice device's state reads in the header's phone button and the call dialog: the SPEC §4 text
// (selectDeviceStatusText) and a colour for its dot.
import type { VoiceDeviceStatus } from '../../machines/voice-device.machine';

export const DEVICE_STATUS_COLOR: Record<VoiceDeviceStatus, string> = {
  ready: 'green.solid',
  registering: 'orange.solid',
  offline: 'orange.solid',
  notReady: 'gray.solid',
  disconnected: 'red.solid',
  destroyed: 'gray.solid',
};

export function deviceStatusColor(state: unknown): string {
  return DEVICE_STATUS_COLOR[state as VoiceDeviceStatus] ?? 'gray.solid';
}
