// What the browser checks before sending a file, to answer at once; the server decides by content.
import {
  PRODUCT_IMAGE_MAX_BYTES,
  PRODUCT_IMAGE_TYPES,
  PRODUCT_VIDEO_MAX_BYTES,
  PRODUCT_VIDEO_TYPES,
} from '../../contracts/product-media';
import { DOCUMENT_MAX_BYTES, LOGO_MAX_BYTES } from '../../contracts/seller-admin';

export const LOGO_ACCEPT = 'image/png,image/jpeg,image/webp';
export const DOCUMENT_ACCEPT = 'application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png';

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A message when the file is clearly not acceptable, else null. */
export function checkFile(file: File, kind: 'logo' | 'document'): string | null {
  const max = kind === 'logo' ? LOGO_MAX_BYTES : DOCUMENT_MAX_BYTES;
  if (file.size === 0) return 'The file is empty.';
  if (file.size > max) return `The file is larger than ${megabytes(max)}.`;
  return null;
}

const productMediaTypes: readonly string[] = [...PRODUCT_IMAGE_TYPES, ...PRODUCT_VIDEO_TYPES];
export const PRODUCT_MEDIA_ACCEPT = [
  ...productMediaTypes,
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
  '.mp4',
  '.webm',
].join(',');

/**
 * Product media: a message when the file is clearly not acceptable, else null. The type is the one the
 * browser declares (empty when it does not know, then the server decides); a video may be larger.
 */
export function checkProductMediaFile(file: File): string | null {
  if (file.size === 0) return 'The file is empty.';
  if (file.type && !productMediaTypes.includes(file.type))
    return 'Only JPEG, PNG, WebP, MP4 or WebM files are accepted.';
  const isVideo = file.type ? file.type.startsWith('video/') : /\.(mp4|webm)$/i.test(file.name);
  const max = isVideo ? PRODUCT_VIDEO_MAX_BYTES : PRODUCT_IMAGE_MAX_BYTES;
  if (file.size > max) return `The file is larger than ${megabytes(max)}.`;
  return null;
}
