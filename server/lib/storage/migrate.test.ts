import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from './disk-storage';
import { migrateFiles } from './migrate';
import { S3Storage } from './s3-storage';
import { startTestS3, type TestS3 } from './test-s3';

let s3: TestS3;
let dataDir: string;
let target: S3Storage;

beforeAll(async () => {
  s3 = await startTestS3();
  dataDir = await mkdtemp(path.join(tmpdir(), 'mp-migrate-'));
  target = new S3Storage({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  });
  const files: Record<string, string> = {
    'uploads/documents/a': 'document',
    'uploads/logos/b.png': 'logo',
    'uploads/product-media/c.jpg': 'picture',
    'files/exports/d.csv': 'a,b\n',
    'outbox/e.eml': 'mail stays local',
    'tmp/f.part': 'scratch stays local',
  };
  for (const [key, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dataDir, key)), { recursive: true });
    await writeFile(path.join(dataDir, key), content);
  }
});
afterAll(async () => {
  target?.client.destroy();
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of target.list('')) keys.push(key);
  return keys.sort();
}

describe('storage migration to S3', () => {
  it('copies uploads/ and files/ (not the outbox nor scratch), then skips what is there; a changed file goes again', async () => {
    const source = new DiskStorage(dataDir);
    expect(await migrateFiles(source, target)).toEqual({ copied: 4, alreadyThere: 0, failed: 0 });
    expect(await bucketKeys()).toEqual([
      'files/exports/d.csv',
      'uploads/documents/a',
      'uploads/logos/b.png',
      'uploads/product-media/c.jpg',
    ]);
    expect(await migrateFiles(source, target)).toEqual({ copied: 0, alreadyThere: 4, failed: 0 });
    await writeFile(path.join(dataDir, 'uploads/documents/a'), 'a longer document');
    expect(await migrateFiles(source, target)).toEqual({ copied: 1, alreadyThere: 3, failed: 0 });
    expect((await target.stat('uploads/documents/a'))?.size).toBe(17);
  });

  it('counts failures while the bucket is down and resumes when it is back', async () => {
    await writeFile(path.join(dataDir, 'files/exports/new.csv'), 'x\n');
    const source = new DiskStorage(dataDir);
    await s3.stop();
    const failed: string[] = [];
    try {
      const counts = await migrateFiles(source, target, { onFailure: (key) => failed.push(key) });
      expect(counts).toEqual({ copied: 0, alreadyThere: 0, failed: 5 });
      expect(failed).toContain('files/exports/new.csv');
    } finally {
      await s3.start();
    }
    expect(await migrateFiles(source, target)).toEqual({ copied: 1, alreadyThere: 4, failed: 0 });
  });

  it('npm run storage:migrate prints the counts, and refuses to run without S3', async () => {
    const run = (env: Record<string, string>) =>
      promisify(execFile)('npm', ['run', '--silent', 'storage:migrate'], {
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
      });
    const { stdout } = await run(s3.env);
    expect(stdout).toContain('copied 0 · already there 5 · failed 0');
    const refused = await run({}).catch((error: { code: number; stderr: string }) => error);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toContain('Set S3_BUCKET');
  });
});
