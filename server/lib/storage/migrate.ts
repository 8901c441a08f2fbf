// Copies the local files (DATA_DIR/uploads and DATA_DIR/files) into another storage, normally the S3
// bucket, keeping their keys: the database already names them by these relative paths, so nothing else
// changes. Idempotent and resumable: an object already there with the same size is skipped, so a run
// cut short is simply run again. The mail outbox (DATA_DIR/outbox) and scratch space stay local.
import type { Readable } from 'node:stream';
import type { FileStorage } from './types';

export const MIGRATED_PREFIXES = ['uploads/', 'files/'] as const;

export interface MigrationCounts {
  copied: number;
  alreadyThere: number;
  failed: number;
}

export interface MigrationOptions {
  prefixes?: readonly string[];
  /** Objects copied at once. */
  concurrency?: number;
  /** Told about each failure (the run goes on with the next key). */
  onFailure?: (key: string, error: unknown) => void;
}

export async function migrateFiles(
  source: FileStorage,
  target: FileStorage,
  options: MigrationOptions = {},
): Promise<MigrationCounts> {
  const counts: MigrationCounts = { copied: 0, alreadyThere: 0, failed: 0 };
  const running = new Set<Promise<void>>();
  const copy = async (key: string) => {
    try {
      const [here, there] = await Promise.all([source.stat(key), target.stat(key)]);
      if (!here) return; // removed since it was listed
      if (there && there.size === here.size) {
        counts.alreadyThere++;
        return;
      }
      const object = await source.get(key);
      if (!object) return;
      await target.put(
        key,
        object.body as Readable,
        object.contentType ? { contentType: object.contentType } : {},
      );
      counts.copied++;
    } catch (error) {
      counts.failed++;
      options.onFailure?.(key, error);
    }
  };
  for (const prefix of options.prefixes ?? MIGRATED_PREFIXES) {
    for await (const key of source.list(prefix)) {
      const task = copy(key).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= (options.concurrency ?? 4)) await Promise.race(running);
    }
  }
  await Promise.all(running);
  return counts;
}
