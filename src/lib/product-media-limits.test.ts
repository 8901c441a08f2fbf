import { describe, expect, it } from 'vitest';
import { checkProductMediaFile, PRODUCT_MEDIA_ACCEPT } from './file-limits';

const MB = 1024 * 1024;
/** A File of `size` bytes without allocating them (only `size` is read). */
function fakeFile(name: string, type: string, size: number): File {
  const file = new File([], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('checkProductMediaFile', () => {
  it('accepts images up to 10 MB and videos up to 50 MB', () => {
    expect(checkProductMediaFile(fakeFile('a.jpg', 'image/jpeg', 10 * MB))).toBeNull();
    expect(checkProductMediaFile(fakeFile('a.webm', 'video/webm', 50 * MB))).toBeNull();
    expect(checkProductMediaFile(fakeFile('a.png', 'image/png', 10 * MB + 1))).toBe(
      'The file is larger than 10 MB.',
    );
    expect(checkProductMediaFile(fakeFile('a.mp4', 'video/mp4', 50 * MB + 1))).toBe(
      'The file is larger than 50 MB.',
    );
  });

  it('goes by the name when the browser does not know the type', () => {
    expect(checkProductMediaFile(fakeFile('clip.MP4', '', 20 * MB))).toBeNull();
    expect(checkProductMediaFile(fakeFile('photo', '', 20 * MB))).toBe('The file is larger than 10 MB.');
  });

  it('refuses empty files and other declared types', () => {
    expect(checkProductMediaFile(fakeFile('a.jpg', 'image/jpeg', 0))).toBe('The file is empty.');
    expect(checkProductMediaFile(fakeFile('a.gif', 'image/gif', 10))).toBe(
      'Only JPEG, PNG, WebP, MP4 or WebM files are accepted.',
    );
  });

  it('offers the same types in the file picker', () => {
    expect(PRODUCT_MEDIA_ACCEPT.split(',')).toEqual(
      expect.arrayContaining(['image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm']),
    );
  });
});
