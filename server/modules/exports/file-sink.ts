// A file written chunk by chunk with backpressure, under a temporary name that becomes the real name
// only once everything is written and flushed: a crash or an abort never leaves a half file that
// looks finished.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

export class FileSink {
  readonly tempPath: string;
  private readonly stream: WriteStream;
  private failure: Error | null = null;

  constructor(readonly finalPath: string) {
    this.tempPath = `${finalPath}.${randomUUID().slice(0, 8)}.part`;
    this.stream = createWriteStream(this.tempPath);
    this.stream.on('error', (error) => {
      this.failure = error;
    });
  }

  /** Writes a chunk; waits when the disk is behind, so memory stays flat whatever the file's size. */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
    if (this.failure) throw this.failure;
  }

  /** Flushes, closes and renames to the final name. */
  async commit(): Promise<void> {
    if (this.failure) throw this.failure;
    this.stream.end();
    await once(this.stream, 'close');
    if (this.failure) throw this.failure;
    await rename(this.tempPath, this.finalPath);
  }

  /** Drops the temporary file. */
  async discard(): Promise<void> {
    this.stream.destroy();
    await rm(this.tempPath, { force: true });
  }
}
