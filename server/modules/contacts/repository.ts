// Contacts one at a time: read, create, edit, delete, and a staff member's unsubscribe / resubscribe.
// Every write and its timeline entry (the audit trail) are one transaction; an edit names the version
// it read, and a stale one answers 409 saying who changed the contact since.
import { eq, sql } from 'drizzle-orm';
import type { Contact, ContactInput, UpdateContactBody } from '../../../contracts/contacts';
import type { Db, Tx } from '../../db/client';
import { companyTypes, contacts, emailUnsubscribes, type FieldChange } from '../../db/schema';
import { type Actor, deleteAuditTrail, diffFields, latestAuditEntry, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { countries } from '../configs/countries';
import { contactSearchKey } from './audience';
import { unsubscribeAddress } from './subscription';

export type ContactRow = typeof contacts.$inferSelect;
type CheckedInput = Required<Omit<ContactInput, 'companyTypeId' | 'country'>> & {
  companyTypeId: string | null;
  country: string | null;
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toContact(row: ContactRow, companyTypeName: string | null): Contact {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    company: row.company,
    companyTypeId: row.companyTypeId,
    companyTypeName,
    country: row.country,
    language: row.language,
    tags: row.tags,
    source: row.source,
    consent: row.consent,
    consentAt: iso(row.consentAt),
    subscription: row.subscription,
    unsubscribedAt: iso(row.unsubscribedAt),
    unsubscribeMethod: row.unsubscribeMethod,
    bouncedAt: iso(row.bouncedAt),
    bounceReason: row.bounceReason,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastContactedAt: iso(row.lastContactedAt),
  };
}

export const contactNotFound = () => new HttpError(404, 'There is no such contact.', 'CONTACT_NOT_FOUND');

export async function readContact(db: Db | Tx, id: string): Promise<Contact> {
  const [row] = await db
    .select({ contact: contacts, typeName: companyTypes.name })
    .from(contacts)
    .leftJoin(companyTypes, eq(companyTypes.id, contacts.companyTypeId))
    .where(eq(contacts.id, id));
  if (!row) throw contactNotFound();
  return toContact(row.contact, row.typeName);
}

let countryCodes: Set<string> | undefined;
export const isKnownCountry = (code: string) => {
  countryCodes ??= new Set(countries().map((country) => country.code));
  return countryCodes.has(code);
};

/** What zod cannot know: the country is one of ours, the company type exists. */
async function checkReferences(tx: Tx, input: CheckedInput) {
  if (input.country && !isKnownCountry(input.country)) {
    throw new HttpError(400, 'Choose a country from the list.', 'INVALID_COUNTRY', {
      country: 'Choose a country from the list.',
    });
  }
  if (input.companyTypeId) {
    // Held in share mode: the type cannot be deleted before this contact is written.
    const [type] = await tx
      .select({ id: companyTypes.id })
      .from(companyTypes)
      .where(eq(companyTypes.id, input.companyTypeId))
      .for('share');
    if (!type) {
      throw new HttpError(400, 'There is no such company type.', 'INVALID_COMPANY_TYPE', {
        companyTypeId: 'Choose a company type from the list.',
      });
    }
  }
}

async function assertEmailFree(tx: Tx, email: string, except: string | null) {
  const [other] = await tx
    .select({ id: contacts.id, firstName: contacts.firstName, lastName: contacts.lastName })
    .from(contacts)
    .where(eq(contacts.email, email));
  if (other && other.id !== except) throw duplicateEmail(email);
}

const duplicateEmail = (email: string) => {
  const message = `A contact with the e-mail ${email} already exists.`;
  return new HttpError(409, message, 'DUPLICATE_EMAIL', { email: message });
};

/**
 * A new address that is on the suppression list (it unsubscribed before it was a contact, or as another
 * contact) starts unsubscribed: adding a contact never resubscribes an address.
 */
export async function isSuppressed(tx: Db | Tx, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ email: emailUnsubscribes.email })
    .from(emailUnsubscribes)
    .where(eq(emailUnsubscribes.email, email));
  return row !== undefined;
}

const suppressedState = {
  subscription: 'unsubscribed' as const,
  unsubscribedAt: sql`now()`,
  unsubscribeMethod: 'suppression_list',
};

const consentAt = (consent: boolean) => (consent ? sql`now()` : null);

export async function createContact(db: Db, actor: Actor, input: CheckedInput): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      await checkReferences(tx, input);
      await assertEmailFree(tx, input.email, null);
      const [row] = await tx
        .insert(contacts)
        .values({
          ...input,
          source: 'manual',
          consentAt: consentAt(input.consent),
          searchKey: contactSearchKey(input),
          ...((await isSuppressed(tx, input.email)) ? suppressedState : {}),
        })
        .returning({ id: contacts.id });
      const id = (row as { id: string }).id;
      await recordAudit(tx, {
        subject: { type: 'contact', id },
        actor,
        action: 'created',
        note: 'Added by hand',
      });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'contacts_email_uq')) throw duplicateEmail(input.email);
    throw error;
  }
}

