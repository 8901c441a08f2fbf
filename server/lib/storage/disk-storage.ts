// The local driver: objects are files under the data directory, at their key's relative path. Writes go
// to a hidden temporary name beside the target and are renamed (or hard-linked, for ifAbsent) into place
// only when complete, so a failed or aborted write leaves nothing a reader could see.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileEtag } from '../file-responses';
import { StorageConflictError, StorageUnavailableError } from './errors';
import { checkedKey, checkedPrefix } from './keys';
import type { FileStorage, PutOptions, StoredObject, StoredObjectInfo } from './types';

/** What the disk can fail with that says the store, not the object, is the problem. */
const UNAVAILABLE_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EIO',
  'EROFS',
  'EACCES',
  'EPERM',
  'EMFILE',
  'ENFILE',
]);
const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;

function storeError(error: unknown): unknown {
  const code = codeOf(error);
  return code && UNAVAILABLE_CODES.has(code) ? new StorageUnavailableError(error) : error;
}

/** Temporary names: hidden, and never listed. */
const isTemporary = (name: string) => name.startsWith('.') && name.endsWith('.part');

export class DiskStorage implements FileStorage {
  readonly driver = 'disk' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file behind a key (the key is checked first, so this never leaves the root). */
  pathOf(key: string): string {
    const full = path.resolve(this.root, checkedKey(key));
    if (!full.startsWith(`${this.root}${path.sep}`))
      throw new Error('unreachable: a checked key left the root');
    return full;
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ size: number }> {
    const full = this.pathOf(key);
    const temporary = path.join(path.dirname(full), `.${path.basename(full)}.${randomUUID()}.part`);
    let size = 0;
    try {
      await mkdir(path.dirname(full), { recursive: true });
      if (options.ifAbsent && (await this.stat(key))) throw new StorageConflictError(key);
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, meter, createWriteStream(temporary, { flags: 'wx' }));
      if (options.ifAbsent) {
        // link() refuses an existing target, atomically: two writers of one key cannot both win.
        await link(temporary, full).catch((error) => {
          throw codeOf(error) === 'EEXIST' ? new StorageConflictError(key) : error;
        });
      } else {
        await rename(temporary, full);
      }
      return { size };
    } catch (error) {
      throw storeError(error);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<StoredObject | null> {
    const full = this.pathOf(key);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(full, 'r');
    } catch (error) {
      if (ABSENT_CODES.has(codeOf(error) ?? '')) return null;
      throw storeError(error);
    }
    try {
      // The size and date of the very file opened, even if it is replaced meanwhile.
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const body = createReadStream('', { fd: handle, start: range?.start, end: range?.end });
      return { ...this.infoOf(key, info), body, ...(range ? { range } : {}) };
    } catch (error) {
      await handle.close().catch(() => {});
      throw storeError(error);
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    const full = this.pathOf(key);
    try {
      const info = await stat(full);
      return info.isFile() ? this.infoOf(key, info) : null;
    } catch (error) {
      if (ABSENT_CODES.has(codeOf(error) ?? '')) return null;
      throw storeError(error);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true }).catch((error) => {
      throw storeError(error);
    });
  }

  /** The disk serves nothing itself: the app streams the file. */
  async signedReadLink(): Promise<string | null> {
    return null;
  }

  async localCopy(key: string): Promise<{ path: string; release: () => Promise<void> } | null> {
    if (!(await this.stat(key))) return null;
    return { path: this.pathOf(key), release: async () => {} };
  }

  async *list(prefix: string): AsyncIterable<string> {
    checkedPrefix(prefix);
    // Walk from the deepest folder the prefix names, then keep the keys that really start with it.
    const slash = prefix.lastIndexOf('/');
    const base = slash >= 0 ? prefix.slice(0, slash) : '';
    const start = base ? this.pathOf(base) : this.root;
    for await (const key of this.walk(start, base)) {
      if (key.startsWith(prefix)) yield key;
    }
  }

  private async *walk(directory: string, keyPrefix: string): AsyncIterable<string> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (ABSENT_CODES.has(codeOf(error) ?? '')) return;
      throw storeError(error);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const key = keyPrefix ? `${keyPrefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* this.walk(path.join(directory, entry.name), key);
      else if (entry.isFile() && !isTemporary(entry.name)) yield key;
    }
  }

  private infoOf(key: string, info: { size: number; mtime: Date; mtimeMs: number }): StoredObjectInfo {
    // The key's digest, not the key: a validator must hold no quote whatever the key holds.
    const tag = createHash('sha256').update(key).digest('base64url').slice(0, 16);
    return { size: info.size, modified: info.mtime, etag: fileEtag(tag, info.size, info.mtimeMs) };
  }
}
