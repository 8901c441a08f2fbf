// Sealing the settings store's secrets with the key every instance shares (secret-box.ts says how).
import { and, eq, sql } from 'drizzle-orm';
import { storedSections } from '../../../contracts/settings';
import type { Db } from '../../db/client';
import { settingSections } from '../../db/schema';
import { jwtSigningKey } from '../auth/tokens';
import { scopeCondition } from './read';
import { type SecretBox, sealSecrets, secretBox, secretFields, settingsSecretsKey } from './secret-box';

export async function createSettingsSecretBox(db: Db, jwtSecret?: string): Promise<SecretBox> {
  return secretBox(settingsSecretsKey(await jwtSigningKey(db, jwtSecret)));
}

/**
 * At start: seals the secrets stored before sealing existed. The version stays (what the section means
 * did not change, so an open editor's save is not refused), and a row someone saved in between is left
 * for that save, which seals it. Every instance may run it at once: the rewrite is compare-and-set.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<number> {
  const sections = storedSections.filter((section) => secretFields(section).length > 0);
  let sealed = 0;
  for (const section of sections) {
    const rows = await db
      .select({
        sellerId: settingSections.sellerId,
        values: settingSections.values,
        version: settingSections.version,
      })
      .from(settingSections)
      .where(eq(settingSections.section, section));
    for (const row of rows) {
      const values = row.values as Record<string, unknown>;
      const next = sealSecrets(box, section, values);
      if (JSON.stringify(next) === JSON.stringify(values)) continue;
      await db
        .update(settingSections)
        .set({ values: sql`${JSON.stringify(next)}::jsonb` })
        .where(
          and(
            scopeCondition(row.sellerId),
            eq(settingSections.section, section),
            eq(settingSections.version, row.version),
          ),
        );
      sealed++;
    }
  }
  return sealed;
}
