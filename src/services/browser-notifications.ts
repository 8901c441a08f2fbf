// System notifications (the Notifications API) for broker notifications that arrive while the back-office
// tab is hidden. Permission is asked once per browser profile (remembered in localStorage, so a user who
// dismissed the prompt is not asked on every sign-in); a failure is only logged (SPEC §8 "A failed
// notification permission is only logged").

/** localStorage key: set once the permission prompt has been shown (whatever the answer). */
export const PERMISSION_ASKED_KEY = 'mp-notification-permission-asked';

/** The part of the Notifications API used here (so tests can hand in a fake). */
export interface NotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): Notification;
}

function platformApi(): NotificationApi | null {
  return typeof window !== 'undefined' && 'Notification' in window
    ? (window.Notification as unknown as NotificationApi)
    : null;
}

/**
 * Asks for permission unless it was asked before in this browser or already decided. Resolves with what
 * was decided (or null when nothing was asked); never rejects.
 */
export async function askNotificationPermissionOnce(
  api: NotificationApi | null = platformApi(),
  storage: Storage = localStorage,
): Promise<NotificationPermission | null> {
  if (api?.permission !== 'default') return null;
  try {
    if (storage.getItem(PERMISSION_ASKED_KEY)) return null;
    storage.setItem(PERMISSION_ASKED_KEY, new Date().toISOString());
    return await api.requestPermission();
  } catch (error) {
    console.error('Could not ask for the notification permission', error);
    return null;
  }
}

/**
 * Shows a system notification when the page is hidden and permission was granted; a visible page shows
 * its own toast instead. Returns whether one was shown; never throws.
 */
export function showSystemNotification(
  title: string,
  options: { body?: string; tag?: string } = {},
  api: NotificationApi | null = platformApi(),
  doc: Pick<Document, 'visibilityState'> = document,
): boolean {
  if (api?.permission !== 'granted' || doc.visibilityState !== 'hidden') return false;
  try {
    const shown = new api(title, { body: options.body, tag: options.tag });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
    return true;
  } catch (error) {
    // Some platforms (Android Chrome) only allow notifications from a service worker.
    console.error('Could not show a system notification', error);
    return false;
  }
}
