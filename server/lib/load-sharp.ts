// sharp (libvips: about 30 MB resident once loaded) is loaded by the first picture, not at start: most
// instances spend most of their life without resizing one, and idle memory is a target (issue 28).
import type sharpFunction from 'sharp';

export type Sharp = typeof sharpFunction;

let loading: Promise<Sharp> | undefined;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips keeps recent operations' results (up to 50 MB) to reuse them; each picture here is
    // resized once, so the cache would only hold memory after the work is done.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
