// Shared by the seller API tests: seller ids, multipart bodies and tiny real files. (Sign-ins and
// authorised requests: `apiAs` in server/test-support.ts.)
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { sellers } from '../../db/schema';
import type { TestApp } from '../../test-support';

export async function demoSellerId(t: TestApp, email: string): Promise<string> {
  const [row] = await t.database.db.select({ id: sellers.id }).from(sellers).where(eq(sellers.email, email));
  if (!row) throw new Error(`no seller ${email}`);
  return row.id;
}

export interface FilePart {
  field?: string;
  filename: string;
  type: string;
  content: Buffer;
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----mp-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Smallest real files of each type (their magic bytes are what counts), padded to `size` bytes. */
export const sampleFile = {
  pdf: (size = 64) =>
    pad(Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1'), size),
  png: (size = 64) => pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), size),
  jpeg: (size = 64) => pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]), size),
  webp: (size = 64) =>
    pad(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]), size),
  gif: (size = 64) => pad(Buffer.from('GIF89a', 'latin1'), size),
  html: () => Buffer.from('<html><script>alert(1)</script></html>'),
};

function pad(head: Buffer, size: number): Buffer {
  return size <= head.length ? head : Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);
}

let counter = 0;
/** A fresh, valid create body with a unique e-mail. */
export function newSellerBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    sellerName: `Test Seller ${tag}`,
    email: `test.${tag}@sellers.example`,
    phone: '+91 98765 43210',
    ...overrides,
  };
}
