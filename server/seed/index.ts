import { count, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { users } from '../db/schema';
import { checkFileStorage, closeFileStorage, createFileStorage, type StorageConfig } from '../lib/storage';
import { seedCalls } from './calls';
import { seedCatalogue } from './catalogue';
import { seedChats } from './chats';
import { seedDemoCatalog } from './demo-catalog';
import type { DemoFiles } from './demo-images';
import { seedDemoImports } from './demo-imports';
import { seedDemoMarketing } from './demo-marketing';
import { seedDemoTags } from './demo-tags';
import { seedSellers } from './sellers';
import { seedSubscriptions } from './subscriptions';
import { DEMO_PASSWORD, type DemoAccount, seedUsers } from './users';

export { DEMO_PASSWORD };

/** The demo admin and staff member, as history names them. */
async function demoActors(tx: Tx) {
  const rows = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.email, ['admin@demo.local', 'staff@demo.local']));
  const actor = (email: string) => {
    const row = rows.find((candidate) => candidate.email === email);
    return { id: row?.id ?? null, name: row ? `${row.firstName} ${row.lastName}` : email };
  };
  return { admin: actor('admin@demo.local'), staff: actor('staff@demo.local') };
}

/**
 * Seeds the demo marketplace on an empty database, in one transaction: a crash half-way leaves the
 * database empty, and the next start seeds again. Returns the demo sign-ins, or null when not seeded.
 * The catalogue's product photos and the demo imports are files: they are made only when `files` says
 * where files go (the file storage, and DATA_DIR for scratch space).
 */
export async function seedDemo(db: Db, options: { files?: DemoFiles } = {}): Promise<DemoAccount[] | null> {
  const [existing] = await db.select({ value: count() }).from(users);
  if ((existing?.value ?? 0) > 0) return null;
  const { accounts, ids } = await db.transaction(async (tx) => {
    const ids = await seedSellers(tx);
    await seedCatalogue(tx, ids);
    const accounts = await seedUsers(tx, ids);
    // After the users: decided renewal requests name the admin who decided them.
    await seedSubscriptions(tx, ids);
    // After the subscriptions: the demo seller's products get categories, values and photos.
    await seedDemoCatalog(tx, ids, options);
    // After the users: calls are between the demo accounts.
    await seedCalls(tx);
    // After the users: the seller and staff answer some chats, and have read some.
    await seedChats(tx, ids);
    // After the catalogue: the tag tree's versions are published by the demo admin, and tag products.
    await seedDemoTags(tx, await demoActors(tx));
    // After the chats and queries: their customers become linked contacts.
    await seedDemoMarketing(tx, await demoActors(tx));
    return { accounts, ids };
  });
  // Imports are files and run through the import jobs, which open their own transactions: after the
  // demo is committed, and only where files go.
  if (options.files)
    await seedDemoImports(db, { storage: options.files.storage, demoSellerId: ids.demoSellerId });
  return accounts;
}

/**
 * seedDemo with its files in the file storage the configuration names (the server's own: DATA_DIR, or
 * the S3 bucket), checked first and closed after.
 */
export async function seedDemoWithFiles(db: Db, config: StorageConfig): Promise<DemoAccount[] | null> {
  const storage = await createFileStorage(config);
  try {
    await checkFileStorage(storage, config);
    return await seedDemo(db, { files: { storage, dataDir: config.dataDir } });
  } finally {
    closeFileStorage(storage);
  }
}
