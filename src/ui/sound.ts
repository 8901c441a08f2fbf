// The notification chime (SPEC §2 "A notification sound at /Audio/notification.wav").
//
// Sound is a nicety on top of a toast: browsers block autoplay until the user has interacted
// with the page, the file may be missing on a misconfigured deployment, and jsdom has no audio.
// None of that may break the caller (often a broker message handler), so every failure is a
// console warning and the returned promise always resolves.

export const NOTIFICATION_SOUND_URL = '/Audio/notification.wav';

/** Plays the chime; resolves `true` if playback started, `false` (with a warning) otherwise. */
export async function playNotificationSound(): Promise<boolean> {
  try {
    const audio = new Audio(NOTIFICATION_SOUND_URL);
    // Older engines return undefined instead of a promise from play().
    await audio.play();
    return true;
  } catch (error) {
    console.warn('Could not play the notification sound', error);
    return false;
  }
}
