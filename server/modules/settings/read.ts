// Reading the settings store: one scope's rows, and the effective settings built from them. Code with
// `app` reads through `app.settings` (cached per instance); jobs and the seed may call these directly.
import { and, eq, isNull } from 'drizzle-orm';
import type { AllSettings, StoredSection } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { sellers, settingSections } from '../../db/schema';
import { marketplaceSettings, type ScopeValues, sellerSettings } from './resolve';

export interface StoredSectionRow {
  section: StoredSection;
  values: Record<string, unknown>;
  version: number;
  updatedAt: Date;
  updatedBy: string | null;
  updatedByName: string | null;
}

export function scopeCondition(sellerId: string | null) {
  return sellerId === null ? isNull(settingSections.sellerId) : eq(settingSections.sellerId, sellerId);
}

/** Every stored section of one scope (the marketplace's for null). */
export async function readScopeRows(db: Db | Tx, sellerId: string | null): Promise<StoredSectionRow[]> {
  const rows = await db
    .select({
      section: settingSections.section,
      values: settingSections.values,
      version: settingSections.version,
      updatedAt: settingSections.updatedAt,
      updatedBy: settingSections.updatedBy,
      updatedByName: settingSections.updatedByName,
    })
    .from(settingSections)
    .where(scopeCondition(sellerId));
  return rows as StoredSectionRow[];
}

/** One stored section of one scope, locked for the save that reads it. */
export async function lockSectionRow(
  tx: Tx,
  sellerId: string | null,
  section: StoredSection,
): Promise<StoredSectionRow | undefined> {
  const [row] = await tx
    .select({
      section: settingSections.section,
      values: settingSections.values,
      version: settingSections.version,
      updatedAt: settingSections.updatedAt,
      updatedBy: settingSections.updatedBy,
      updatedByName: settingSections.updatedByName,
    })
    .from(settingSections)
    .where(and(scopeCondition(sellerId), eq(settingSections.section, section)))
    .for('update');
  return row as StoredSectionRow | undefined;
}

export function valuesOf(rows: readonly StoredSectionRow[]): ScopeValues {
  return Object.fromEntries(rows.map((row) => [row.section, row.values])) as ScopeValues;
}

/** The effective settings of the marketplace (null) or of a seller, read from the database now. */
export async function readEffectiveSettings(db: Db | Tx, sellerId: string | null): Promise<AllSettings> {
  const marketplace = marketplaceSettings(valuesOf(await readScopeRows(db, null)));
  if (sellerId === null) return marketplace;
  return sellerSettings(marketplace, valuesOf(await readScopeRows(db, sellerId)));
}

/** Whether a seller exists (a scope for an unknown seller is a 404, not an empty page). */
export async function sellerExists(db: Db, sellerId: string): Promise<boolean> {
  const [found] = await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, sellerId));
  return found !== undefined;
}
