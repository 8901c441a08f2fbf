// A zip read through its central directory (the list at the end of the file), so each part is found
// by name and streamed from its own offset, in whatever order the reader needs it.
import { createReadStream, type ReadStream } from 'node:fs';
import { open as openFile, stat } from 'node:fs/promises';
import { pipeline, Transform } from 'node:stream';
import unzipper, { type CentralDirectoryEntry } from 'unzipper';

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
  /** Bytes read from the file so far, by every stream (for the compression ratio, budget.ts). */
  compressedRead(): number;
  /** Ends every stream still reading the file. */
  close(): void;
}

/** The zip's entries by path; throws when the file is not a readable zip. */
export async function openZip(filePath: string): Promise<OpenedZip> {
  const { size } = await stat(filePath);
  await checkDirectorySize(filePath, size);
  const open = new Set<ReadStream>();
  let read = 0;
  const close = () => {
    for (const stream of open) stream.destroy();
  };
  const reading = unzipper.Open.custom({
    size: async () => size,
    stream(offset, length) {
      const end = length ? offset + length - 1 : undefined;
      const stream = createReadStream(filePath, { start: offset, end });
      open.add(stream);
      stream.once('close', () => open.delete(stream));
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          read += chunk.length;
          done(null, chunk);
        },
      });
      pipeline(stream, counted, () => {});
      return counted;
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
    compressedRead: () => read,
    close,
  };
}
