// A zip read through its central directory (the list at the end of the file), so each part is found
// by name and streamed from its own offset, in whatever order the reader needs it.
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import unzipper, { type CentralDirectoryEntry } from 'unzipper';

export interface OpenedZip {
  entries: Map<string, CentralDirectoryEntry>;
  /** The zip file's size. */
  totalBytes: number;
  /** Ends every stream still reading the file. */
  close(): void;
}

/** The zip's entries by path; throws when the file is not a readable zip. */
export async function openZip(filePath: string): Promise<OpenedZip> {
  const { size } = await stat(filePath);
  const open = new Set<ReadStream>();
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
    close,
  };
}
