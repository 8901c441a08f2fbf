// Product media (issue 14) on PGlite and PostgreSQL: upload as every role, refusals (wrong content,
// too large, decompression bomb), serving with its headers and scope, the unclaimed-upload sweep and
// the "reprocess images" job.
import { access, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../contracts/catalog';
import type { Task, TaskAccepted } from '../../../contracts/notifications';
import type { ProductMedia } from '../../../contracts/product-media';
import type { Seller } from '../../../contracts/sellers';
import {
  attributes,
  categories,
  categoryAttributes,
  jobs,
  notifications,
  productMedia,
} from '../../db/schema';
import type { JobContext } from '../../jobs/worker';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { demoSellerId, multipart, newSellerBody, sampleFile } from '../sellers/test-helpers';
import { MEDIA_FOLDER, sweepUnclaimedMedia } from './media';
import { createMediaSigner, mediaLinkSecret, mediaSigner } from './media-urls';
import { reprocessImagesHandler } from './reprocess-images';

const API = '/api/v1/stagingProducts';
const MB = 1024 * 1024;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

// ── Files ───────────────────────────────────────────────────────────────────────────────────────────

/** A solid picture in the given format; `orientation` writes an EXIF Orientation tag. */
function picture(format: 'jpeg' | 'png' | 'webp', width: number, height: number, orientation?: number) {
  const image = sharp({ create: { width, height, channels: 3, background: '#c33' } });
  const encoded = format === 'jpeg' ? image.jpeg() : format === 'png' ? image.png() : image.webp();
  return (orientation ? encoded.withMetadata({ orientation }) : encoded).toBuffer();
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a real, valid 20,000 × 20,000 one-bit PNG (400 megapixels) of about 50 KB.
 * Written by hand rather than by sharp, which takes seconds to encode that many pixels.
 */
function decompressionBomb(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc(side * (1 + side / 8)); // each row: filter byte 0, then black pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const mp4 = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
    Buffer.alloc(2048, 1),
  ]);
const webm = () =>
  Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01]),
    Buffer.from([0x42, 0x82, 0x84]),
    Buffer.from('webm', 'latin1'),
    Buffer.alloc(1024, 2),
  ]);

