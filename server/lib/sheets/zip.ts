// A zip read through its central directory (the list at the end of the file), so each part is found
// by name and streamed from its own offset, in whatever order the reader needs it.
import { createReadStream, type ReadStream } from 'node:fs';
import { open as openFile, stat } from 'node:fs/promises';
import { PassThrough, pipeline, type Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { CentralDirectoryEntry } from 'unzipper';

/**
 * What the central directory may declare before it is read: unzipper holds an object per entry, so a
 * 50 MB zip of a million empty entries would cost hundreds of MB. A workbook has a few dozen parts.
 */
export const ZIP_DIRECTORY_LIMITS = { entries: 10_000, bytes: 4 * 1024 * 1024 };

const END_OF_DIRECTORY = 0x06054b50;
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;

/** Throws when the end-of-central-directory record declares more than ZIP_DIRECTORY_LIMITS. */
async function checkDirectorySize(filePath: string, size: number) {
  const length = Math.min(size, END_RECORD_BYTES + MAX_COMMENT_BYTES);
  const tail = Buffer.alloc(length);
  const handle = await openFile(filePath, 'r');
  try {
    await handle.read(tail, 0, length, size - length);
  } finally {
    await handle.close();
  }
  for (let at = length - END_RECORD_BYTES; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== END_OF_DIRECTORY) continue;
    const entries = tail.readUInt16LE(at + 10);
    const bytes = tail.readUInt32LE(at + 12);
    // 0xFFFF and 0xFFFFFFFF say "see the Zip64 record", which unzipper reads; the worker's memory
    // limit (in-worker.ts) bounds that case.
    if (entries !== 0xffff && entries > ZIP_DIRECTORY_LIMITS.entries)
      throw new Error(`the zip declares ${entries} entries`);
    if (bytes !== 0xffffffff && bytes > ZIP_DIRECTORY_LIMITS.bytes)
      throw new Error(`the zip's directory takes ${bytes} bytes`);
    return;
  }
}

export interface OpenedZip {
  entries: Map<string, CentralDirectoryEntry>;
  /** The zip file's size. */
  totalBytes: number;
  /** Compressed bytes inflated so far, by every entry stream (for the compression ratio, budget.ts). */
  compressedRead(): number;
  /**
   * The entry's content, inflated. Read here rather than by unzipper, which reads the rest of the file
   * ahead into memory: here the compressed bytes are read 16 KB at a time and counted as the inflater
   * consumes them, so the ratio of a bomb shows within its first megabytes.
   */
  inflate(entry: CentralDirectoryEntry): Readable;
  /** Ends every stream still reading the file. */
  close(): void;
}

/** The zip's entries by path; throws when the file is not a readable zip. */
export async function openZip(filePath: string): Promise<OpenedZip> {
  const { size } = await stat(filePath);
  await checkDirectorySize(filePath, size);
  const open = new Set<ReadStream>();
  const inflaters = new Set<zlib.InflateRaw | Transform>();
  let consumedByClosed = 0;
  const consumed = (stream: zlib.InflateRaw | Transform) =>
    'bytesWritten' in stream ? stream.bytesWritten : (stream as Transform & { counted: number }).counted;
  const close = () => {
    for (const stream of open) stream.destroy();
  };
  // Loaded by the first workbook, not at start (about 15 MB resident that an idle instance never needs).
  const { default: unzipper } = await import('unzipper');
  const reading = unzipper.Open.custom({
    size: async () => size,
    stream(offset, length) {
      const end = length ? offset + length - 1 : undefined;
      const stream = createReadStream(filePath, { start: offset, end });
      open.add(stream);
      stream.once('close', () => open.delete(stream));
      return stream;
    },
  });
  let directory: Awaited<typeof reading>;
  try {
    directory = await reading;
  } catch (error) {
    close();
    throw error;
  }
  return {
    entries: new Map(directory.files.map((entry) => [entry.path, entry])),
    totalBytes: size,
    compressedRead() {
      let total = consumedByClosed;
      for (const stream of inflaters) total += consumed(stream);
      return total;
    },
    inflate(entry) {
      const out = new PassThrough();
      void (async () => {
        const header = Buffer.alloc(30);
        const handle = await openFile(filePath, 'r');
        try {
          await handle.read(header, 0, 30, entry.offsetToLocalFileHeader);
        } finally {
          await handle.close();
        }
        if (header.readUInt32LE(0) !== 0x04034b50) throw new Error(`no local header for ${entry.path}`);
        if (entry.flags & 1) throw new Error(`${entry.path} is encrypted`);
        if (entry.compressedSize === 0) {
          out.end();
          return;
        }
        const start = entry.offsetToLocalFileHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
        const file = createReadStream(filePath, {
          start,
          end: start + entry.compressedSize - 1,
          highWaterMark: 16 * 1024,
        });
        open.add(file);
        file.once('close', () => open.delete(file));
        let inflater: zlib.InflateRaw | Transform;
        if (entry.compressionMethod === 8) inflater = zlib.createInflateRaw();
        else if (entry.compressionMethod === 0) {
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              (counter as Transform & { counted: number }).counted += chunk.length;
              done(null, chunk);
            },
          });
          (counter as Transform & { counted: number }).counted = 0;
          inflater = counter;
        } else throw new Error(`${entry.path} uses compression method ${entry.compressionMethod}`);
        inflaters.add(inflater);
        pipeline(file, inflater, out, () => {
          consumedByClosed += consumed(inflater);
          inflaters.delete(inflater);
        });
      })().catch((error) => out.destroy(error));
      return out;
    },
    close,
  };
}
