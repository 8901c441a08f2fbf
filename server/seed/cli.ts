// `npm run seed -- --sellers 100000` (and/or `--chats 50000`, `--calls 100000`, `--products 200000`,
// `--tags 50000`, `--contacts 100000`, `--queries 100000`, `--offers 50000`, `--orders 200000`, `--invoices 200000`): adds generated sellers
// (help chats, call logs, staging products, a tag tree published as a new version, marketing contacts,
// customer queries, offers with their versions) to the configured database (DATA_DIR or DATABASE_URL,
// read exactly as the server reads them). First it prepares the database as a server start would
// (migrations, permissions, the demo marketplace when SEED_DEMO allows), so the demo sign-ins work on
// the result. PGlite allows one process per data dir: stop the server first.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { endIdleSheetWorkers } from '../lib/sheets';
import { syncRolePermissions } from '../modules/permissions/service';
import { readCountHash } from '../modules/sellers/listing';
import { seedBulkCalls } from './bulk-calls';
import { seedBulkChats } from './bulk-chats';
import { seedBulkContacts } from './bulk-contacts';
import { seedBulkInvoices } from './bulk-invoices';
import { seedBulkOffers } from './bulk-offers';
import { seedBulkOrders } from './bulk-orders';
import { seedBulkProducts } from './bulk-products';
import { seedBulkQueries } from './bulk-queries';
import { seedBulkSellers } from './bulk-sellers';
import { seedBulkTags } from './bulk-tags';
import { seedDemoWithFiles } from './index';

const usage =
  'usage: npm run seed -- [--sellers <count>] [--chats <count>] [--calls <count>] [--products <count>] [--tags <count>] [--contacts <count>] [--queries <count>] [--offers <count>] [--orders <count>] [--invoices <count>] [--batch <rows per transaction>]';

function positive(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 10_000_000) {
    throw new Error(`--${name} must be a whole number from 1 to 10000000\n${usage}`);
  }
  return number;
}

