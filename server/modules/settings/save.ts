// Saving one section of one scope: checked field by field (schema, who may change it), then as a whole
// (contracts/settings-rules.ts), refused when someone saved in between (409 naming who), stored with
// its version bumped and audited field by field (before → after of the effective values, secrets as
// "changed") in one transaction. Secrets are stored sealed (secret-box.ts); a secret stored before
// sealing is sealed by this save of its section if the start-up pass did not get to it.
import { sql } from 'drizzle-orm';
import { formatDateTime } from '../../../contracts/domain/format';
import {
  fieldDefinition,
  type SaveSectionBody,
  SECRET_SET,
  type StoredSection,
} from '../../../contracts/settings';
import { sectionTitles as SECTION_TITLES } from '../../../contracts/settings-labels';
import { sectionProblems } from '../../../contracts/settings-rules';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { type FieldChange, settingSections } from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { sanitizeContentValues } from '../settings-content/texts';
import { lockSectionRow, readEffectiveSettings, readScopeRows, valuesOf } from './read';
import { marketplaceSettings, sellerSettings } from './resolve';
import { isSealed, type SecretBox, SecretUnreadableError, sealSecrets, secretFields } from './secret-box';

export interface SaveRequest {
  sellerId: string | null;
  section: StoredSection;
  body: { version: number; set: Record<string, unknown>; reset: string[] };
  actor: Actor;
  requestId: string | null;
  /** Seals the section's secrets for the store (`app.settings.secrets`). */
  secrets: SecretBox;
}

/** The message of a stale save: who saved the section in between, and when. */
export function staleMessage(section: StoredSection, name: string | null, at: Date): string {
  return `${name || 'Someone'} saved ${SECTION_TITLES[section]} at ${formatDateTime(at)} while you were editing. Reload to see their changes, then save yours again.`;
}

/** Checks each field the body names; answers the parsed values to set. */
function checkFields(request: SaveRequest): Record<string, unknown> {
  const { section, sellerId, body } = request;
  const parsed: Record<string, unknown> = {};
  const fieldErrors: Record<string, string> = {};
  const names = [...Object.keys(body.set), ...body.reset];
  for (const field of names) {
    const definition = fieldDefinition(section, field);
    if (!definition) throw new HttpError(400, `${SECTION_TITLES[section]} has no field "${field}".`);
    if (sellerId !== null && !definition.seller) {
      throw new HttpError(403, `Only the marketplace's administrators can change "${field}".`);
    }
  }
  for (const [field, value] of Object.entries(body.set)) {
    const definition = fieldDefinition(section, field);
    if (!definition) continue;
    // A secret answered as set comes back unchanged when its form is saved: keep the stored one.
    if (definition.secret && value === SECRET_SET) continue;
    const result = definition.schema.safeParse(value);
    if (result.success) parsed[field] = result.data;
    else fieldErrors[field] = result.error.issues[0]?.message ?? 'Invalid value.';
  }
  const first = Object.entries(fieldErrors)[0];
  if (first) throw new HttpError(400, `${first[0]}: ${first[1]}`, 'INVALID_SETTINGS', fieldErrors);
  return parsed;
}

export type SaveResult = { changes: FieldChange[] };

