// Many marketing contacts at once, for the benchmark and load tests (`npm run seed -- --contacts 100000`):
// the demo's contact generator (countries with their languages, company types, sources, tags, a year of
// growth), one INSERT and so one transaction per batch, e-mails unique by a number that continues after
// the contacts already there. Then VACUUM ANALYZE, so the planner knows the table it will filter.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { companyTypes } from '../db/schema';
import { DEMO_COMPANY_TYPES, generateContact, insertContacts } from './contact-generator';
import { rngOf } from './product-generator';

/** Rows per INSERT (one JSON parameter each). */
const ROWS_PER_INSERT = 5000;

export async function seedBulkContacts(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<{ ms: number; firstNumber: number }> {
  const started = performance.now();
  let types = await db.select({ id: companyTypes.id }).from(companyTypes);
  if (types.length === 0) {
    types = await db
      .insert(companyTypes)
      .values(DEMO_COMPANY_TYPES.map((name, position) => ({ name, position })))
      .returning({ id: companyTypes.id });
  }
  const typeIds = types.map((type) => type.id);
  const [{ existing = 0 } = {}] = rowsOf<{ existing: number }>(
    await db.execute(sql`SELECT count(*)::int AS existing FROM contacts`),
  );
  const firstNumber = existing + 1_000_001;
  const rng = rngOf(total, existing);
  const now = Date.now();
  const batchSize = Math.max(ROWS_PER_INSERT, options.batchSize ?? 10_000);
  for (let done = 0; done < total; ) {
    const size = Math.min(batchSize, total - done);
    await db.transaction(async (tx) => {
      for (let at = 0; at < size; at += ROWS_PER_INSERT) {
        const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, size - at) }, (_, index) =>
          generateContact(rng, firstNumber + done + at + index, typeIds, {
            now,
            days: 730,
            domain: 'bulk.example.com',
          }),
        );
        await insertContacts(tx, rows);
      }
    });
    done += size;
    options.onBatch?.(done);
  }
  await db.execute(sql`VACUUM ANALYZE contacts`);
  return { ms: performance.now() - started, firstNumber };
}
