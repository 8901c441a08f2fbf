// Product media on the S3 driver (s3rver on 127.0.0.1, port 4570): an image's original, thumb and web
// are stored in the bucket and served from it, a wrong type is refused as on disk, and with the store
// down the upload answers 503 with no row, then works again once it is back, without a restart. A file
// named with `../` or an absolute path is stored under the media folder, a row whose key was crafted to
// point elsewhere is served as 404, and an oversize picture or video answers 413 with nothing stored.
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductMedia } from '../../../contracts/product-media';
import { productMedia } from '../../db/schema';
import { startTestS3, type TestS3 } from '../../lib/storage/test-s3';
import { type ApiAs, apiAs, createTestApp, json, type TestApp } from '../../test-support';
import { multipart, sampleFile } from '../sellers/test-helpers';
import { MEDIA_FOLDER } from './media';

const API = '/api/v1/stagingProducts';

describe('product media on S3', () => {
  let s3: TestS3;
  let t: TestApp;
  let as: ApiAs;
  let jpeg: Buffer;
  beforeAll(async () => {
    s3 = await startTestS3({ port: 4570 });
    t = await createTestApp({ env: s3.env, jobs: { enabled: false } });
    as = await apiAs(t.app);
    jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#36c' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const upload = (filename: string, content: Buffer, type = 'image/jpeg') => {
    const body = multipart([{ filename, type, content }]);
    return as('Seller', 'POST', `${API}/media`, body.payload, body.headers);
  };
  const mediaRows = async () => (await t.database.db.select().from(productMedia)).length;
  const keys = async (prefix: string) => {
    const found: string[] = [];
    for await (const key of t.app.storage.list(prefix)) found.push(key);
    return found.sort();
  };

  it('stores the original and both derivatives in the bucket and serves each with its type', async () => {
    expect(t.app.storage.driver).toBe('s3');
    const response = await upload('shoe.jpg', jpeg);
    expect(response.statusCode, response.body).toBe(201);
    const media = json<ProductMedia>(response);
    const original = await as('Seller', 'GET', media.url);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.rawPayload).toEqual(jpeg);
    for (const [url, width] of [
      [media.thumbUrl, 160],
      [media.webUrl, 400],
    ] as const) {
      const served = await as('Seller', 'GET', url as string);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const metadata = await sharp(served.rawPayload).metadata();
      expect([metadata.format, metadata.width]).toEqual(['webp', width]);
    }
  });

  it('refuses a file that is not a picture with 415, keeping nothing', async () => {
    const before = await mediaRows();
    const response = await upload('page.jpg', Buffer.from('<html>not a picture</html>'));
    expect(response.statusCode).toBe(415);
    expect(await mediaRows()).toBe(before);
  });

  it('answers 503 with no row while the store is down, and works again once it is back', async () => {
    const before = await mediaRows();
    await s3.stop();
    try {
      const down = await upload('down.jpg', jpeg);
      expect(down.statusCode, down.body).toBe(503);
      expect(down.json()).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      expect(await mediaRows()).toBe(before);
    } finally {
      await s3.start();
    }
    const back = await upload('back.jpg', jpeg);
    expect(back.statusCode, back.body).toBe(201);
    const served = await as('Seller', 'GET', json<ProductMedia>(back).url);
    expect(served.rawPayload).toEqual(jpeg);
  });

  it('stores a file named with ../ or an absolute path under the media folder, under its plain name', async () => {
    for (const name of ['../../../escape.jpg', '/etc/escape.jpg', '..\\..\\escape.jpg']) {
      const response = await upload(name, jpeg);
      expect(response.statusCode, response.body).toBe(201);
      const media = json<ProductMedia>(response);
      expect(media.fileName).toBe('escape.jpg');
      const [row] = await t.database.db.select().from(productMedia).where(eq(productMedia.id, media.id));
      expect(row?.storagePath).toMatch(/^uploads\/product-media\/[0-9a-f-]{36}\.jpg$/);
      for (const key of [row?.storagePath as string, ...Object.values(row?.derivatives ?? {})]) {
        expect(key.startsWith(`${MEDIA_FOLDER}/`)).toBe(true);
        expect(await t.app.storage.exists(key)).toBe(true);
      }
    }
    expect((await keys('')).filter((key) => !key.startsWith(`${MEDIA_FOLDER}/`))).toEqual([]);
  });

  it('serves a row whose keys were crafted to leave the media folder as 404, even when the object exists', async () => {
    const media = json<ProductMedia>(await upload('crafted.jpg', jpeg));
    const secret = 'uploads/documents/secret.jpg';
    await t.app.storage.put(secret, jpeg, { contentType: 'image/jpeg' });
    try {
      for (const crafted of [
        secret,
        `${MEDIA_FOLDER}/../documents/secret.jpg`,
        `/${secret}`,
        `${MEDIA_FOLDER}/..\\documents\\secret.jpg`,
      ]) {
        await t.database.db
          .update(productMedia)
          .set({ storagePath: crafted, derivatives: { thumb: crafted, web: crafted } })
          .where(eq(productMedia.id, media.id));
        for (const url of [media.url, media.thumbUrl as string, media.webUrl as string]) {
          const served = await as('Seller', 'GET', url);
          expect(served.statusCode, `${crafted} ${url}`).toBe(404);
          expect(served.rawPayload).not.toEqual(jpeg);
        }
      }
    } finally {
      await t.app.storage.delete(secret);
    }
  });

  it('answers 413 to an oversize picture or video, storing nothing and writing no row', async () => {
    const before = await keys('');
    const rows = await mediaRows();
    const picture = await upload('big.jpg', sampleFile.jpeg(10 * 1024 * 1024 + 1));
    expect(picture.statusCode, picture.body).toBe(413);
    expect(json(picture)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    const mp4 = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1')]).copy(mp4);
    const video = await upload('big.mp4', mp4, 'video/mp4');
    expect(video.statusCode, video.body).toBe(413);
    expect(json(video)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await keys('')).toEqual(before);
    expect(await mediaRows()).toBe(rows);
  }, 60_000);
});
