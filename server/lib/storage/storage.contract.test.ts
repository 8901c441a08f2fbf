// One contract, both drivers: the disk under a temporary data directory and S3 on s3rver.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from './disk-storage';
import { InvalidStorageKeyError, StorageConflictError, StorageUnavailableError } from './errors';
import { S3Storage } from './s3-storage';
import { startTestS3, type TestS3 } from './test-s3';
import type { FileStorage } from './types';

/** The brief's port for this suite's s3rver. */
const S3_PORT = 4569;
const MiB = 1024 * 1024;

let s3: TestS3;
let dataDir: string;
const drivers: Record<'disk' | 's3', () => FileStorage> = {
  disk: () => new DiskStorage(dataDir),
  s3: () =>
    new S3Storage({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    }),
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'mp-storage-'));
  s3 = await startTestS3({ port: S3_PORT });
});
afterAll(async () => {
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A body of `size` bytes in 64 KiB chunks, never all in memory; byte i is i mod 251. */
function patterned(size: number, failAt?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAt !== undefined && sent >= failAt) {
        this.destroy(new Error('the client went away'));
        return;
      }
      if (sent >= size) {
        this.push(null);
        return;
      }
      const length = Math.min(64 * 1024, size - sent);
      const chunk = Buffer.alloc(length);
      for (let i = 0; i < length; i++) chunk[i] = (sent + i) % 251;
      sent += length;
      this.push(chunk);
    },
  });
}

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysUnder(storage: FileStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list(prefix)) keys.push(key);
  return keys.sort();
}

/** The S3 commands the storage sends from now on (none on disk). */
function recordCommands(storage: FileStorage): string[] {
  const names: string[] = [];
  if (storage instanceof S3Storage) {
    storage.client.middlewareStack.add(
      (next, context) => (args) => {
        names.push(context.commandName as string);
        return next(args);
      },
      { step: 'initialize' },
    );
  }
  return names;
}