const editedFields = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'companyTypeId',
  'country',
  'language',
  'tags',
  'consent',
] as const;

/** The contact at the version the editor read, locked for the change; 409 naming who changed it. */
async function contactAtVersion(tx: Tx, id: string, version: number): Promise<ContactRow> {
  const [row] = await tx.select().from(contacts).where(eq(contacts.id, id)).for('update');
  if (!row) throw contactNotFound();
  if (row.version !== version) {
    const last = await latestAuditEntry(tx, { type: 'contact', id });
    const who = last?.actorName || 'Someone';
    throw new HttpError(
      409,
      `${who} changed ${row.email} after you opened it. Reload the contact to see the change, then try again.`,
      'STALE_CONTACT',
    );
  }
  return row;
}

export async function updateContact(
  db: Db,
  actor: Actor,
  id: string,
  body: CheckedInput & Pick<UpdateContactBody, 'version'>,
): Promise<void> {
  const { version, ...input } = body;
  try {
    await db.transaction(async (tx) => {
      const before = await contactAtVersion(tx, id, version);
      await checkReferences(tx, input);
      if (input.email !== before.email) await assertEmailFree(tx, input.email, id);
      const changes: FieldChange[] = diffFields(
        before as unknown as Record<string, unknown>,
        input as Record<string, unknown>,
        editedFields,
      );
      if (changes.length === 0) return;
      // The contact's state goes with it to a new address, and a suppressed address stays suppressed.
      const suppress =
        input.email !== before.email &&
        before.subscription === 'subscribed' &&
        (await isSuppressed(tx, input.email));
      if (suppress) changes.push({ field: 'subscription', before: 'subscribed', after: 'unsubscribed' });
      await tx
        .update(contacts)
        .set({
          ...input,
          consentAt: input.consent === before.consent ? before.consentAt : consentAt(input.consent),
          searchKey: contactSearchKey(input),
          ...(suppress ? suppressedState : {}),
          version: sql`${contacts.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(contacts.id, id));
      await recordAudit(tx, { subject: { type: 'contact', id }, actor, action: 'updated', changes });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'contacts_email_uq')) throw duplicateEmail(input.email);
    throw error;
  }
}

/** Deletes the contact and its timeline; linked chats and queries stay, unlinked. */
export async function deleteContact(db: Db, id: string, version: number): Promise<void> {
  await db.transaction(async (tx) => {
    await contactAtVersion(tx, id, version);
    await tx.execute(sql`UPDATE chat_sessions SET contact_id = NULL WHERE contact_id = ${id}::uuid`);
    await tx.execute(sql`UPDATE customer_queries SET contact_id = NULL WHERE contact_id = ${id}::uuid`);
    await tx.delete(contacts).where(eq(contacts.id, id));
    await deleteAuditTrail(tx, 'contact', [id]);
  });
}

/**
 * A staff member unsubscribes a contact: through the one place that keeps the contact and the
 * suppression list together (subscription.ts). Already unsubscribed or bounced: nothing changes.
 */
export async function staffUnsubscribe(db: Db, actor: Actor, id: string, version: number): Promise<void> {
  const row = await db.transaction((tx) => contactAtVersion(tx, id, version));
  if (row.subscription !== 'subscribed') return;
  await unsubscribeAddress(db, row.email, 'staff', actor);
}

/**
 * Resubscribing is refused: the person asked not to be mailed (or their address bounces), and only they
 * can take that back — by writing to us, after which the address is re-added by hand. A back-office
 * button that overrides a recipient's unsubscribe is exactly what anti-spam law (and the RFC 8058
 * promise in every mail's header) forbids.
 */
export async function staffResubscribe(db: Db, id: string): Promise<never> {
  const [row] = await db
    .select({ subscription: contacts.subscription })
    .from(contacts)
    .where(eq(contacts.id, id));
  if (!row) throw contactNotFound();
  const message =
    row.subscription === 'bounced'
      ? 'This address bounced: mail to it cannot be delivered, so it is not mailed again. If the person gives a working address, add it as a new contact.'
      : row.subscription === 'unsubscribed'
        ? 'This person unsubscribed. Only they can subscribe again (by the subscribe form or a written request); the back office never resubscribes anyone.'
        : 'This contact is already subscribed.';
  throw new HttpError(409, message, 'RESUBSCRIBE_REFUSED');
}

export type { CheckedInput };
