// How stored values become effective settings and the field states a page shows. Pure: the store reads
// rows, this merges them — a seller's override, else the marketplace's value, else the default.
// Secrets stay sealed here, in the cache and in every copy of the settings: only the code that uses one
// opens it (`app.settings.secrets`, secret-box.ts).
import {
  type AllSettings,
  type FieldDefinition,
  type FieldState,
  SECRET_SET,
  type StoredSection,
  sectionFields,
  settingsDefaults,
  storedSections,
} from '../../../contracts/settings';
import { isSealed } from './secret-box';

/** The fields one scope has set, per section. */
export type ScopeValues = Partial<Record<StoredSection, Record<string, unknown>>>;

function definitions(section: StoredSection): [string, FieldDefinition][] {
  return Object.entries(sectionFields[section] as Record<string, FieldDefinition>);
}

/**
 * Keeps only the stored fields that still exist and still pass their schema: a value stored before a
 * schema changed falls back to what it inherits instead of breaking every reader.
 */
function usable(section: StoredSection, stored: Record<string, unknown> | undefined, sellerOnly: boolean) {
  const kept: Record<string, unknown> = {};
  if (!stored) return kept;
  for (const [field, definition] of definitions(section)) {
    if (!Object.hasOwn(stored, field) || (sellerOnly && !definition.seller)) continue;
    // A sealed secret is kept sealed (secret-box.ts): its schema checked the secret before sealing.
    if (definition.secret && isSealed(stored[field])) {
      kept[field] = stored[field];
      continue;
    }
    const parsed = definition.schema.safeParse(stored[field]);
    if (parsed.success) kept[field] = parsed.data;
  }
  return kept;
}

/** The marketplace's settings: its stored fields over the defaults (which follow its country). */
export function marketplaceSettings(marketplace: ScopeValues): AllSettings {
  const localization = usable('localization', marketplace.localization, false);
  const defaults = settingsDefaults((localization.defaultCountry as string | undefined) ?? 'IN');
  const result = {} as Record<StoredSection, Record<string, unknown>>;
  for (const section of storedSections) {
    result[section] = { ...defaults[section], ...usable(section, marketplace[section], false) };
  }
  return result as AllSettings;
}

/** A seller's settings: their overrides (of the fields sellers may override) over the marketplace's. */
export function sellerSettings(marketplace: AllSettings, seller: ScopeValues): AllSettings {
  const result = {} as Record<StoredSection, Record<string, unknown>>;
  for (const section of storedSections) {
    result[section] = { ...marketplace[section], ...usable(section, seller[section], true) };
  }
  return result as AllSettings;
}

/** What a secret looks like when answered: set or not, never its value. */
export function maskSecret(value: unknown): string {
  return typeof value === 'string' && value !== '' ? SECRET_SET : '';
}

/** The field states of one section as the marketplace's page shows them. */
export function marketplaceFieldStates(
  section: StoredSection,
  stored: Record<string, unknown> | undefined,
  effective: AllSettings,
  canEdit: boolean,
): Record<string, FieldState> {
  const states: Record<string, FieldState> = {};
  const values = effective[section] as Record<string, unknown>;
  for (const [field, definition] of definitions(section)) {
    const value = values[field];
    states[field] = {
      value: definition.secret ? maskSecret(value) : value,
      source: stored && Object.hasOwn(stored, field) ? 'marketplace' : 'default',
      editable: canEdit,
      ...(definition.secret ? { secret: true } : {}),
    };
  }
  return states;
}

/** The field states a seller sees: only the fields sellers may override, each inherited or overridden. */
export function sellerFieldStates(
  section: StoredSection,
  stored: Record<string, unknown> | undefined,
  marketplace: AllSettings,
  effective: AllSettings,
  canEdit: boolean,
): Record<string, FieldState> {
  const states: Record<string, FieldState> = {};
  const own = effective[section] as Record<string, unknown>;
  const inherited = marketplace[section] as Record<string, unknown>;
  for (const [field, definition] of definitions(section)) {
    if (!definition.seller) continue;
    const overridden = stored !== undefined && Object.hasOwn(stored, field);
    states[field] = {
      value: definition.secret ? maskSecret(own[field]) : own[field],
      source: overridden ? 'overridden' : 'marketplace',
      inherited: definition.secret ? maskSecret(inherited[field]) : inherited[field],
      editable: canEdit,
      ...(definition.secret ? { secret: true } : {}),
    };
  }
  return states;
}