export async function saveSection(db: Db, request: SaveRequest): Promise<SaveResult> {
  const { section, sellerId, body } = request;
  // Content's texts are HTML from the rich-text editor: stored only as sanitised (no script, no handlers).
  const parsed = section === 'content' ? sanitizeContentValues(checkFields(request)) : checkFields(request);
  return db.transaction(async (tx) => {
    const row = await lockSectionRow(tx, sellerId, section);
    const version = row?.version ?? 0;
    if (body.version !== version) {
      throw new HttpError(
        409,
        staleMessage(section, row?.updatedByName ?? null, row?.updatedAt ?? new Date()),
        'STALE',
      );
    }
    const previous = row?.values ?? {};
    const stored: Record<string, unknown> = {
      ...previous,
      ...sealNewSecrets(request.secrets, section, parsed, previous),
    };
    for (const field of body.reset) delete stored[field];

    const marketplaceRows = valuesOf(await readScopeRows(tx, null));
    let before: Record<string, unknown>;
    let after: Record<string, unknown>;
    if (sellerId === null) {
      before = marketplaceSettings(marketplaceRows)[section];
      after = marketplaceSettings({ ...marketplaceRows, [section]: stored })[section];
    } else {
      const marketplace = marketplaceSettings(marketplaceRows);
      before = (await readEffectiveSettings(tx, sellerId))[section];
      after = sellerSettings(marketplace, { [section]: stored })[section];
    }

    const problems = sectionProblems(section, after as never);
    if (problems.length > 0) {
      const fields = Object.fromEntries(problems.map((problem) => [problem.field, problem.message]));
      throw new HttpError(
        400,
        problems.map((problem) => problem.message).join(' '),
        'INVALID_SETTINGS',
        fields,
      );
    }

    const changes = fieldChanges(section, before, after, request.secrets);
    // A secret stored before sealing and kept by this save is sealed now.
    const toStore = sealSecrets(request.secrets, section, stored);
    const storedChanged = JSON.stringify(toStore) !== JSON.stringify(previous);
    if (changes.length === 0 && !storedChanged) return { changes };

    // The version guard also covers a first save that another first save beat to the insert (no row
    // was there to lock): its update finds the version moved on and stores nothing.
    const written = await tx.execute(sql`
      INSERT INTO ${settingSections} (seller_id, section, values, version, updated_by, updated_by_name, updated_at)
      VALUES (${sellerId}::uuid, ${section}, ${JSON.stringify(toStore)}::jsonb, ${version + 1},
              ${request.actor.id}::uuid, ${request.actor.name}, now())
      ON CONFLICT ON CONSTRAINT setting_sections_scope_uq DO UPDATE
        SET values = excluded.values, version = excluded.version, updated_by = excluded.updated_by,
            updated_by_name = excluded.updated_by_name, updated_at = excluded.updated_at
        WHERE ${settingSections}.version = ${version}
      RETURNING version`);
    if (rowsOf(written).length === 0) {
      const winner = await lockSectionRow(tx, sellerId, section);
      throw new HttpError(
        409,
        staleMessage(section, winner?.updatedByName ?? null, winner?.updatedAt ?? new Date()),
        'STALE',
      );
    }
    if (changes.length > 0) {
      await recordAudit(tx, {
        subject: { type: 'settings', id: sellerId },
        actor: request.actor,
        action: section,
        changes,
        note: request.requestId,
      });
    }
    return { changes };
  });
}

/** A stored secret's value, or null when this server's key does not open it. */
function openedOrNull(box: SecretBox, value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return box.open(value);
  } catch (error) {
    if (error instanceof SecretUnreadableError) return null;
    throw error;
  }
}

/**
 * The parsed values with their secrets sealed; a secret saved again unchanged keeps its sealed form (a
 * fresh IV would otherwise make an unchanged save a new version).
 */
function sealNewSecrets(
  box: SecretBox,
  section: StoredSection,
  parsed: Record<string, unknown>,
  previous: Record<string, unknown>,
): Record<string, unknown> {
  const sealed = { ...parsed };
  for (const field of secretFields(section)) {
    const value = parsed[field];
    if (typeof value !== 'string') continue;
    const old = previous[field];
    sealed[field] = isSealed(old) && openedOrNull(box, old) === value ? old : box.seal(value);
  }
  return sealed;
}

/**
 * Field by field, in the section's order; a secret's change is recorded as "changed", never its value
 * (compared opened: one secret sealed twice differs; one the key no longer opens counts as changed).
 */
function fieldChanges(
  section: StoredSection,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  box: SecretBox,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of Object.keys(after)) {
    const secret = fieldDefinition(section, field)?.secret;
    const from = secret ? openedOrNull(box, before[field]) : (before[field] ?? null);
    const to = secret ? openedOrNull(box, after[field]) : (after[field] ?? null);
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes.push(secret ? { field, before: null, after: 'changed' } : { field, before: from, after: to });
  }
  return changes;
}

export type { SaveSectionBody };
