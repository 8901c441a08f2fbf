// S3 configuration at start: all or nothing, and a bucket that does not answer stops the start.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { checkFileStorage, createFileStorage } from './index';

const s3Env = {
  S3_ENDPOINT: 'http://127.0.0.1:9',
  S3_BUCKET: 'mp-files',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_FORCE_PATH_STYLE: 'true',
};

describe('S3 configuration', () => {
  it('keeps files on disk without S3_BUCKET, and uses S3 with the whole set', async () => {
    expect((await createFileStorage(loadConfig({ DATA_DIR: '/tmp/x' }))).driver).toBe('disk');
    const config = loadConfig({ DATA_DIR: '/tmp/x', ...s3Env });
    expect(config.S3_FORCE_PATH_STYLE).toBe(true);
    expect(config.S3_PRESIGNED_DOWNLOADS).toBe(false);
    expect((await createFileStorage(config)).driver).toBe('s3');
  });

  it('refuses a partial set, naming what is missing', () => {
    const { S3_SECRET_ACCESS_KEY: _, S3_REGION: __, ...partial } = s3Env;
    expect(() => loadConfig(partial)).toThrow(
      /S3_REGION: set all of S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY .*\(missing: S3_REGION, S3_SECRET_ACCESS_KEY\)/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/missing: S3_BUCKET/);
    expect(() => loadConfig({ S3_PRESIGNED_DOWNLOADS: 'true' })).toThrow(
      /S3_PRESIGNED_DOWNLOADS: presigned downloads need S3 file storage/,
    );
  });

  it('stops the start within seconds when the bucket does not answer', async () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', ...s3Env });
    const started = Date.now();
    await expect(checkFileStorage(await createFileStorage(config), config)).rejects.toThrow(
      /S3 file storage: the bucket "mp-files" at http:\/\/127\.0\.0\.1:9\/ does not answer/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
