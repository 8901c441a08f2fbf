import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { type AppOptions, buildApp } from './app';
import { type Config, loadConfig } from './config';
import { type Database, openDatabase } from './db/client';
import type { JobsOptions } from './jobs/plugin';
import { syncRolePermissions } from './modules/permissions/service';
import { DEMO_PASSWORD, seedDemo } from './seed';
import { createPostgresDatabase } from './test-databases';
import type { TestSnapshots } from './test-snapshots';

/**
 * The databases API tests run on: always PGlite; PostgreSQL too when TEST_DATABASE_URL is set
 * (each test app gets a database of its own there, dropped afterwards).
 */
export const testBackends: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  dataDir: string;
  /** The PostgreSQL database of this app (backend 'postgres'), for a second instance on it. */
  databaseUrl?: string;
  /** The Redis key space of this app's rate limits: a second instance passes it to share counts. */
  rateLimitNamespace: string;
  close(): Promise<void>;
}

/** The seeded copies this run made once (server/test-snapshots.ts); none outside the server tests. */
function snapshots(): TestSnapshots | undefined {
  try {
    return inject('testSnapshots');
  } catch {
    return undefined; // not under vitest, or a project without the global setup
  }
}

const dumps = new Map<string, Promise<Blob>>();
/** A dump file read once per test process: the copies are made from it in memory. */
function dumpAt(file: string): Promise<Blob> {
  let dump = dumps.get(file);
  if (!dump) {
    dump = readFile(file).then((bytes) => new Blob([bytes]));
    dumps.set(file, dump);
  }
  return dump;
}

/** A database migrated, with the roles' permissions and (unless `seed` is false) the demo data. */
async function openTestDatabase(backend: 'pglite' | 'postgres', seed: boolean) {
  const copies = snapshots();
  const kind = seed ? 'seeded' : 'empty';
  if (backend === 'postgres') {
    const template = copies?.postgres?.[kind];
    const created = await createPostgresDatabase({ template });
    const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    if (!template) await prepareDatabase(database, seed);
    return { database, pgDatabase: created };
  }
  const dumpFile = copies?.pglite[kind];
  const database = await openDatabase({
    dataDir: 'memory://',
    loadDataDir: dumpFile ? await dumpAt(dumpFile) : undefined,
  });
  if (!dumpFile) await prepareDatabase(database, seed);
  return { database, pgDatabase: undefined };
}

async function prepareDatabase(database: Database, seed: boolean) {
  await database.migrate();
  await syncRolePermissions(database.db);
  if (seed) await seedDemo(database.db);
}

export async function createTestApp(
  options: {
    backend?: 'pglite' | 'postgres';
    seed?: boolean;
    env?: Record<string, string>;
    /** The background job worker: off, or polling and retrying faster than in production. */
    jobs?: JobsOptions;
    /** Tighter sign-in limits, or a shared Redis key space (default: a key space of its own). */
    rateLimits?: AppOptions['rateLimits'];
    /** Video calls' timings and limits. */
    videoCalls?: AppOptions['videoCalls'];
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-spa'),
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const { database, pgDatabase } = await openTestDatabase(
    options.backend ?? 'pglite',
    options.seed !== false,
  );
  // Counts in a shared Redis must not carry over between test apps (or test runs).
  const rateLimitNamespace =
    options.rateLimits?.namespace ??
    `mp-test:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}:`;
  const app = await buildApp({
    config,
    database,
    jobs: options.jobs,
    rateLimits: { ...options.rateLimits, namespace: rateLimitNamespace },
    videoCalls: options.videoCalls,
  });
  await app.ready();
  return {
    app,
    config,
    database,
    dataDir,
    databaseUrl: pgDatabase?.url,
    rateLimitNamespace,
    async close() {
      await app.close();
      await database.close();
      await pgDatabase?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

export function refreshCookieOf(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((cookie) => cookie.name === 'mp_rt')?.value;
}

export async function signInAs(app: FastifyInstance, email: string, password = DEMO_PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in as ${email} failed: ${response.body}`);
  const body = json<{ accessToken: string; user: { id: string } }>(response);
  return {
    token: body.accessToken,
    userId: body.user.id,
    refreshCookie: refreshCookieOf(response) as string,
  };
}

export const demoEmails = {
  Admin: 'admin@demo.local',
  Staff: 'staff@demo.local',
  Seller: 'seller@demo.local',
  Blocked: 'blocked@demo.local',
  /** A seller in Pending KYC whose papers were rejected (not blocked). */
  Kyc: 'kyc@demo.local',
} as const;

export type DemoRole = keyof typeof demoEmails;
type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request as one demo account: `as('Admin', 'GET', url)`. */
export interface ApiAs {
  (
    who: DemoRole,
    method: ApiMethod,
    url: string,
    payload?: InjectOptions['payload'],
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Each account's access token, read on every call: a test that signs one in again stores it here. */
  tokens: Record<DemoRole, string>;
  /** Each account's user id. */
  ids: Record<DemoRole, string>;
}

/** Signs every demo account in once and returns a way to call the API as any of them. */
export async function apiAs(app: FastifyInstance): Promise<ApiAs> {
  const tokens = {} as Record<DemoRole, string>;
  const ids = {} as Record<DemoRole, string>;
  for (const [who, email] of Object.entries(demoEmails) as [DemoRole, string][]) {
    const session = await signInAs(app, email);
    tokens[who] = session.token;
    ids[who] = session.userId;
  }
  const as = (
    who: DemoRole,
    method: ApiMethod,
    url: string,
    payload?: InjectOptions['payload'],
    headers: Record<string, string> = {},
  ) => app.inject({ method, url, payload, headers: { authorization: `Bearer ${tokens[who]}`, ...headers } });
  return Object.assign(as, { tokens, ids });
}

export { DEMO_PASSWORD as DEMO_PASSWORD_FOR_TESTS };
