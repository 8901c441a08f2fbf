// The sniffer's video types (the image and PDF ones are covered by the sellers' upload tests).
import { describe, expect, it } from 'vitest';
import { sniffFileType, typedFileName } from './uploads';

/** The first box of an ISO base media file with the given major brand. */
const ftyp = (brand: string) =>
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(16)]);
/** An EBML header with the given DocType, as Matroska and WebM files begin. */
const ebml = (docType: string) =>
  Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x80 + docType.length]),
    Buffer.from(docType, 'latin1'),
    Buffer.alloc(16),
  ]);

describe('sniffFileType: videos', () => {
  it.each(['isom', 'iso2', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash'])('an MP4 with brand %s', (brand) => {
    expect(sniffFileType(ftyp(brand))).toBe('video/mp4');
  });

  it.each([
    ['heic', 'a HEIC photo'],
    ['avif', 'an AVIF picture'],
    ['qt  ', 'a QuickTime movie'],
    ['M4A ', 'M4A audio'],
  ])('not %s (%s), which share the ftyp box', (brand) => {
    expect(sniffFileType(ftyp(brand))).toBeNull();
  });

  it('a WebM, but not a Matroska file that shares its magic', () => {
    expect(sniffFileType(ebml('webm'))).toBe('video/webm');
    expect(sniffFileType(ebml('matroska'))).toBeNull();
  });

  it('does not take a truncated signature for the real thing', () => {
    expect(sniffFileType(Buffer.from('\0\0\0\x18ftyp', 'latin1'))).toBeNull();
    expect(sniffFileType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))).toBeNull();
    expect(sniffFileType(Buffer.from('ftypisom', 'latin1'))).toBeNull();
  });
});

describe('typedFileName: the kept name carries the extension of the type found in the content', () => {
  it('replaces an extension that is not the type’s (a PNG+HTML polyglot named .html)', () => {
    expect(typedFileName('page.html', 'image/png')).toBe('page.png');
    expect(typedFileName('invoice.pdf.exe', 'application/pdf')).toBe('invoice.pdf.pdf');
    expect(typedFileName('clip.MOV', 'video/mp4')).toBe('clip.mp4');
    expect(typedFileName('no-extension', 'image/webp')).toBe('no-extension.webp');
  });
  it('keeps a name whose extension already says the type, in any case or spelling', () => {
    expect(typedFileName('Photo.JPG', 'image/jpeg')).toBe('Photo.JPG');
    expect(typedFileName('photo.jpeg', 'image/jpeg')).toBe('photo.jpeg');
    expect(typedFileName('scan.pdf', 'application/pdf')).toBe('scan.pdf');
  });
  it('cleans the path and control characters and falls back to file.<extension>', () => {
    expect(typedFileName('../../etc/x.html', 'image/png')).toBe('x.png');
    expect(typedFileName('.html', 'image/png')).toBe('.html.png');
    expect(typedFileName(undefined, 'image/png')).toBe('file.png');
    expect(typedFileName(`${'a'.repeat(300)}.html`, 'image/png')).toHaveLength(200);
  });
});