describe.each(['disk', 's3'] as const)('file storage contract: %s driver', (driver) => {
  let storage: FileStorage;
  // Each driver writes under its own prefix, so the two runs never see each other's objects.
  const key = (name: string) => `files/contract-${driver}/${name}`;
  beforeAll(() => {
    storage = drivers[driver]();
  });

  it('puts a buffer and gets it back with its size and validator', async () => {
    const { size } = await storage.put(key('a.txt'), Buffer.from('hello storage'), {
      contentType: 'text/plain',
    });
    expect(size).toBe(13);
    const object = await storage.get(key('a.txt'));
    expect(object).not.toBeNull();
    expect(object?.size).toBe(13);
    expect(object?.etag).toMatch(/^".+"$/);
    expect(await text(object?.body as Readable)).toBe('hello storage');
    const info = await storage.stat(key('a.txt'));
    expect(info?.size).toBe(13);
    expect(info?.etag).toBe(object?.etag);
    expect(await storage.exists(key('a.txt'))).toBe(true);
  });

  it('gets one byte range, and reports the whole size', async () => {
    await storage.put(key('range.txt'), Buffer.from('0123456789'));
    const object = await storage.get(key('range.txt'), { start: 2, end: 5 });
    expect(object?.size).toBe(10);
    expect(object?.range).toEqual({ start: 2, end: 5 });
    expect(await text(object?.body as Readable)).toBe('2345');
  });

  it('replaces an object and changes its validator', async () => {
    await storage.put(key('replace.txt'), Buffer.from('first'));
    const before = await storage.stat(key('replace.txt'));
    await storage.put(key('replace.txt'), Buffer.from('second, longer'));
    const after = await storage.stat(key('replace.txt'));
    expect(after?.size).toBe(14);
    expect(after?.etag).not.toBe(before?.etag);
  });

  it('answers null for an absent object and deletes idempotently', async () => {
    expect(await storage.get(key('none.txt'))).toBeNull();
    expect(await storage.stat(key('none.txt'))).toBeNull();
    expect(await storage.exists(key('none.txt'))).toBe(false);
    expect(await storage.localCopy(key('none.txt'))).toBeNull();
    await storage.put(key('gone.txt'), Buffer.from('x'));
    await storage.delete(key('gone.txt'));
    expect(await storage.exists(key('gone.txt'))).toBe(false);
    await expect(storage.delete(key('gone.txt'))).resolves.toBeUndefined();
  });

  it('lists every key under a prefix and nothing beside it', async () => {
    await storage.put(key('list/one.txt'), Buffer.from('1'));
    await storage.put(key('list/deep/two.txt'), Buffer.from('2'));
    await storage.put(key('listing.txt'), Buffer.from('3'));
    expect(await keysUnder(storage, key('list/'))).toEqual([key('list/deep/two.txt'), key('list/one.txt')]);
    expect(await keysUnder(storage, key('list'))).toEqual([
      key('list/deep/two.txt'),
      key('list/one.txt'),
      key('listing.txt'),
    ]);
    expect(await keysUnder(storage, key('nothing-here/'))).toEqual([]);
  });

  it('gives a local copy that reads the same bytes, released after use', async () => {
    await storage.put(key('copy.bin'), Buffer.from([1, 2, 3, 4]));
    const copy = await storage.localCopy(key('copy.bin'));
    expect(copy).not.toBeNull();
    expect([...(await readFile(copy?.path as string))]).toEqual([1, 2, 3, 4]);
    expect(path.extname(copy?.path as string)).toBe('.bin');
    await copy?.release();
    // On disk the copy is the file itself; elsewhere a temporary file that release removes.
    const kept = await readFile(copy?.path as string).then(
      () => true,
      () => false,
    );
    expect(kept).toBe(driver === 'disk');
    expect(await storage.exists(key('copy.bin'))).toBe(true);
  });

  it('refuses to replace an object with ifAbsent, and keeps the first', async () => {
    await storage.put(key('once.txt'), Buffer.from('first'), { ifAbsent: true });
    await expect(
      storage.put(key('once.txt'), Buffer.from('second'), { ifAbsent: true }),
    ).rejects.toBeInstanceOf(StorageConflictError);
    expect(await text((await storage.get(key('once.txt')))?.body as Readable)).toBe('first');
  });

  it('signs a read link with the download name and type (S3), or gives none (disk)', async () => {
    await storage.put(key('signed.csv'), Buffer.from('a,b\n1,2\n'), { contentType: 'text/csv' });
    const link = await storage.signedReadLink(key('signed.csv'), {
      expiresInSeconds: 60,
      fileName: 'Sellers é.csv',
      disposition: 'attachment',
      contentType: 'text/csv; charset=utf-8',
    });
    if (driver === 'disk') {
      expect(link).toBeNull();
      return;
    }
    const response = await fetch(link as string);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('a,b\n1,2\n');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''Sellers%20%C3%A9.csv");
    expect(link).toContain('X-Amz-Expires=60');
  });

  it.each([
    '../outside.txt',
    'files/../../outside.txt',
    '/etc/passwd',
    'files\\..\\x',
    'files/a\u0000b',
    '',
    'files//double',
    './files/x',
    'files/.',
  ])('refuses the key %j on every operation', async (bad) => {
    await expect(storage.put(bad, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.get(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.stat(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.delete(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.localCopy(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });

  it('streams a large body in (multipart on S3) and reads it back intact', async () => {
    const size = 12 * MiB + 12_345;
    const commands = recordCommands(storage);
    const { size: written } = await storage.put(key('large.bin'), patterned(size));
    expect(written).toBe(size);
    const info = await storage.stat(key('large.bin'));
    expect(info?.size).toBe(size);
    // Two reads: a range across the 5 MiB part boundary and the whole body, compared byte by byte.
    const across = await storage.get(key('large.bin'), { start: 5 * MiB - 10, end: 5 * MiB + 9 });
    const slice = await bytesOf(across?.body as Readable);
    expect([...slice]).toEqual(Array.from({ length: 20 }, (_, i) => (5 * MiB - 10 + i) % 251));
    const whole = await bytesOf((await storage.get(key('large.bin')))?.body as Readable);
    expect(whole.length).toBe(size);
    expect(whole.equals(await bytesOf(patterned(size)))).toBe(true);
    if (driver === 's3') {
      // 12 MiB in 5 MiB parts: three parts of one multipart upload, never one 12 MiB PutObject.
      expect(commands.filter((name) => name === 'UploadPartCommand')).toHaveLength(3);
      expect(commands).toContain('CompleteMultipartUploadCommand');
      expect(commands).not.toContain('PutObjectCommand');
    }
  });

  it('leaves nothing when the body fails halfway (a large one on S3 too)', async () => {
    const error = await storage.put(key('broken/half.bin'), patterned(8 * MiB, 6 * MiB)).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('the client went away');
    expect(await storage.exists(key('broken/half.bin'))).toBe(false);
    expect(await keysUnder(storage, key('broken/'))).toEqual([]);
    if (driver === 'disk') {
      // Not even a temporary file beside where it would have been.
      expect(await readdir(path.join(dataDir, `files/contract-${driver}/broken`)).catch(() => [])).toEqual(
        [],
      );
    }
  });
});

describe('S3 outage', () => {
  it('fails fast with StorageUnavailableError while the store is down, and recovers with the same instance', async () => {
    const storage = drivers.s3();
    await storage.put('files/outage/before.txt', Buffer.from('before'));
    await s3.stop();
    try {
      for (const attempt of [
        () => storage.put('files/outage/during.txt', Buffer.from('during')),
        () => storage.get('files/outage/before.txt'),
        () => storage.stat('files/outage/before.txt'),
        () => storage.delete('files/outage/before.txt'),
        () => keysUnder(storage, 'files/outage/'),
      ]) {
        const started = Date.now();
        await expect(attempt()).rejects.toBeInstanceOf(StorageUnavailableError);
        expect(Date.now() - started).toBeLessThan(5000);
      }
    } finally {
      await s3.start();
    }
    expect(await text((await storage.get('files/outage/before.txt'))?.body as Readable)).toBe('before');
    await storage.put('files/outage/after.txt', Buffer.from('after'));
    expect(await storage.exists('files/outage/after.txt')).toBe(true);
    expect(await storage.exists('files/outage/during.txt')).toBe(false);
  });
});
