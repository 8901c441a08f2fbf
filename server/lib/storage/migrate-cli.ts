// npm run storage:migrate: copies DATA_DIR/uploads and DATA_DIR/files into the S3 bucket the S3_*
// variables name (see migrate.ts). Run it with the same environment as the server; run it again after
// an interruption or a failure — what is already there is skipped.
import { loadConfig } from '../../config';
import { DiskStorage } from './disk-storage';
import { checkFileStorage, createFileStorage } from './index';
import { migrateFiles } from './migrate';

async function main() {
  const config = loadConfig();
  if (!config.S3_BUCKET) {
    throw new Error('Set S3_BUCKET and the other S3_* variables to the bucket to copy the files into.');
  }
  const target = await createFileStorage(config);
  await checkFileStorage(target, config);
  const source = new DiskStorage(config.dataDir);
  console.info(
    `Copying ${config.dataDir}/uploads and ${config.dataDir}/files into the bucket "${config.S3_BUCKET}"…`,
  );
  const counts = await migrateFiles(source, target, {
    onFailure: (key, error) => console.error(`  failed: ${key} (${(error as Error).message ?? error})`),
  });
  console.info(
    `copied ${counts.copied} · already there ${counts.alreadyThere} · failed ${counts.failed}${counts.failed ? ' (run it again to retry them)' : ''}`,
  );
  process.exitCode = counts.failed > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exitCode = 1;
});
