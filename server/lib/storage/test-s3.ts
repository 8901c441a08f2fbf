// An S3-compatible server for tests: s3rver on 127.0.0.1 over a temporary directory, with one bucket.
// `stop()` takes it down (every open connection cut, as when the store goes away) and `start()` brings
// it back on the same port with the same objects, so a test can watch an outage and the recovery
// without restarting the app. Shared by the storage tests, the media/import tests and tests/cluster.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* variables that point the server at this store (merge into the env given to loadConfig). */
  env: Record<string, string>;
  /** Takes the server down, cutting open connections (the objects stay on disk). */
  stop(): Promise<void>;
  /** Brings it back on the same port with the same objects. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** s3rver's fixed credentials: it checks signatures against these. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

/**
 * Starts s3rver with `bucket` on 127.0.0.1:`port` (0, the default, picks a free port; the port then
 * stays the same across stop/start).
 */
export async function startTestS3(options: { port?: number; bucket?: string } = {}): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'mp-s3rver-'));
  const bucket = options.bucket ?? 'mp-test';
  let port = options.port ?? 0;
  let server: S3rver | null = null;

  const start = async () => {
    if (server) return;
    const next = new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: [{ name: bucket }],
    });
    ({ port } = await next.run());
    server = next;
  };
  const stop = async () => {
    const running = server;
    if (!running) return;
    server = null;
    const closed = running.close();
    // Keep-alive sockets would hold close() open and keep answering: an outage cuts them.
    running.httpServer?.closeAllConnections();
    await closed;
  };

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    bucket,
    region: 'us-east-1',
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop,
    start,
    close: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
