import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { settings } from '../db/schema';

export async function getSetting<T>(db: Db, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

export async function setSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}

/**
 * Reads a setting, or stores `create()` when it is absent. Concurrent first starts of several instances
 * agree on one value: the insert does nothing on conflict and everyone reads back the winner.
 */
export async function getOrCreateSetting<T>(db: Db, key: string, create: () => T): Promise<T> {
  await db.insert(settings).values({ key, value: create() }).onConflictDoNothing();
  return (await getSetting<T>(db, key)) as T;
}
