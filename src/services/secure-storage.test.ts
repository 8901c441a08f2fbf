import 'fake-indexeddb/auto';
import { webcrypto } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTH_ADDITIONAL_DATA,
  AUTH_STORAGE_KEY,
  clearAuth,
  KEY_DB_NAME,
  KEY_STORE_NAME,
  loadAuth,
  resetSecureStorageForTests,
  saveAuth,
} from './secure-storage';
import type { StoredAuth } from './stored-auth';

// Node's WebCrypto, whatever the DOM environment provides.
vi.stubGlobal('crypto', webcrypto);

const auth: StoredAuth = {
  accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.secret-signature',
  twilioToken: '',
  username: 'Asha Rao',
  userAvatar: null,
  roles: ['ROLE_ADMIN'],
  id: 'u-1',
  sellerId: null,
  clientId: 'bo_0123456789abcdef0123456789abcdef_u-1',
  isAdmin: true,
  isStaff: false,
  isSeller: false,
  loggedIn: true,
  tasks: { 't-1': { name: 'Export sellers', timestamp: 1700000000000 } },
};

beforeEach(() => {
  localStorage.clear();
  // A fresh IndexedDB (a new browser profile) and no cached key.
  globalThis.indexedDB = new IDBFactory();
  resetSecureStorageForTests();
});

function stored(): string {
  const value = localStorage.getItem(AUTH_STORAGE_KEY);
  if (value === null) throw new Error('no auth entry');
  return value;
}

async function storedKey(): Promise<CryptoKey> {
  const request = indexedDB.open(KEY_DB_NAME);
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const get = db.transaction(KEY_STORE_NAME).objectStore(KEY_STORE_NAME).getAll();
  const keys = await new Promise<CryptoKey[]>((resolve) => {
    get.onsuccess = () => resolve(get.result as CryptoKey[]);
  });
  db.close();
  expect(keys).toHaveLength(1);
  return keys[0] as CryptoKey;
}

describe('secure storage of the auth entry', () => {
  it('round-trips the auth', async () => {
    await saveAuth(auth);
    expect(await loadAuth()).toEqual(auth);
  });

  it('never leaves plain JSON, the token or any field readable in localStorage', async () => {
    await saveAuth(auth);
    const value = stored();
    expect(() => JSON.parse(value)).toThrow();
    for (const secret of [
      auth.accessToken,
      'secret-signature',
      'Asha',
      'ROLE_ADMIN',
      'loggedIn',
      'Export sellers',
    ]) {
      expect(value).not.toContain(secret);
      expect(atob(value)).not.toContain(secret);
    }
    // base64 of a 12-byte IV followed by the ciphertext and its 16-byte tag.
    const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    expect(bytes.length).toBe(12 + new TextEncoder().encode(JSON.stringify(auth)).length + 16);
  });

  it('uses a fresh random IV for every write', async () => {
    await saveAuth(auth);
    const first = stored();
    await saveAuth(auth);
    const second = stored();
    expect(second).not.toBe(first);
    expect(atob(first).slice(0, 12)).not.toBe(atob(second).slice(0, 12));
  });

  it('keeps a non-extractable AES-GCM key in IndexedDB and reuses it after a reload', async () => {
    await saveAuth(auth);
    const key = await storedKey();
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    // A reload: the module forgets its cached key and reads it back from IndexedDB.
    resetSecureStorageForTests();
    expect(await loadAuth()).toEqual(auth);
  });

  it('returns null and removes the entry when the ciphertext was tampered with', async () => {
    await saveAuth(auth);
    const bytes = Uint8Array.from(atob(stored()), (c) => c.charCodeAt(0));
    bytes[20] = (bytes[20] ?? 0) ^ 0x01;
    localStorage.setItem(AUTH_STORAGE_KEY, btoa(String.fromCharCode(...bytes)));
    expect(await loadAuth()).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it.each([
    ['plain JSON', JSON.stringify(auth)],
    ['not base64', '%%%'],
    ['too short', btoa('short')],
  ])('returns null and removes the entry for %s', async (_name, value) => {
    localStorage.setItem(AUTH_STORAGE_KEY, value);
    expect(await loadAuth()).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it('returns null and removes the entry when it decrypts to something that is not auth', async () => {
    await saveAuth(auth);
    const key = await storedKey();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plain = new TextEncoder().encode(JSON.stringify({ ...auth, expiresAt: 123 }));
    const cipher = new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: AUTH_ADDITIONAL_DATA }, key, plain),
    );
    localStorage.setItem(AUTH_STORAGE_KEY, btoa(String.fromCharCode(...iv, ...cipher)));
    expect(await loadAuth()).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it('cannot be decrypted by another browser profile (another key)', async () => {
    await saveAuth(auth);
    const value = stored();
    globalThis.indexedDB = new IDBFactory();
    resetSecureStorageForTests();
    localStorage.setItem(AUTH_STORAGE_KEY, value);
    expect(await loadAuth()).toBeNull();
  });

  it('returns null when there is no entry, and clearAuth removes it', async () => {
    expect(await loadAuth()).toBeNull();
    await saveAuth(auth);
    await clearAuth();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
    expect(await loadAuth()).toBeNull();
  });

  it('rejects invalid auth without touching the stored entry', async () => {
    await saveAuth(auth);
    const before = stored();
    await expect(saveAuth({ ...auth, roles: ['Admin'] } as unknown as StoredAuth)).rejects.toThrow();
    expect(stored()).toBe(before);
  });

  it('serialises concurrent writes in call order', async () => {
    const second = { ...auth, accessToken: 'second' };
    const third = { ...auth, accessToken: 'third' };
    const writes = [saveAuth(auth), saveAuth(second), clearAuth(), saveAuth(third)];
    const read = loadAuth();
    await Promise.all(writes);
    expect(await read).toEqual(third);

    const last = [saveAuth(auth), clearAuth()];
    await Promise.all(last);
    expect(await loadAuth()).toBeNull();
  });

  it('two tabs starting at once agree on one key', async () => {
    vi.resetModules();
    const tabA = await import('./secure-storage');
    vi.resetModules();
    const tabB = await import('./secure-storage');
    expect(tabA).not.toBe(tabB);
    await Promise.all([tabA.saveAuth(auth), tabB.loadAuth()]);
    await storedKey();
    expect(await tabB.loadAuth()).toEqual(auth);
    await tabB.saveAuth({ ...auth, accessToken: 'from-b' });
    expect((await tabA.loadAuth())?.accessToken).toBe('from-b');
  });
});
