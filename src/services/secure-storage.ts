// The `auth` entry of localStorage, encrypted (SPEC §3: "kept encrypted in browser storage").
//
// AES-GCM with a 256-bit key that WebCrypto generates as NON-extractable and that is kept in
// IndexedDB: script can use the key to encrypt and decrypt in this origin, but never read its bytes,
// so a copy of localStorage (a synced profile, a backup, a leaked dump) is useless on its own.
// Stored value = base64(12-byte random IV ‖ ciphertext+tag); never plain JSON.
import type { StoredAuth } from './stored-auth';

export { type StoredAuth, toStoredAuth } from './stored-auth';

// The schema (and zod with it) loads when there is auth to check, not with the sign-in page.
const loadSchema = () => import('../lib/stored-auth-schema').then((module) => module.storedAuthSchema);

export const AUTH_STORAGE_KEY = 'auth';
export const KEY_DB_NAME = 'marketplace-backoffice';
export const KEY_STORE_NAME = 'keys';
const KEY_ID = 'auth-aes-gcm';
const IV_BYTES = 12;
/** Binds the ciphertext to its purpose: a value encrypted for something else cannot pass as auth. */
export const AUTH_ADDITIONAL_DATA = new TextEncoder().encode('marketplace-backoffice:auth:v1');

function requestToPromise<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openKeyDb(): Promise<IDBDatabase> {
  const request = indexedDB.open(KEY_DB_NAME, 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(KEY_STORE_NAME))
      request.result.createObjectStore(KEY_STORE_NAME);
  };
  return requestToPromise(request);
}

/**
 * Returns the stored key, or stores `candidate` when there is none. Get and put run in ONE readwrite
 * transaction (IndexedDB serialises those across tabs), so two tabs starting at once agree on one key.
 */
function getOrPutKey(db: IDBDatabase, candidate: CryptoKey): Promise<CryptoKey> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(KEY_STORE_NAME, 'readwrite');
    const store = tx.objectStore(KEY_STORE_NAME);
    let key: CryptoKey = candidate;
    const get = store.get(KEY_ID);
    get.onsuccess = () => {
      if (get.result instanceof CryptoKey) key = get.result;
      else store.put(candidate, KEY_ID);
    };
    tx.oncomplete = () => resolve(key);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('Key transaction aborted'));
  });
}

async function createKey(): Promise<CryptoKey> {
  const candidate = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  try {
    const db = await openKeyDb();
    try {
      return await getOrPutKey(db, candidate);
    } finally {
      db.close();
    }
  } catch (error) {
    // No usable IndexedDB (e.g. some private modes): keep the key for this page only. Auth then does
    // not survive a reload, which is safer than ever writing it unencrypted.
    console.warn('Secure storage: IndexedDB unavailable, using a session-only key', error);
    return candidate;
  }
}

let keyPromise: Promise<CryptoKey> | null = null;

function getKey(): Promise<CryptoKey> {
  keyPromise ??= createKey().catch((error: unknown) => {
    keyPromise = null;
    throw error;
  });
  return keyPromise;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function encrypt(plain: string): Promise<string> {
  const key = await getKey();
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const cipher = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: AUTH_ADDITIONAL_DATA },
    key,
    new TextEncoder().encode(plain),
  );
  const out = new Uint8Array(IV_BYTES + cipher.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(cipher), IV_BYTES);
  return toBase64(out);
}

async function decrypt(stored: string): Promise<string> {
  const bytes = fromBase64(stored);
  if (bytes.length <= IV_BYTES) throw new Error('Stored auth is too short');
  const key = await getKey();
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: AUTH_ADDITIONAL_DATA },
    key,
    bytes.subarray(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}

// Encryption is asynchronous, so two saves could land in the wrong order (an older auth overwriting a
// newer one) and a clear could be undone by a save still in flight. Every read and write goes through
// this one queue, in call order.
let queue: Promise<unknown> = Promise.resolve();

function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/** Encrypts and stores the auth. Rejects (and leaves the previous entry) when it is not valid auth. */
export function saveAuth(auth: StoredAuth): Promise<void> {
  // Checked inside the queue, so a save still takes its place in call order (a sign-out's clear
  // right after it must not run first).
  return serialised(async () => {
    const parsed = (await loadSchema()).safeParse(auth);
    if (!parsed.success) throw parsed.error;
    localStorage.setItem(AUTH_STORAGE_KEY, await encrypt(JSON.stringify(parsed.data)));
  });
}

/** The stored auth, or null when absent, undecryptable or invalid (the bad entry is then removed). */
export function loadAuth(): Promise<StoredAuth | null> {
  return serialised(async () => {
    // Even with no entry, make sure the key exists: the first sign-in needs it anyway, and reading
    // always costs the same whether or not someone is signed in.
    await getKey();
    const stored = localStorage.getItem(AUTH_STORAGE_KEY);
    if (stored === null) return null;
    try {
      const parsed = (await loadSchema()).safeParse(JSON.parse(await decrypt(stored)));
      if (parsed.success) return parsed.data;
      console.warn('Secure storage: stored auth is not valid auth; removing it');
    } catch {
      console.warn('Secure storage: stored auth cannot be decrypted; removing it');
    }
    // Remove only what was read: a newer value written meanwhile (another tab) stays.
    if (localStorage.getItem(AUTH_STORAGE_KEY) === stored) localStorage.removeItem(AUTH_STORAGE_KEY);
    return null;
  });
}

/** Removes the auth entry (after any write still in flight). */
export function clearAuth(): Promise<void> {
  return serialised(async () => {
    localStorage.removeItem(AUTH_STORAGE_KEY);
  });
}

/** Resolves once every read and write queued so far has finished. */
export function whenStorageIdle(): Promise<void> {
  return serialised(async () => undefined);
}

/** Tests only: forget the cached key, so a fresh IndexedDB is read again. */
export function resetSecureStorageForTests(): void {
  keyPromise = null;
  queue = Promise.resolve();
}
