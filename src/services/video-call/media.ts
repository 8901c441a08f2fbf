// Camera, microphone and screen for video calls: the browser's mediaDevices behind a seam (tests
// fake it), and what a refused or missing device means in words for the user.
export interface MediaAccess {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  getDisplayMedia(constraints: DisplayMediaStreamOptions): Promise<MediaStream>;
  enumerateDevices(): Promise<MediaDeviceInfo[]>;
}

export function browserMedia(): MediaAccess {
  return {
    getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
    getDisplayMedia: (constraints) => navigator.mediaDevices.getDisplayMedia(constraints),
    enumerateDevices: () => navigator.mediaDevices.enumerateDevices(),
  };
}

export const CAMERA_REFUSED_MESSAGE =
  'Your browser did not allow the camera or microphone. Allow them in the address bar, or go on with audio only.';
export const MICROPHONE_REFUSED_MESSAGE =
  'Your browser did not allow the microphone. Allow it in the address bar to take part in calls.';
export const NO_DEVICE_MESSAGE = 'No camera or microphone was found. Connect one, or go on with audio only.';
export const DEVICE_BUSY_MESSAGE =
  'Your camera or microphone is in use by another application. Close it, or go on with audio only.';
export const NO_MEDIA_SUPPORT_MESSAGE =
  'This browser cannot use a camera here (the page must be served over HTTPS).';

/** getUserMedia's DOMException, in words. `audioOnly`: only the microphone was asked for. */
export function mediaErrorMessage(error: unknown, audioOnly: boolean): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return audioOnly ? MICROPHONE_REFUSED_MESSAGE : CAMERA_REFUSED_MESSAGE;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return NO_DEVICE_MESSAGE;
  if (name === 'NotReadableError' || name === 'AbortError') return DEVICE_BUSY_MESSAGE;
  if (error instanceof TypeError) return NO_MEDIA_SUPPORT_MESSAGE;
  return audioOnly ? MICROPHONE_REFUSED_MESSAGE : CAMERA_REFUSED_MESSAGE;
}
