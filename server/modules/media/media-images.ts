// What sharp does to product images: check that an upload really is a picture of a sane size, and make
// the WebP derivatives the lists and the detail page show. Used by the upload and by the "reprocess
// images" job, so both produce exactly the same files. sharp reads a local file or a buffer; the
// derivatives are rendered to buffers (a few hundred KB at most) and put into the file storage.
import path from 'node:path';
import { PRODUCT_IMAGE_MAX_PIXELS } from '../../../contracts/product-media';
import { HttpError } from '../../lib/http-error';
import { loadSharp } from '../../lib/load-sharp';
import type { FileStorage } from '../../lib/storage/types';

/** Each derivative fits in a square of this many pixels (never enlarged). */
export const DERIVATIVE_SIZES = { thumb: 160, web: 1200 } as const;
export type DerivativeName = keyof typeof DERIVATIVE_SIZES;
export const derivativeNames = Object.keys(DERIVATIVE_SIZES) as DerivativeName[];
export const DERIVATIVE_TYPE = 'image/webp';

/** The formats sharp must find inside the uploads the sniffer let through. */
const imageFormats = new Set(['jpeg', 'png', 'webp']);

// Untrusted input: never more pixels than an image may have, and a corrupt picture is an error (sharp's
// 'error' level: real-world files with a harmless warning, such as trailing bytes, still pass).
const decodeOptions = { limitInputPixels: PRODUCT_IMAGE_MAX_PIXELS, failOn: 'error' } as const;

export const notAnImage = () =>
  new HttpError(
    415,
    'The file is not a readable JPEG, PNG or WebP image. Export it again and retry.',
    'UNREADABLE_IMAGE',
  );

export const tooManyPixels = (width: number, height: number) =>
  new HttpError(
    413,
    `The image is ${width} × ${height} pixels; at most ${PRODUCT_IMAGE_MAX_PIXELS / 1_000_000} megapixels are accepted. Resize it and retry.`,
    'IMAGE_TOO_MANY_PIXELS',
  );

/**
 * The upright size of an image file, read from its header only: a decompression bomb (a few KB that
 * declare 20,000 × 20,000 pixels) is refused here, before anything is decoded.
 */
export async function inspectImage(file: string | Buffer): Promise<{ width: number; height: number }> {
  // The limit is checked just below with a clear message; sharp's own check would only say "exceeds".
  const sharp = await loadSharp();
  const metadata = await sharp(file, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw notAnImage();
    });
  const { width, height, format } = metadata;
  if (!width || !height || !imageFormats.has(format)) throw notAnImage();
  if (width * height > PRODUCT_IMAGE_MAX_PIXELS) throw tooManyPixels(width, height);
  return { width: metadata.autoOrient?.width ?? width, height: metadata.autoOrient?.height ?? height };
}

/** Where a derivative of the original `storagePath` lives: beside it, `<name>-<derivative>.webp`. */
export function derivativePathOf(storagePath: string, name: DerivativeName): string {
  const { dir, name: stem } = path.posix.parse(storagePath);
  return path.posix.join(dir, `${stem}-${name}.webp`);
}

/**
 * Decodes the original (a local file or its bytes) in full (a picture that only pretends to be one fails
 * here) and renders every derivative: EXIF-rotated, metadata stripped (sharp keeps none unless asked),
 * sRGB WebP. Nothing is stored yet.
 */
export async function renderDerivatives(original: string | Buffer): Promise<Record<DerivativeName, Buffer>> {
  const sharp = await loadSharp();
  const source = sharp(original, decodeOptions).autoOrient();
  const rendered = {} as Record<DerivativeName, Buffer>;
  for (const name of derivativeNames) {
    const side = DERIVATIVE_SIZES[name];
    rendered[name] = await source
      .clone()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: name === 'thumb' ? 75 : 82 })
      .toBuffer()
      .catch(() => {
        // The header was fine (inspectImage) but the pixels are not: truncated or corrupt data.
        throw notAnImage();
      });
  }
  return rendered;
}

/**
 * Renders every derivative of the original at `storagePath` (read from `original`, a local copy or its
 * bytes) and puts each beside it. A put replaces its object whole, so a reader never sees half a file
 * and running it again (a retried job) simply writes the same files. Answers the keys by name.
 */
export async function writeDerivatives(
  storage: FileStorage,
  storagePath: string,
  original: string | Buffer,
): Promise<Record<DerivativeName, string>> {
  const rendered = await renderDerivatives(original);
  const keys = {} as Record<DerivativeName, string>;
  for (const name of derivativeNames) {
    keys[name] = derivativePathOf(storagePath, name);
    await storage.put(keys[name], rendered[name], { contentType: DERIVATIVE_TYPE });
  }
  return keys;
}
