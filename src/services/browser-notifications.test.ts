import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  askNotificationPermissionOnce,
  type NotificationApi,
  PERMISSION_ASKED_KEY,
  showSystemNotification,
} from './browser-notifications';

function fakeApi(permission: NotificationPermission, answer: () => Promise<NotificationPermission>) {
  const shown: { title: string; options?: NotificationOptions }[] = [];
  const Api = class {
    static permission = permission;
    static requestPermission = vi.fn(answer);
    onclick: (() => void) | null = null;
    close = vi.fn();
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, options });
    }
  };
  return { api: Api as unknown as NotificationApi & { requestPermission: ReturnType<typeof vi.fn> }, shown };
}

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('notification permission', () => {
  it('is asked once per browser, whatever the answer', async () => {
    const { api } = fakeApi('default', async () => 'denied');
    expect(await askNotificationPermissionOnce(api, localStorage)).toBe('denied');
    expect(localStorage.getItem(PERMISSION_ASKED_KEY)).not.toBeNull();
    expect(await askNotificationPermissionOnce(api, localStorage)).toBeNull();
    expect(api.requestPermission).toHaveBeenCalledTimes(1);
  });

  it('is not asked when already decided or when the browser has no notifications', async () => {
    const { api } = fakeApi('granted', async () => 'granted');
    expect(await askNotificationPermissionOnce(api, localStorage)).toBeNull();
    expect(api.requestPermission).not.toHaveBeenCalled();
    expect(await askNotificationPermissionOnce(null, localStorage)).toBeNull();
    expect(localStorage.getItem(PERMISSION_ASKED_KEY)).toBeNull();
  });

  it('a failure is only logged (SPEC §8)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api } = fakeApi('default', async () => {
      throw new Error('blocked');
    });
    await expect(askNotificationPermissionOnce(api, localStorage)).resolves.toBeNull();
    expect(error).toHaveBeenCalledTimes(1);
  });
});

describe('system notifications', () => {
  it('show only while the page is hidden and permission was granted', () => {
    const granted = fakeApi('granted', async () => 'granted');
    expect(
      showSystemNotification('Export ready', { body: 'b' }, granted.api, { visibilityState: 'visible' }),
    ).toBe(false);
    expect(
      showSystemNotification('Export ready', { body: 'b', tag: 'n-1' }, granted.api, {
        visibilityState: 'hidden',
      }),
    ).toBe(true);
    expect(granted.shown).toEqual([{ title: 'Export ready', options: { body: 'b', tag: 'n-1' } }]);

    const denied = fakeApi('denied', async () => 'denied');
    expect(showSystemNotification('Export ready', {}, denied.api, { visibilityState: 'hidden' })).toBe(false);
    expect(denied.shown).toEqual([]);
  });
});
