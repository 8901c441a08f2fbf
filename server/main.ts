import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp, loggerOptions } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { syncRolePermissions } from './modules/permissions/service';
import { DEMO_PASSWORD, seedDemoWithFiles } from './seed';

/** Start order: config → database → migrations → permissions sync → demo seed → HTTP. */
async function main() {
  const started = Date.now();
  const config = loadConfig();
  const options = {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  };
  const newPglite = !config.DATABASE_URL && !existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'));
  let database = await openDatabase(options);
  await database.migrate();
  await syncRolePermissions(database.db);
  const demoAccounts = config.SEED_DEMO ? await seedDemoWithFiles(database.db, config) : null;
  if (newPglite) {
    // PGlite's WebAssembly memory grows and never shrinks: a new database's migrations and demo seed
    // leave it ~50 MB above what serving needs. Opened again, it starts from what the data needs.
    await database.close();
    database = await openDatabase(options);
  }

  const app = await buildApp({ config, database, logger: loggerOptions(config) });

  // Close the HTTP server first (no new writes), then the database, so PGlite flushes its files:
  // killing the server with SIGINT/SIGTERM never loses committed data.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST}:${port}`;
  const lines = [
    '',
    `  Marketplace Back-office is running at ${url}`,
    `  database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'} · started in ${Date.now() - started} ms`,
    `  API docs: ${url}/api/docs`,
  ];
  if (config.SEED_DEMO) {
    lines.push(`  Demo sign-ins (password ${DEMO_PASSWORD}):`);
    for (const account of demoAccounts ?? defaultDemoList)
      lines.push(`    ${account.email.padEnd(20)} ${account.description}`);
  }
  console.info(lines.join('\n'));
}

const defaultDemoList = [
  { email: 'admin@demo.local', description: 'Admin' },
  { email: 'staff@demo.local', description: 'Staff' },
  { email: 'seller@demo.local', description: 'an active seller' },
  { email: 'blocked@demo.local', description: 'a seller whose subscription is blocked' },
  { email: 'kyc@demo.local', description: 'a seller whose KYC was rejected' },
];

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