describe.each(testBackends)('product media on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let ownSellerId: string;
  let otherSellerId: string;
  let categoryId: string;
  let jpeg: Buffer;
  let png: Buffer;
  beforeAll(async () => {
    // Jobs run by hand (runOnce), so each test knows exactly when the task has run.
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    ownSellerId = await demoSellerId(t, 'seller@demo.local');
    otherSellerId = json<Seller>(
      await as('Admin', 'POST', '/api/v1/sellers/createNewSeller', newSellerBody()),
    ).id;
    const [category] = await t.database.db
      .insert(categories)
      .values({ name: 'Media test', slug: `media-test-${backend}` })
      .returning();
    categoryId = category!.id;
    // 400 × 200 stored sideways: upright it is 200 × 400.
    jpeg = await picture('jpeg', 400, 200, 6);
    png = await picture('png', 2000, 1000);
  });
  afterAll(() => t.close());

  type Who = 'Admin' | 'Staff' | 'Seller' | 'Blocked';
  const upload = (
    who: Who,
    file: { filename: string; type: string; content: Buffer },
    options: { query?: string; fields?: Record<string, string> } = {},
  ) => {
    const body = multipart([file], options.fields);
    return as(who, 'POST', `${API}/media${options.query ?? ''}`, body.payload, body.headers);
  };
  const uploaded = async (...args: Parameters<typeof upload>) => {
    const response = await upload(...args);
    expect(response.statusCode, response.body).toBe(201);
    return json<ProductMedia>(response);
  };
  const rowOf = async (id: string) => {
    const [row] = await t.database.db.select().from(productMedia).where(eq(productMedia.id, id));
    return row!;
  };
  const mediaFiles = async () => (await readdir(path.join(t.dataDir, MEDIA_FOLDER)).catch(() => [])).sort();
  const mediaRows = async () =>
    (await t.database.db.select({ id: productMedia.id }).from(productMedia)).length;
  const exists = (relative: string) =>
    access(path.join(t.dataDir, relative)).then(
      () => true,
      () => false,
    );
  const serve = (who: Who, url: string, headers: Record<string, string> = {}) =>
    as(who, 'GET', url, undefined, headers);
  const metadataOf = (bytes: Buffer) => sharp(bytes).metadata();

  /** Refused uploads keep nothing: no row, no file (not even a temporary one). */
  async function expectNothingKept(action: () => Promise<void>) {
    const [rowsBefore, filesBefore] = [await mediaRows(), await mediaFiles()];
    await action();
    expect(await mediaRows()).toBe(rowsBefore);
    expect(await mediaFiles()).toEqual(filesBefore);
  }

  describe('upload', () => {
    it('a seller uploads a JPEG: stored for their seller, upright size recorded, derivatives made', async () => {
      const media = await uploaded('Seller', { filename: 'red shoe.jpg', type: 'image/jpeg', content: jpeg });
      expect(media).toEqual({
        id: expect.any(String),
        kind: 'image',
        fileName: 'red shoe.jpg',
        mimeType: 'image/jpeg',
        size: jpeg.length,
        width: 200,
        height: 400,
        url: expect.stringMatching(new RegExp(`^${API}/media/${media.id}\\?exp=\\d+&sig=[\\w-]+$`)),
        thumbUrl: expect.stringMatching(new RegExp(`^${API}/media/${media.id}\\?size=thumb&exp=\\d+&sig=`)),
        webUrl: expect.stringMatching(new RegExp(`^${API}/media/${media.id}\\?size=web&exp=\\d+&sig=`)),
      });
      const row = await rowOf(media.id);
      expect(row).toMatchObject({
        sellerId: ownSellerId,
        productId: null,
        position: null,
        uploadedBy: as.ids.Seller,
      });
      expect(row.storagePath).toMatch(/^uploads\/product-media\/[0-9a-f-]{36}\.jpg$/);
      const stem = row.storagePath.replace(/\.jpg$/, '');
      expect(row.derivatives).toEqual({ thumb: `${stem}-thumb.webp`, web: `${stem}-web.webp` });
      for (const relative of [row.storagePath, ...Object.values(row.derivatives)])
        expect(await exists(relative), relative).toBe(true);
    });

    it('staff upload for a seller named in the query, admins in a form field; the seller must exist', async () => {
      const byStaff = await uploaded(
        'Staff',
        { filename: 'a.png', type: 'image/png', content: png },
        { query: `?sellerId=${otherSellerId}` },
      );
      expect((await rowOf(byStaff.id)).sellerId).toBe(otherSellerId);
      const byAdmin = await uploaded(
        'Admin',
        { filename: 'b.webp', type: 'image/webp', content: await picture('webp', 30, 20) },
        { fields: { sellerId: otherSellerId } },
      );
      expect(byAdmin).toMatchObject({ mimeType: 'image/webp', width: 30, height: 20 });
      expect((await rowOf(byAdmin.id)).sellerId).toBe(otherSellerId);

      await expectNothingKept(async () => {
        const none = await upload('Staff', { filename: 'a.png', type: 'image/png', content: png });
        expect(none.statusCode).toBe(400);
        expect(json(none)).toMatchObject({
          code: 'SELLER_REQUIRED',
          fields: { sellerId: expect.any(String) },
        });
        const unknownInQuery = await upload(
          'Admin',
          { filename: 'a.png', type: 'image/png', content: png },
          { query: `?sellerId=${UNKNOWN_ID}` },
        );
        expect(unknownInQuery.statusCode).toBe(404);
        expect(json(unknownInQuery)).toEqual({ message: 'Seller not found', code: 'SELLER_NOT_FOUND' });
        const unknownInForm = await upload(
          'Admin',
          { filename: 'a.png', type: 'image/png', content: png },
          { fields: { sellerId: UNKNOWN_ID } },
        );
        expect(unknownInForm.statusCode).toBe(404);
        const badId = await upload(
          'Admin',
          { filename: 'a.png', type: 'image/png', content: png },
          { fields: { sellerId: 'nope' } },
        );
        expect(badId.statusCode).toBe(400);
        expect(
          (
            await upload(
              'Admin',
              { filename: 'a.png', type: 'image/png', content: png },
              { query: '?sellerId=nope' },
            )
          ).statusCode,
        ).toBe(400);
      });
    });

    it('a seller cannot upload for another seller', async () => {
      await expectNothingKept(async () => {
        for (const options of [
          { query: `?sellerId=${otherSellerId}` },
          { fields: { sellerId: otherSellerId } },
        ]) {
          const response = await upload(
            'Seller',
            { filename: 'a.jpg', type: 'image/jpeg', content: jpeg },
            options,
          );
          expect(response.statusCode).toBe(403);
          expect(json(response)).toMatchObject({
            message: 'You can only upload media for your own products.',
            code: 'FORBIDDEN',
          });
        }
      });
      // Naming themselves is fine.
      await uploaded(
        'Seller',
        { filename: 'a.jpg', type: 'image/jpeg', content: jpeg },
        { fields: { sellerId: ownSellerId } },
      );
    });

    it('accepts MP4 and WebM videos by content; they have no derivatives', async () => {
      const video = await uploaded('Seller', {
        filename: 'demo.mp4',
        type: 'application/octet-stream',
        content: mp4(),
      });
      expect(video).toMatchObject({
        kind: 'video',
        mimeType: 'video/mp4',
        width: null,
        height: null,
        thumbUrl: null,
        webUrl: null,
      });
      expect((await rowOf(video.id)).derivatives).toEqual({});
      const clip = await uploaded('Seller', { filename: 'clip', type: 'video/webm', content: webm() });
      expect(clip).toMatchObject({ kind: 'video', mimeType: 'video/webm', fileName: 'clip.webm' });
      expect((await rowOf(clip.id)).storagePath).toMatch(/\.webm$/);
    });

    it('refuses what is not an image or video with a clear 415, whatever its name, and keeps nothing', async () => {
      const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(512)]);
      await expectNothingKept(async () => {
        for (const file of [
          { filename: 'setup.png', type: 'image/png', content: exe },
          {
            filename: 'notes.jpg',
            type: 'image/jpeg',
            content: Buffer.from('just some text, not a picture\n'),
          },
          { filename: 'page.webp', type: 'image/webp', content: sampleFile.html() },
          { filename: 'doc.pdf', type: 'application/pdf', content: sampleFile.pdf() },
          { filename: 'anim.gif', type: 'image/gif', content: sampleFile.gif() },
        ]) {
          const response = await upload('Seller', file);
          expect(response.statusCode, file.filename).toBe(415);
          expect(json(response)).toEqual({
            message: 'Only JPEG, PNG, WebP, MP4 or WebM files are accepted.',
            code: 'UNSUPPORTED_MEDIA_TYPE',
          });
        }
      });
    });

    it('refuses a file that only starts like an image: sharp must be able to read it', async () => {
      await expectNothingKept(async () => {
        for (const content of [sampleFile.png(4096), sampleFile.jpeg(4096), jpeg.subarray(0, 300)]) {
          const response = await upload('Seller', { filename: 'x.png', type: 'image/png', content });
          expect(response.statusCode).toBe(415);
          expect(json(response)).toMatchObject({ code: 'UNREADABLE_IMAGE' });
          expect(json<{ message: string }>(response).message).toMatch(
            /not a readable JPEG, PNG or WebP image/,
          );
        }
      });
    });

    it('refuses an image over 10 MB and a video over 50 MB with 413; exactly the limit is read', async () => {
      await expectNothingKept(async () => {
        const image = await upload('Seller', {
          filename: 'big.png',
          type: 'image/png',
          content: sampleFile.png(10 * MB + 1),
        });
        expect(image.statusCode).toBe(413);
        expect(json(image)).toEqual({ message: 'The file is larger than 10 MB.', code: 'FILE_TOO_LARGE' });
        const video = await upload('Seller', {
          filename: 'big.mp4',
          type: 'video/mp4',
          content: Buffer.concat([mp4(), Buffer.alloc(50 * MB + 1 - mp4().length)]),
        });
        expect(video.statusCode).toBe(413);
        expect(json(video)).toEqual({ message: 'The file is larger than 50 MB.', code: 'FILE_TOO_LARGE' });
        // Exactly 10 MB passes the size check and reaches the decoder (this padding is no picture).
        const fits = await upload('Seller', {
          filename: 'fits.png',
          type: 'image/png',
          content: sampleFile.png(10 * MB),
        });
        expect(json(fits)).toMatchObject({ code: 'UNREADABLE_IMAGE' });
      });
    });

    it('refuses a decompression bomb from its header, before decoding it', async () => {
      const bomb = decompressionBomb();
      expect(bomb.length).toBeLessThan(100 * 1024);
      expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({
        width: 20_000,
        height: 20_000,
        format: 'png',
      });
      await expectNothingKept(async () => {
        const started = Date.now();
        const response = await upload('Seller', { filename: 'bomb.png', type: 'image/png', content: bomb });
        expect(response.statusCode).toBe(413);
        expect(json(response)).toEqual({
          message:
            'The image is 20000 × 20000 pixels; at most 50 megapixels are accepted. Resize it and retry.',
          code: 'IMAGE_TOO_MANY_PIXELS',
        });
        // Decoding 400 megapixels takes seconds; reading a header does not.
        expect(Date.now() - started).toBeLessThan(2000);
      });
    });

    it('answers 415 for a body that is not multipart, 400 without a file, 401 without a token', async () => {
      expect((await as('Seller', 'POST', `${API}/media`, { file: 'x' })).statusCode).toBe(415);
      const noFile = multipart([], { note: 'hello' });
      const empty = await as('Seller', 'POST', `${API}/media`, noFile.payload, noFile.headers);
      expect(json(empty)).toMatchObject({ code: 'FILE_MISSING' });
      const body = multipart([{ filename: 'a.jpg', type: 'image/jpeg', content: jpeg }]);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `${API}/media`,
        payload: body.payload,
        headers: body.headers,
      });
      expect(anonymous.statusCode).toBe(401);
      expect(json(anonymous)).toMatchObject({ code: 'TOKEN_MISSING' });
      // A blocked seller sees only their subscription page.
      expect(
        (await upload('Blocked', { filename: 'a.jpg', type: 'image/jpeg', content: jpeg })).statusCode,
      ).toBe(403);
    });
  });

  describe('serving', () => {
    let media: ProductMedia;
    beforeAll(async () => {
      media = await uploaded('Seller', { filename: 'façade 1.jpg', type: 'image/jpeg', content: jpeg });
    });

    it('serves the original and the WebP derivatives with their types and headers', async () => {
      const original = await serve('Seller', media.url);
      expect(original.statusCode).toBe(200);
      expect(original.rawPayload).toEqual(jpeg);
      expect(original.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'content-length': String(jpeg.length),
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
        'accept-ranges': 'bytes',
        'content-disposition': `inline; filename="fa_ade 1.jpg"; filename*=UTF-8''fa%C3%A7ade%201.jpg`,
      });
      expect(original.headers.etag).toMatch(/^"[^"]+"$/);
      expect(original.headers.vary).toMatch(/authorization/i);
      const head = await t.app.inject({
        method: 'HEAD',
        url: media.url,
        headers: { authorization: `Bearer ${as.tokens.Seller}` },
      });
      expect(head.statusCode).toBe(200);
      expect(head.headers).toMatchObject({ 'content-type': 'image/jpeg', etag: original.headers.etag });
      expect(head.rawPayload).toHaveLength(0);

      const thumb = await serve('Seller', media.thumbUrl as string);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect(thumb.headers['content-disposition']).toMatch(/^inline; filename="fa_ade 1-thumb.webp"/);
      const thumbInfo = await metadataOf(thumb.rawPayload);
      // Upright (the EXIF rotation applied), within 160 × 160, and no metadata left.
      expect(thumbInfo).toMatchObject({ format: 'webp', width: 80, height: 160 });
      expect(thumbInfo.exif).toBeUndefined();
      expect(thumbInfo.orientation).toBeUndefined();

      const web = await serve('Seller', media.webUrl as string);
      // Never enlarged: 200 × 400 stays 200 × 400.
      expect(await metadataOf(web.rawPayload)).toMatchObject({ format: 'webp', width: 200, height: 400 });
      expect(new Set([original.headers.etag, thumb.headers.etag, web.headers.etag]).size).toBe(3);
    });

    it('scales a large image into 1200 × 1200 (web) and 160 × 160 (thumb)', async () => {
      const large = await uploaded('Seller', { filename: 'wide.png', type: 'image/png', content: png });
      expect(large).toMatchObject({ width: 2000, height: 1000 });
      const web = await serve('Staff', large.webUrl as string);
      expect(await metadataOf(web.rawPayload)).toMatchObject({ width: 1200, height: 600 });
      const thumb = await serve('Staff', large.thumbUrl as string);
      expect(await metadataOf(thumb.rawPayload)).toMatchObject({ width: 160, height: 80 });
    });

    it('answers 304 to a browser that has this version', async () => {
      const first = await serve('Seller', media.thumbUrl as string);
      const again = await serve('Seller', media.thumbUrl as string, {
        'if-none-match': first.headers.etag as string,
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload).toHaveLength(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe('private, max-age=3600');
      const stale = await serve('Seller', media.thumbUrl as string, { 'if-none-match': '"something-else"' });
      expect(stale.statusCode).toBe(200);
    });

    it('serves byte ranges (videos seek with them) and refuses one outside the file', async () => {
      const content = mp4();
      const video = await uploaded('Seller', { filename: 'v.mp4', type: 'video/mp4', content });
      const part = await serve('Seller', video.url, { range: 'bytes=4-11' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 4-11/${content.length}`);
      expect(part.headers['content-type']).toBe('video/mp4');
      expect(part.rawPayload.toString('latin1')).toBe('ftypisom');
      const tail = await serve('Seller', video.url, { range: 'bytes=-10' });
      expect(tail.rawPayload).toEqual(content.subarray(content.length - 10));
      const outside = await serve('Seller', video.url, { range: `bytes=${content.length}-` });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${content.length}`);
      expect(json(outside)).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
      // A video has no derivatives: asking for one serves the original.
      const thumb = await serve('Seller', (await mediaSigner(t.app.db)).link(video.id, 'thumb'));
      expect(thumb.headers['content-type']).toBe('video/mp4');
      expect(thumb.rawPayload).toEqual(content);
    });

    it('falls back to the original when a derivative is missing; 404 when the original is gone', async () => {
      const other = await uploaded('Seller', { filename: 'x.jpg', type: 'image/jpeg', content: jpeg });
      const row = await rowOf(other.id);
      await rm(path.join(t.dataDir, row.derivatives.thumb as string));
      const thumb = await serve('Seller', other.thumbUrl as string);
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/jpeg');
      expect(thumb.rawPayload).toEqual(jpeg);
      await rm(path.join(t.dataDir, row.storagePath));
      const gone = await serve('Seller', other.url);
      expect(gone.statusCode).toBe(404);
      expect(json(gone)).toMatchObject({ code: 'FILE_NOT_FOUND' });
      // A path that leaves the media folder is never opened.
      await t.database.db
        .update(productMedia)
        .set({ storagePath: '../../../../etc/passwd', derivatives: { thumb: '../secret' } })
        .where(eq(productMedia.id, other.id));
      expect((await serve('Admin', other.thumbUrl as string)).statusCode).toBe(404);
    });

    it('serves through signed links only: no token needed, a missing, forged, swapped or expired one refused', async () => {
      // An <img> sends no token: the signed link the API answered is the permission.
      const anonymous = await t.app.inject({ method: 'GET', url: media.thumbUrl as string });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.headers['content-type']).toBe('image/webp');
      const signer = await mediaSigner(t.app.db);
      const refused = [
        `${API}/media/${media.id}`,
        `${API}/media/${media.id}?size=thumb`,
        (media.thumbUrl as string).replace(/sig=[\w-]+/, 'sig=AAAA'),
        // A thumb's signature does not open the original.
        (media.thumbUrl as string).replace('size=thumb&', ''),
        // Another server's secret, and an expired link of this one.
        createMediaSigner('not-this-servers-secret').link(media.id, 'thumb'),
        createMediaSigner(await mediaLinkSecret(t.app.db), () => Date.now() - 3 * 86_400_000).link(
          media.id,
          'thumb',
        ),
      ];
      for (const url of refused) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(403);
        expect(json(response)).toMatchObject({ code: 'MEDIA_LINK_INVALID' });
        // Errors are API answers like any other: never kept.
        expect(response.headers['cache-control']).toBe('no-store');
      }
      const unknown = await t.app.inject({ method: 'GET', url: signer.link(UNKNOWN_ID, 'original') });
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toMatchObject({ code: 'MEDIA_NOT_FOUND' });
      expect((await t.app.inject({ method: 'GET', url: `${API}/media/zzz` })).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'GET', url: `${media.url}&size=huge` })).statusCode).toBe(400);
    });

    it('a seller is given links to their own media only: another seller’s product answers 404', async () => {
      const theirs = await uploaded(
        'Admin',
        { filename: 'theirs.jpg', type: 'image/jpeg', content: jpeg },
        { query: `?sellerId=${otherSellerId}` },
      );
      const product = await as('Admin', 'POST', `${API}/`, {
        title: 'Their product',
        sku: 'MEDIA-THEIRS',
        categoryId,
        price: 1,
        inventory: 1,
        sellerId: otherSellerId,
        imageIds: [theirs.id],
      });
      expect(product.statusCode, product.body).toBe(201);
      const id = json<Product>(product).id;
      expect((await as('Seller', 'GET', `${API}/${id}`)).statusCode).toBe(404);
      const forStaff = json<Product>(await as('Staff', 'GET', `${API}/${id}`));
      expect(
        (await t.app.inject({ method: 'GET', url: forStaff.images[0]?.thumbUrl as string })).statusCode,
      ).toBe(200);
    });
  });

  describe('as attribute values and names', () => {
    it('an IMAGE attribute’s value comes with a signed thumbnail link that serves the thumbnail', async () => {
      const [attribute] = await t.database.db
        .insert(attributes)
        .values({ code: `m_gallery_${backend}`, label: 'Gallery', dataType: 'IMAGE', attributeType: 'MULTI' })
        .returning();
      await t.database.db.insert(categoryAttributes).values({ categoryId, attributeId: attribute!.id });
      const picture = await uploaded('Seller', { filename: 'side.png', type: 'image/png', content: png });
      const created = await as('Seller', 'POST', `${API}/`, {
        title: 'Gallery product',
        sku: `MEDIA-GALLERY-${backend}`,
        categoryId,
        price: 1,
        inventory: 1,
        attributeValues: [{ keyId: attribute!.id, values: [{ valueId: picture.id }] }],
      });
      expect(created.statusCode, created.body).toBe(201);
      const product = json<Product>(await as('Seller', 'GET', `${API}/${json<Product>(created).id}`));
      const value = product.attributeValues.find((each) => each.keyId === attribute!.id);
      const item = value && 'values' in value ? value.values[0] : undefined;
      // Each size is signed on its own: '?size=thumb' appended to the original's link was always 403.
      expect(item?.thumbUrl).toMatch(new RegExp(`^${API}/media/${picture.id}\\?size=thumb&exp=\\d+&sig=`));
      const thumb = await t.app.inject({ method: 'GET', url: item?.thumbUrl as string });
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect((await metadataOf(thumb.rawPayload)).width).toBeLessThanOrEqual(160);
    });

    it('keeps the uploaded name under the extension of the type found (a PNG named .html)', async () => {
      const media = await uploaded('Seller', { filename: 'page.html', type: 'text/html', content: png });
      expect(media).toMatchObject({ fileName: 'page.png', mimeType: 'image/png' });
      expect((await rowOf(media.id)).storagePath).toMatch(/\.png$/);
    });
  });

  describe('unclaimed uploads', () => {
    it('are removed after 24 hours with their files; claimed and recent ones stay', async () => {
      const stale = await uploaded('Seller', { filename: 'old.jpg', type: 'image/jpeg', content: jpeg });
      const fresh = await uploaded('Seller', { filename: 'new.jpg', type: 'image/jpeg', content: jpeg });
      const claimed = await uploaded('Seller', { filename: 'used.jpg', type: 'image/jpeg', content: jpeg });
      const product = await as('Seller', 'POST', `${API}/`, {
        title: 'Sweep test',
        sku: `SWEEP-${backend}`,
        categoryId,
        price: 10,
        inventory: 1,
        imageIds: [claimed.id],
      });
      expect(product.statusCode, product.body).toBe(201);
      await t.database.db
        .update(productMedia)
        .set({ createdAt: sql`now() - interval '25 hours'` })
        .where(sql`${productMedia.id} IN (${stale.id}, ${claimed.id})`);
      const staleRow = await rowOf(stale.id);

      const removed = await sweepUnclaimedMedia(t.database.db, t.app.storage);
      expect(removed).toBeGreaterThanOrEqual(1);
      const remaining = new Set(
        (await t.database.db.select({ id: productMedia.id }).from(productMedia)).map((row) => row.id),
      );
      expect(remaining.has(stale.id)).toBe(false);
      expect(remaining.has(fresh.id)).toBe(true);
      expect(remaining.has(claimed.id)).toBe(true);
      for (const relative of [staleRow.storagePath, ...Object.values(staleRow.derivatives)])
        expect(await exists(relative), relative).toBe(false);
      expect((await serve('Seller', stale.url)).statusCode).toBe(404);
      expect(await sweepUnclaimedMedia(t.database.db, t.app.storage)).toBe(0);
    });
  });

  describe('reprocess images', () => {
    const createProduct = async (
      who: 'Seller' | 'Admin',
      sku: string,
      imageIds: string[],
      sellerId?: string,
    ) => {
      const response = await as(who, 'POST', `${API}/`, {
        title: `Reprocess ${sku}`,
        sku,
        categoryId,
        price: 10,
        inventory: 1,
        imageIds,
        ...(sellerId ? { sellerId } : {}),
      });
      expect(response.statusCode, response.body).toBe(201);
      return json<Product>(response);
    };
    const start = async (who: 'Seller' | 'Admin', selection: Record<string, unknown>) => {
      const response = await as(who, 'POST', `${API}/method/reprocessImages`, { selection });
      expect(response.statusCode, response.body).toBe(202);
      return json<TaskAccepted>(response).taskStatus;
    };
    const run = async (who: 'Seller' | 'Admin', taskId: string) => {
      expect(await t.app.jobs.worker.runOnce()).toBe(true);
      const task = json<Task>(await as(who, 'GET', `/api/v1/tasks/${taskId}`));
      const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, taskId));
      const [note] = await t.database.db.select().from(notifications).where(eq(notifications.taskId, taskId));
      return { task, result: job!.result as Record<string, unknown>, note: note! };
    };

    it('regenerates missing derivatives from the originals, counts unreadable ones, and notifies', async () => {
      const first = await uploaded('Seller', { filename: 'one.jpg', type: 'image/jpeg', content: jpeg });
      const second = await uploaded('Seller', { filename: 'two.png', type: 'image/png', content: png });
      const broken = await uploaded('Seller', { filename: 'three.jpg', type: 'image/jpeg', content: jpeg });
      const product = await createProduct('Seller', `RP-${backend}-1`, [first.id, second.id, broken.id]);
      expect(product.imageCount).toBe(3);

      const firstRow = await rowOf(first.id);
      await rm(path.join(t.dataDir, firstRow.derivatives.thumb as string));
      await rm(path.join(t.dataDir, firstRow.derivatives.web as string));
      // An original that went corrupt on disk: reported, not fatal.
      await writeFile(path.join(t.dataDir, (await rowOf(broken.id)).storagePath), 'no longer a picture');

      const taskStatus = await start('Seller', { ids: [product.id] });
      expect(taskStatus).toMatchObject({ taskName: 'Reprocess images', status: 'Queued' });
      const { task, result, note } = await run('Seller', taskStatus.taskId);
      expect(task).toMatchObject({ status: 'Completed', progress: 100, error: null });
      expect(result).toMatchObject({ images: 3, reprocessed: 2, failed: 1, failedIds: [broken.id] });
      expect(note).toMatchObject({
        userId: as.ids.Seller,
        taskName: 'Reprocess images',
        status: 'Completed',
        title: 'Images reprocessed, some could not be read',
        body: '2 images reprocessed · 1 image could not be read',
      });
      for (const relative of Object.values(firstRow.derivatives)) expect(await exists(relative)).toBe(true);
      const thumb = await serve('Seller', first.thumbUrl as string);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect(await metadataOf(thumb.rawPayload)).toMatchObject({ width: 80, height: 160 });
    });

    it('is idempotent: running the same selection again gives the same files and counts', async () => {
      const image = await uploaded('Seller', { filename: 'again.jpg', type: 'image/jpeg', content: jpeg });
      const product = await createProduct('Seller', `RP-${backend}-2`, [image.id]);
      const row = await rowOf(image.id);
      const before = (await serve('Seller', image.thumbUrl as string)).rawPayload;
      for (let round = 0; round < 2; round++) {
        const { result } = await run('Seller', (await start('Seller', { ids: [product.id] })).taskId);
        expect(result).toMatchObject({ images: 1, reprocessed: 1, failed: 0 });
        expect(await rowOf(image.id)).toMatchObject({
          derivatives: row.derivatives,
          width: 200,
          height: 400,
        });
        expect((await serve('Seller', image.thumbUrl as string)).rawPayload).toEqual(before);
      }
      expect(await mediaFiles()).not.toContainEqual(expect.stringMatching(/\.part$/));
    });

    it('scopes a seller’s selection to their own products, by ids or by query', async () => {
      const theirs = await uploaded(
        'Admin',
        { filename: 'theirs.jpg', type: 'image/jpeg', content: jpeg },
        { query: `?sellerId=${otherSellerId}` },
      );
      const product = await createProduct('Admin', `RP-${backend}-3`, [theirs.id], otherSellerId);
      const thumbPath = (await rowOf(theirs.id)).derivatives.thumb as string;
      await rm(path.join(t.dataDir, thumbPath));

      const byIds = await run('Seller', (await start('Seller', { ids: [product.id] })).taskId);
      expect(byIds.result).toMatchObject({ images: 0, reprocessed: 0, failed: 0 });
      expect(byIds.note.body).toBe('The selected products have no images.');
      const byQuery = await run(
        'Seller',
        (await start('Seller', { query: { combinator: 'and', children: [] } })).taskId,
      );
      expect(byQuery.task.status).toBe('Completed');
      const [ownImages] = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(productMedia)
        .where(
          sql`${productMedia.sellerId} = ${ownSellerId} AND ${productMedia.productId} IS NOT NULL AND ${productMedia.kind} = 'image'`,
        );
      expect(byQuery.result.images).toBe(ownImages!.n);
      expect(await exists(thumbPath)).toBe(false);

      // Staff and admins reach every seller's products.
      const byAdmin = await run('Admin', (await start('Admin', { ids: [product.id] })).taskId);
      expect(byAdmin.result).toMatchObject({ images: 1, reprocessed: 1 });
      expect(await exists(thumbPath)).toBe(true);
    });

    it('refuses a bad selection at once (400) and needs the edit permission', async () => {
      const bad = await as('Seller', 'POST', `${API}/method/reprocessImages`, { selection: { ids: [] } });
      expect(bad.statusCode).toBe(400);
      const badQuery = await as('Seller', 'POST', `${API}/method/reprocessImages`, {
        selection: {
          query: { combinator: 'and', children: [{ field: 'nope', operator: 'equals', value: 1 }] },
        },
      });
      expect(badQuery.statusCode).toBe(400);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `${API}/method/reprocessImages`,
        payload: { selection: { ids: [UNKNOWN_ID] } },
      });
      expect(anonymous.statusCode).toBe(401);
      expect(await t.app.jobs.worker.runOnce()).toBe(false);
    });

    it('walks the images in batches: every image once, across batch boundaries', async () => {
      const images: ProductMedia[] = [];
      for (let i = 0; i < 5; i++)
        images.push(await uploaded('Seller', { filename: `b${i}.jpg`, type: 'image/jpeg', content: jpeg }));
      const product = await createProduct(
        'Seller',
        `RP-${backend}-4`,
        images.map((image) => image.id),
      );
      for (const image of images)
        await rm(path.join(t.dataDir, (await rowOf(image.id)).derivatives.web as string));
      const progress: number[] = [];
      const handler = reprocessImagesHandler({
        db: t.database.db,
        storage: t.app.storage,
        log: t.app.log,
        batchSize: 2,
      });
      const context = {
        job: { id: UNKNOWN_ID } as JobContext['job'],
        payload: { sellerId: ownSellerId, selection: { ids: [product.id] } },
        setProgress: async (value: number) => {
          progress.push(value);
        },
        signal: new AbortController().signal,
      } satisfies JobContext;
      const result = await handler(context);
      expect(result).toMatchObject({ images: 5, reprocessed: 5, failed: 0 });
      expect(progress).toHaveLength(5);
      expect(progress.at(-1)).toBe(99);
      for (const image of images)
        expect(await exists((await rowOf(image.id)).derivatives.web as string)).toBe(true);
    });
  });
});
