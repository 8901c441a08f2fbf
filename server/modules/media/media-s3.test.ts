// Product media on the S3 driver (s3rver on 127.0.0.1, port 4570): an image's original, thumb and web
// are stored in the bucket and served from it, a wrong type is refused as on disk, and with the store
// down the upload answers 503 with no row, then works again once it is back, without a restart.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductMedia } from '../../../contracts/product-media';
import { productMedia } from '../../db/schema';
import { startTestS3, type TestS3 } from '../../lib/storage/test-s3';
import { type ApiAs, apiAs, createTestApp, json, type TestApp } from '../../test-support';
import { multipart } from '../sellers/test-helpers';

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

  const upload = (filename: string, content: Buffer) => {
    const body = multipart([{ filename, type: 'image/jpeg', content }]);
    return as('Seller', 'POST', `${API}/media`, body.payload, body.headers);
  };
  const mediaRows = async () => (await t.database.db.select().from(productMedia)).length;

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
});