async function main() {
  const { values } = parseArgs({
    options: {
      sellers: { type: 'string' },
      chats: { type: 'string' },
      calls: { type: 'string' },
      products: { type: 'string' },
      tags: { type: 'string' },
      contacts: { type: 'string' },
      queries: { type: 'string' },
      offers: { type: 'string' },
      orders: { type: 'string' },
      invoices: { type: 'string' },
      batch: { type: 'string' },
    },
    strict: true,
  });
  if (
    values.sellers === undefined &&
    values.chats === undefined &&
    values.calls === undefined &&
    values.products === undefined &&
    values.tags === undefined &&
    values.contacts === undefined &&
    values.queries === undefined &&
    values.offers === undefined &&
    values.orders === undefined &&
    values.invoices === undefined
  ) {
    throw new Error(usage);
  }
  const total = values.sellers === undefined ? 0 : positive(values.sellers, 'sellers');
  const chats = values.chats === undefined ? 0 : positive(values.chats, 'chats');
  const calls = values.calls === undefined ? 0 : positive(values.calls, 'calls');
  const productCount = values.products === undefined ? 0 : positive(values.products, 'products');
  const tagCount = values.tags === undefined ? 0 : positive(values.tags, 'tags');
  const contactCount = values.contacts === undefined ? 0 : positive(values.contacts, 'contacts');
  const queryCount = values.queries === undefined ? 0 : positive(values.queries, 'queries');
  const offerCount = values.offers === undefined ? 0 : positive(values.offers, 'offers');
  const orderCount = values.orders === undefined ? 0 : positive(values.orders, 'orders');
  const invoiceCount = values.invoices === undefined ? 0 : positive(values.invoices, 'invoices');
  const batchSize = positive(values.batch, 'batch', 10_000);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  const where = database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  try {
    await database.migrate();
    await syncRolePermissions(database.db);
    if (config.SEED_DEMO) await seedDemoWithFiles(database.db, config);
    if (total > 0) {
      console.info(`Seeding ${total} sellers into ${where}…`);
      const result = await seedBulkSellers(database.db, total, {
        batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${total}`),
      });
      const tabs = await readCountHash(database.db);
      console.info(
        `\n  done in ${(result.ms / 1000).toFixed(1)} s (SEL-${1_000_000 + result.firstNumber} onwards).` +
          ` Tabs now: Active ${tabs.isActive}, Pending Verification ${tabs.isEmailVerified},` +
          ` Pending KYC ${tabs.isKycDone}, Inactive ${tabs.isInActive}.`,
      );
    }
    if (chats > 0) {
      console.info(`Seeding ${chats} help chats of seller@demo.local into ${where}…`);
      const result = await seedBulkChats(database.db, chats, {
        batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${chats}`),
      });
      console.info(`\n  done in ${(result.ms / 1000).toFixed(1)} s.`);
    }
    if (calls > 0) {
      console.info(`Seeding ${calls} call logs of the demo accounts into ${where}…`);
      const result = await seedBulkCalls(database.db, calls, {
        // 50k calls per statement unless --batch says otherwise.
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${calls}`),
      });
      console.info(`\n  done in ${(result.ms / 1000).toFixed(1)} s.`);
    }
    if (productCount > 0) {
      console.info(`Seeding ${productCount} staging products into ${where}…`);
      const result = await seedBulkProducts(database.db, productCount, {
        // 5k products (about 7 MB of JSON) per statement unless --batch says otherwise.
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${productCount}`),
      });
      console.info(
        `\n  done in ${(result.ms / 1000).toFixed(1)} s over ${result.sellers} sellers` +
          ` (SKUs from №${result.firstNumber}), then VACUUM ANALYZE.`,
      );
    }
    if (tagCount > 0) {
      console.info(`Seeding a tree of ${tagCount} tags into ${where}…`);
      const result = await seedBulkTags(database.db, tagCount, {
        // 5k tags per statement unless --batch says otherwise.
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${tagCount}`),
      });
      console.info(
        `\n  done in ${(result.ms / 1000).toFixed(1)} s: ${result.roots} top-level tags, ${result.maxLevel} levels` +
          ` deep (seqs from ${result.firstSeq}); published as version ${result.version}` +
          ` in ${(result.publishMs / 1000).toFixed(1)} s.`,
      );
    }
    if (contactCount > 0) {
      console.info(`Seeding ${contactCount} marketing contacts into ${where}…`);
      const result = await seedBulkContacts(database.db, contactCount, {
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${contactCount}`),
      });
      console.info(
        `\n  done in ${(result.ms / 1000).toFixed(1)} s (addresses from №${result.firstNumber}), then VACUUM ANALYZE.`,
      );
    }
    if (queryCount > 0) {
      console.info(`Seeding ${queryCount} customer queries into ${where}…`);
      const result = await seedBulkQueries(database.db, queryCount, {
        batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${queryCount}`),
      });
      console.info(`\n  done in ${(result.ms / 1000).toFixed(1)} s.`);
    }
    if (offerCount > 0) {
      console.info(`Seeding ${offerCount} offers, with their versions and answers, into ${where}…`);
      const result = await seedBulkOffers(database.db, offerCount, {
        // 5k offers (up to 15k versions) per statement unless --batch says otherwise.
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${offerCount}`),
      });
      console.info(`\n  done in ${(result.ms / 1000).toFixed(1)} s.`);
    }
    if (orderCount > 0) {
      console.info(`Seeding ${orderCount} orders, with their payments, into ${where}…`);
      const result = await seedBulkOrders(database.db, orderCount, {
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${orderCount}`),
      });
      console.info(`\n  done in ${(result.ms / 1000).toFixed(1)} s.`);
    }
    if (invoiceCount > 0) {
      console.info(`Seeding ${invoiceCount} issued invoices into ${where}…`);
      const result = await seedBulkInvoices(database.db, invoiceCount, {
        batchSize: values.batch === undefined ? undefined : batchSize,
        onBatch: (done) => process.stdout.write(`\r  ${done} / ${invoiceCount}`),
      });
      console.info(`\n  done in ${(result.ms / 1000).toFixed(1)} s.`);
    }
  } finally {
    await endIdleSheetWorkers();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
