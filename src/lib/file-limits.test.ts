import { describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES, LOGO_MAX_BYTES } from '../../contracts/seller-admin';
import { checkFile, formatBytes } from './file-limits';

const fileOf = (bytes: number) => new File([new Uint8Array(bytes)], 'paper.pdf', { type: 'application/pdf' });

describe('the file checks before an upload', () => {
  it('refuses an empty file and one over the limit of its kind', () => {
    expect(checkFile(fileOf(0), 'document')).toBe('The file is empty.');
    expect(checkFile(fileOf(DOCUMENT_MAX_BYTES), 'document')).toBeNull();
    expect(checkFile(fileOf(DOCUMENT_MAX_BYTES + 1), 'document')).toBe('The file is larger than 5 MB.');
    expect(checkFile(fileOf(LOGO_MAX_BYTES + 1), 'logo')).toBe('The file is larger than 2 MB.');
    expect(checkFile(fileOf(LOGO_MAX_BYTES + 1), 'document')).toBeNull();
  });

  it('writes sizes the way people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(200 * 1024)).toBe('200 KB');
    expect(formatBytes(3.25 * 1024 * 1024)).toBe('3.3 MB');
  });
});
