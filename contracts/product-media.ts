// Product media (issue 14): the pictures and videos a seller uploads before a product claims them (by
// `imageIds` or an IMAGE/VIDEO attribute value), and the "reprocess images" task. Shared by the server,
// the browser and the tests. (`POST /method/reprocessImages` takes the bulk actions' `selectionBodySchema`
// of contracts/catalog-actions.ts; it is not re-exported here so that the browser's file checks, which
// read these limits, do not load the catalogue's schemas.)
import { z } from 'zod';

/** Images: JPEG, PNG or WebP (checked by content, then decoded), 10 MB at most. */
export const PRODUCT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const PRODUCT_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/**
 * An image may have this many pixels at most (50 MP, more than any phone photo a shop needs): a small
 * file can declare a huge picture (a decompression bomb), so the header's size is checked before any
 * decoding.
 */
export const PRODUCT_IMAGE_MAX_PIXELS = 50_000_000;
/** Videos: MP4 or WebM (checked by content), 50 MB at most. */
export const PRODUCT_VIDEO_MAX_BYTES = 50 * 1024 * 1024;
export const PRODUCT_VIDEO_TYPES = ['video/mp4', 'video/webm'] as const;

export const productMediaKinds = ['image', 'video'] as const;
export type ProductMediaKind = (typeof productMediaKinds)[number];

/** What `GET /media/:id?size=` serves: the uploaded file, or a WebP derivative of an image. */
export const mediaSizes = ['original', 'thumb', 'web'] as const;
export type MediaSize = (typeof mediaSizes)[number];

/** An upload as the server answers it (`POST /api/v1/stagingProducts/media`). */
export const productMediaSchema = z.object({
  id: z.string(),
  kind: z.enum(productMediaKinds),
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  /** Pixels, upright (after the EXIF orientation); null for videos. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string(),
  /** The 160 px and 1200 px WebP derivatives; null for videos, which have none. */
  thumbUrl: z.string().nullable(),
  webUrl: z.string().nullable(),
});
export type ProductMedia = z.infer<typeof productMediaSchema>;

/** Staff and admins name the seller the upload is for (a seller's uploads are always their own). */
export const uploadProductMediaQuerySchema = z.object({
  sellerId: z.string().uuid('sellerId must be a seller id').optional(),
});

export const productMediaParamsSchema = z.object({
  id: z.string().uuid('There is no such media, or it is not yours.'),
});

export const productMediaQuerySchema = z.object({
  size: z.enum(mediaSizes).default('original'),
  /** The signed link's expiry (seconds since the epoch) and signature (server/modules/media/media-urls.ts). */
  exp: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});
