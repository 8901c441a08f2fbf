import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import type { SellerDocument } from '../../../contracts/seller-admin';
import type { Seller } from '../../../contracts/sellers';
import { sellerDocuments } from '../../db/schema';
import { startTestS3, type TestS3 } from '../../lib/storage/test-s3';
import { cleanFileName, sniffFileType } from '../../lib/uploads';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { demoSellerId, multipart, newSellerBody, sampleFile } from './test-helpers';

const BASE = '/api/v1/sellers';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const MB = 1024 * 1024;

describe('sniffFileType', () => {
  it.each([
    ['pdf', 'application/pdf'],
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['gif', null],
    ['html', null],
  ] as const)('%s → %s', (kind, type) => {
    expect(sniffFileType(sampleFile[kind]())).toBe(type);
  });

  it('does not take a truncated signature for the real thing', () => {
    expect(sniffFileType(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffFileType(Buffer.from('RIFF1234WAVE'))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
  });
});

describe('cleanFileName', () => {
  it('keeps only a safe base name', () => {
    expect(cleanFileName('../../etc/passwd', 'x')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\scan "1".pdf', 'x')).toBe('scan 1.pdf');
    expect(cleanFileName('a\u0000b\nc.png', 'x')).toBe('abc.png');
    expect(cleanFileName('', 'file.pdf')).toBe('file.pdf');
    expect(cleanFileName(undefined, 'file.pdf')).toBe('file.pdf');
    expect(cleanFileName(`${'a'.repeat(300)}.pdf`, 'x')).toHaveLength(200);
  });
});

/** Files on the disk under DATA_DIR on every database, and on S3 (s3rver) once. */
const fileCases: ['pglite' | 'postgres', 'disk' | 's3'][] = [
  ...testBackends.map((backend) => [backend, 'disk'] as ['pglite' | 'postgres', 'disk']),
  ['pglite', 's3'],
];

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3?.close());

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(fileCases)('seller documents and logo on %s, files on %s', (backend, files) => {
  let t: TestApp;
  let as: ApiAs;
  let ownId: string;
  let otherId: string;
  beforeAll(async () => {
    t = await createTestApp({ backend, env: files === 's3' ? s3.env : {} });
    as = await apiAs(t.app);
    ownId = await demoSellerId(t, 'seller@demo.local');
    otherId = json<Seller>(await as('Admin', 'POST', `${BASE}/createNewSeller`, newSellerBody())).id;
  });
  afterAll(() => t.close());

  /** Every file under a folder: on disk the directory itself (temporary files too), on S3 the keys. */
  const filesIn = async (folder: string) => {
    if (files === 'disk') return readdir(path.join(t.dataDir, folder)).catch(() => [] as string[]);
    const keys: string[] = [];
    for await (const key of t.app.storage.list(`${folder}/`)) keys.push(key);
    return keys;
  };
  const storedBytes = async (key: string) => {
    if (files === 'disk') return readFile(path.join(t.dataDir, key));
    return bytesOf((await t.app.storage.get(key))?.body as Readable);
  };
  const documentRows = async (sellerId: string) =>
    t.database.db.select().from(sellerDocuments).where(eq(sellerDocuments.sellerId, sellerId));
  const upload = (
    who: DemoRole,
    sellerId: string,
    file: { filename: string; type: string; content: Buffer },
    kind = 'identity',
  ) => {
    const body = multipart([file]);
    return as(
      who,
      'POST',
      `${BASE}/uploadSellerDocument?sellerId=${sellerId}&kind=${kind}`,
      body.payload,
      body.headers,
    );
  };
  const uploadLogo = (
    who: DemoRole,
    sellerId: string,
    file: { filename: string; type: string; content: Buffer },
  ) => {
    const body = multipart([file]);
    return as(who, 'POST', `${BASE}/uploadSellerLogo/${sellerId}`, body.payload, body.headers);
  };

  describe('documents', () => {
    it.each([
      ['pdf', 'application/pdf'],
      ['jpeg', 'image/jpeg'],
      ['png', 'image/png'],
    ] as const)(
      'an admin uploads a %s; it is stored, listed, recorded and downloadable',
      async (kind, type) => {
        const content = sampleFile[kind](2048);
        // The declared type is wrong on purpose: only the content decides.
        const response = await upload('Admin', otherId, {
          filename: `pan card.${kind}`,
          type: 'application/octet-stream',
          content,
        });
        expect(response.statusCode, response.body).toBe(201);
        const document = json<SellerDocument>(response);
        expect(document).toMatchObject({
          sellerId: otherId,
          kind: 'identity',
          fileName: `pan card.${kind}`,
          mimeType: type,
          size: 2048,
        });
        const [row] = await t.database.db
          .select()
          .from(sellerDocuments)
          .where(eq(sellerDocuments.id, document.id));
        expect(row?.storagePath).toMatch(/^uploads\/documents\/[0-9a-f-]{36}$/);
        expect(t.app.storage.driver).toBe(files);
        expect(await storedBytes(row?.storagePath ?? '')).toEqual(content);

        const list = json<{ result: SellerDocument[] }>(
          await as('Staff', 'GET', `${BASE}/getSellerDocuments/${otherId}`),
        );
        expect(list.result[0]).toEqual(document);

        const download = await as('Staff', 'GET', `${BASE}/documents/${document.id}`);
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-type']).toBe(type);
        expect(download.headers['content-disposition']).toBe(
          `attachment; filename="pan card.${kind}"; filename*=UTF-8''pan%20card.${kind}`,
        );
        expect(download.headers['x-content-type-options']).toBe('nosniff');
        expect(download.rawPayload).toEqual(content);

        const [entry] = json<AuditPage>(
          await as('Admin', 'GET', `${BASE}/getUpdateHistory/${otherId}`),
        ).result;
        expect(entry).toMatchObject({
          action: 'document',
          note: 'Identity proof',
          changes: [{ field: 'document', before: null, after: `pan card.${kind}` }],
        });
      },
    );

    it('refuses other content with 415, whatever the name or declared type, and keeps nothing', async () => {
      const rowsBefore = (await documentRows(otherId)).length;
      const filesBefore = (await filesIn('uploads/documents')).length;
      for (const file of [
        { filename: 'scan.pdf', type: 'application/pdf', content: sampleFile.html() },
        { filename: 'photo.png', type: 'image/png', content: sampleFile.gif() },
        { filename: 'logo.webp', type: 'image/webp', content: sampleFile.webp() },
      ]) {
        const response = await upload('Admin', otherId, file);
        expect(response.statusCode).toBe(415);
        expect(json(response)).toEqual({
          message: 'Only PDF, JPEG or PNG files are accepted.',
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
      expect(await documentRows(otherId)).toHaveLength(rowsBefore);
      expect(await filesIn('uploads/documents')).toHaveLength(filesBefore);
    });

    it('refuses a file over 5 MB with 413 and keeps nothing; exactly 5 MB is fine', async () => {
      const rowsBefore = (await documentRows(otherId)).length;
      const filesBefore = (await filesIn('uploads/documents')).length;
      const tooLarge = await upload('Admin', otherId, {
        filename: 'big.pdf',
        type: 'application/pdf',
        content: sampleFile.pdf(5 * MB + 1),
      });
      expect(tooLarge.statusCode).toBe(413);
      expect(json(tooLarge)).toEqual({ message: 'The file is larger than 5 MB.', code: 'FILE_TOO_LARGE' });
      expect(await documentRows(otherId)).toHaveLength(rowsBefore);
      expect(await filesIn('uploads/documents')).toHaveLength(filesBefore);
      const fits = await upload('Admin', otherId, {
        filename: 'fits.pdf',
        type: 'application/pdf',
        content: sampleFile.pdf(5 * MB),
      });
      expect(fits.statusCode).toBe(201);
    });

    it('answers 415 for a non-multipart body and 400 for a multipart body without a file', async () => {
      const asJson = await as('Admin', 'POST', `${BASE}/uploadSellerDocument?sellerId=${otherId}&kind=tax`, {
        file: 'x',
      });
      expect(asJson.statusCode).toBe(415);
      const noFile = multipart([], { note: 'hello' });
      const empty = await as(
        'Admin',
        'POST',
        `${BASE}/uploadSellerDocument?sellerId=${otherId}&kind=tax`,
        noFile.payload,
        noFile.headers,
      );
      expect(empty.statusCode).toBe(400);
      expect(json(empty)).toMatchObject({ code: 'FILE_MISSING' });
    });

    it('answers 400 for a bad kind or seller id and 404 for an unknown seller', async () => {
      const file = { filename: 'a.pdf', type: 'application/pdf', content: sampleFile.pdf() };
      expect((await upload('Admin', otherId, file, 'selfie')).statusCode).toBe(400);
      expect((await upload('Admin', 'nope', file)).statusCode).toBe(400);
      expect((await upload('Admin', UNKNOWN_ID, file)).statusCode).toBe(404);
      expect((await as('Admin', 'GET', `${BASE}/getSellerDocuments/${UNKNOWN_ID}`)).statusCode).toBe(404);
      expect((await as('Admin', 'GET', `${BASE}/documents/${UNKNOWN_ID}`)).statusCode).toBe(404);
      expect((await as('Admin', 'GET', `${BASE}/documents/zzz`)).statusCode).toBe(400);
    });

    it('lets a seller upload, list and download their own documents only', async () => {
      const file = { filename: 'gst.pdf', type: 'application/pdf', content: sampleFile.pdf() };
      const own = await upload('Seller', ownId, file, 'tax');
      expect(own.statusCode).toBe(201);
      const ownDoc = json<SellerDocument>(own);
      expect(
        json<{ result: SellerDocument[] }>(await as('Seller', 'GET', `${BASE}/getSellerDocuments/${ownId}`))
          .result,
      ).toContainEqual(ownDoc);
      expect((await as('Seller', 'GET', `${BASE}/documents/${ownDoc.id}`)).statusCode).toBe(200);

      const rowsBefore = (await documentRows(otherId)).length;
      const other = await upload('Seller', otherId, file);
      expect(other.statusCode).toBe(403);
      expect(json(other)).toEqual({
        message: 'You can only manage your own seller account.',
        code: 'FORBIDDEN',
      });
      expect(await documentRows(otherId)).toHaveLength(rowsBefore);
      expect((await as('Seller', 'GET', `${BASE}/getSellerDocuments/${otherId}`)).statusCode).toBe(403);
      const [otherDoc] = await documentRows(otherId);
      expect((await as('Seller', 'GET', `${BASE}/documents/${otherDoc?.id}`)).statusCode).toBe(403);
    });

    it('staff may view but not upload', async () => {
      const file = { filename: 'a.pdf', type: 'application/pdf', content: sampleFile.pdf() };
      const response = await upload('Staff', otherId, file);
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({
        message: 'You do not have permission to edit Manage Sellers.',
        code: 'FORBIDDEN',
      });
    });

    it('a download whose file vanished answers 404, not a broken stream', async () => {
      const response = await upload('Admin', otherId, {
        filename: 'gone.pdf',
        type: 'application/pdf',
        content: sampleFile.pdf(),
      });
      const document = json<SellerDocument>(response);
      await t.database.db
        .update(sellerDocuments)
        .set({ storagePath: 'uploads/documents/does-not-exist' })
        .where(eq(sellerDocuments.id, document.id));
      expect((await as('Admin', 'GET', `${BASE}/documents/${document.id}`)).statusCode).toBe(404);
      await t.database.db
        .update(sellerDocuments)
        .set({ storagePath: '../../../../etc/passwd' })
        .where(eq(sellerDocuments.id, document.id));
      expect((await as('Admin', 'GET', `${BASE}/documents/${document.id}`)).statusCode).toBe(404);
    });

    it('a download answers one byte range with 206, and 304 to the copy the client has', async () => {
      const content = sampleFile.pdf(4096);
      const document = json<SellerDocument>(
        await upload('Admin', otherId, { filename: 'r.pdf', type: 'application/pdf', content }),
      );
      const url = `${BASE}/documents/${document.id}`;
      const whole = await as('Admin', 'GET', url);
      expect(whole.headers['content-length']).toBe('4096');
      const etag = whole.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      const part = await as('Admin', 'GET', url, undefined, { range: 'bytes=100-199' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe('bytes 100-199/4096');
      expect(part.rawPayload).toEqual(content.subarray(100, 200));
      const outside = await as('Admin', 'GET', url, undefined, { range: 'bytes=5000-' });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe('bytes */4096');
      const cached = await as('Admin', 'GET', url, undefined, { 'if-none-match': etag });
      expect(cached.statusCode).toBe(304);
      expect(cached.rawPayload).toHaveLength(0);
    });

    it.runIf(files === 's3')(
      'while the store is down, an upload answers 503 with no row and a download 503; both work once it is back',
      async () => {
        const pdf = { filename: 'outage.pdf', type: 'application/pdf', content: sampleFile.pdf() };
        const stored = json<SellerDocument>(await upload('Admin', otherId, pdf));
        const rowsBefore = (await documentRows(otherId)).length;
        await s3.stop();
        try {
          const started = Date.now();
          const refused = await upload('Admin', otherId, pdf);
          expect(Date.now() - started).toBeLessThan(5000);
          expect(refused.statusCode).toBe(503);
          expect(json(refused)).toEqual({
            message: 'File storage is unavailable. Try again in a moment.',
            code: 'STORAGE_UNAVAILABLE',
          });
          expect(await documentRows(otherId)).toHaveLength(rowsBefore);
          const download = await as('Admin', 'GET', `${BASE}/documents/${stored.id}`);
          expect(download.statusCode).toBe(503);
          expect(json(download)).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
          const logo = await uploadLogo('Admin', otherId, {
            filename: 'l.png',
            type: 'image/png',
            content: sampleFile.png(),
          });
          expect(logo.statusCode).toBe(503);
        } finally {
          await s3.start();
        }
        expect((await upload('Admin', otherId, pdf)).statusCode).toBe(201);
        expect(await documentRows(otherId)).toHaveLength(rowsBefore + 1);
        const download = await as('Admin', 'GET', `${BASE}/documents/${stored.id}`);
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload).toEqual(pdf.content);
      },
    );
  });

  describe('logo', () => {
    it.each([
      ['png', 'image/png'],
      ['jpeg', 'image/jpeg'],
      ['webp', 'image/webp'],
    ] as const)(
      'an admin uploads a %s logo; it becomes the logo and is served publicly',
      async (kind, type) => {
        const content = sampleFile[kind](1024);
        const response = await uploadLogo('Admin', otherId, {
          filename: 'logo.bin',
          type: 'text/plain',
          content,
        });
        expect(response.statusCode, response.body).toBe(200);
        const seller = json<Seller>(response);
        expect(seller.logo).toMatch(/^\/files\/logos\/[0-9a-f-]{36}\.(png|jpg|webp)$/);
        expect(seller.sellerLogos.at(-1)?.path).toBe(seller.logo);

        const served = await t.app.inject({ method: 'GET', url: seller.logo as string });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(type);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(served.rawPayload).toEqual(content);
      },
    );

    it('appends every upload and records before → after', async () => {
      const before = json<Seller>(await as('Admin', 'GET', `${BASE}/getSellersById/${otherId}`));
      const response = await uploadLogo('Admin', otherId, {
        filename: 'new.png',
        type: 'image/png',
        content: sampleFile.png(),
      });
      const after = json<Seller>(response);
      expect(after.sellerLogos).toHaveLength(before.sellerLogos.length + 1);
      const [entry] = json<AuditPage>(await as('Admin', 'GET', `${BASE}/getUpdateHistory/${otherId}`)).result;
      expect(entry).toMatchObject({
        action: 'logo',
        changes: [{ field: 'logo', before: before.logo, after: after.logo }],
      });
    });

    it('refuses a PDF or an oversized image, keeping nothing', async () => {
      const filesBefore = (await filesIn('uploads/logos')).length;
      const pdf = await uploadLogo('Admin', otherId, {
        filename: 'a.png',
        type: 'image/png',
        content: sampleFile.pdf(),
      });
      expect(pdf.statusCode).toBe(415);
      expect(json(pdf)).toMatchObject({ message: 'Only PNG, JPEG or WebP files are accepted.' });
      const big = await uploadLogo('Admin', otherId, {
        filename: 'a.png',
        type: 'image/png',
        content: sampleFile.png(2 * MB + 1),
      });
      expect(big.statusCode).toBe(413);
      expect(json(big)).toEqual({ message: 'The file is larger than 2 MB.', code: 'FILE_TOO_LARGE' });
      expect(await filesIn('uploads/logos')).toHaveLength(filesBefore);
    });

    it('a seller sets their own logo only; staff cannot', async () => {
      const file = { filename: 'me.png', type: 'image/png', content: sampleFile.png() };
      expect((await uploadLogo('Seller', ownId, file)).statusCode).toBe(200);
      expect((await uploadLogo('Seller', otherId, file)).statusCode).toBe(403);
      expect((await uploadLogo('Staff', otherId, file)).statusCode).toBe(403);
      expect((await uploadLogo('Admin', UNKNOWN_ID, file)).statusCode).toBe(404);
      expect((await uploadLogo('Admin', 'bad', file)).statusCode).toBe(400);
    });

    it('serves only names it gave out', async () => {
      for (const url of [
        '/files/logos/../../pglite',
        '/files/logos/%2e%2e%2fsecret.png',
        '/files/logos/not-a-uuid.png',
        '/files/logos/00000000-0000-4000-8000-000000000000.png',
      ]) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
    });
  });
});

describe('seller documents with S3_PRESIGNED_DOWNLOADS', () => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...s3.env, S3_PRESIGNED_DOWNLOADS: 'true' } });
    as = await apiAs(t.app);
  });
  afterAll(() => t?.close());

  it('a download redirects to a short-lived link that serves the bytes under the document name', async () => {
    const sellerId = json<Seller>(await as('Admin', 'POST', `${BASE}/createNewSeller`, newSellerBody())).id;
    const content = sampleFile.pdf(3000);
    const body = multipart([{ filename: 'Trade licence é.pdf', type: 'application/pdf', content }]);
    const uploaded = await as(
      'Admin',
      'POST',
      `${BASE}/uploadSellerDocument?sellerId=${sellerId}&kind=identity`,
      body.payload,
      body.headers,
    );
    expect(uploaded.statusCode).toBe(201);
    const document = json<SellerDocument>(uploaded);
    const response = await as('Admin', 'GET', `${BASE}/documents/${document.id}`);
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toContain('no-store');
    const link = response.headers.location as string;
    expect(link.startsWith(s3.endpoint)).toBe(true);
    expect(link).toContain('X-Amz-Expires=300');
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(content);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(fetched.headers.get('content-disposition')).toBe(
      `attachment; filename="Trade licence _.pdf"; filename*=UTF-8''Trade%20licence%20%C3%A9.pdf`,
    );
    // The permission is still the app's: a seller gets no link to another seller's papers.
    const other = await as('Seller', 'GET', `${BASE}/documents/${document.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.headers.location).toBeUndefined();
  });
});
