// receiveSheetUpload through a tiny Fastify app with @fastify/multipart, as a route uses it.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../http-error';
import { scratchDir } from '../scratch';
import { DiskStorage } from '../storage/disk-storage';
import { receiveSheetUpload } from './index';
import { pngBytes, temporaryFolder, writeXlsx } from './test-files';

const MAX_BYTES = 64 * 1024;
const FOLDER = 'imports';

let tmp: Awaited<ReturnType<typeof temporaryFolder>>;
let app: FastifyInstance;

beforeAll(async () => {
  tmp = await temporaryFolder();
  app = Fastify();
  await app.register(fastifyMultipart);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof HttpError)
      return reply.status(error.status).send({ message: error.message, code: error.code });
    return reply.status(500).send({ message: String(error) });
  });
  const storage = new DiskStorage(tmp.folder);
  app.post('/upload', async (request) => {
    const { localPath, release, ...file } = await receiveSheetUpload(
      request,
      { storage, dataDir: tmp.folder, folder: FOLDER },
      { maxBytes: MAX_BYTES },
    );
    // The local copy is the stored sheet, readable until released.
    expect(await readFile(localPath)).toEqual(await readFile(path.join(tmp.folder, file.relativePath)));
    await release();
    return file;
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await tmp.remove();
});

/** A multipart/form-data body as a browser sends it: the text fields, then the file. */
function multipart(filename: string, content: Buffer, fields: Record<string, string> = {}) {
  const boundary = `----sheet-test-${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (filename: string, content: Buffer, fields?: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/upload', ...multipart(filename, content, fields) });

/** The files in the upload folder and in scratch space, temporary ones included. */
const stored = async () => [
  ...(await readdir(path.join(tmp.folder, FOLDER)).catch(() => [] as string[])),
  ...(await readdir(scratchDir(tmp.folder)).catch(() => [] as string[])),
];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('receiveSheetUpload', () => {
  it('keeps a CSV under a new name, with its hash, its cleaned name and the form fields', async () => {
    const content = Buffer.from('Name,Price\nWidget,1.5\n');
    const response = await upload('C:\\exports\\my products.csv', content, { mode: 'dry-run' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      relativePath: `${FOLDER}/${body.name}`,
      name: expect.stringMatching(/^[0-9a-f-]{36}\.csv$/),
      format: 'csv',
      fileName: 'my products.csv',
      size: content.length,
      sha256: sha256(content),
      fields: { mode: 'dry-run' },
    });
    expect(await readFile(path.join(tmp.folder, body.relativePath))).toEqual(content);
  });

  it('keeps an XLSX, whatever its name says', async () => {
    const file = await writeXlsx(tmp.path('upload.xlsx'), [
      { name: 'Products', rows: [['Name'], ['Widget']] },
    ]);
    const content = await readFile(file);
    const response = await upload('products.csv', content);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: expect.stringMatching(/\.xlsx$/),
      format: 'xlsx',
      fileName: 'products.csv',
      size: content.length,
      sha256: sha256(content),
    });
  });

  it('refuses, leaving no file: too large (413), empty (400), not a sheet (415)', async () => {
    const before = await stored();

    const large = await upload('big.csv', Buffer.alloc(MAX_BYTES + 1, 'a'));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ code: 'FILE_TOO_LARGE' });

    const empty = await upload('empty.csv', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: 'The file is empty.', code: 'FILE_EMPTY' });

    const png = await upload('sheet.csv', pngBytes());
    expect(png.statusCode).toBe(415);
    expect(png.json()).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringMatching(/^The file is not a CSV or XLSX sheet: it is a PNG picture\./),
    });

    expect(await stored()).toEqual(before);
  });

  it('answers 415 to a request that is not multipart', async () => {
    const response = await app.inject({ method: 'POST', url: '/upload', payload: { a: 1 } });
    expect(response.statusCode).toBe(415);
  });
});
