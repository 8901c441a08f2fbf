// Help chats and customer queries are linked to the marketing contact of their address, not copied
// (issue 17): the first chat or query of an address makes a contact (source help_chat / customer_query)
// with the name given there; a later one only links to it. An existing contact's fields are never
// overwritten and its subscription never changes here; a suppressed address starts unsubscribed.
import { sql } from 'drizzle-orm';
import { isValidContactEmail, normalizeContactEmail } from '../../../contracts/contacts';
import type { ContactSource } from '../../../contracts/marketing';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { auditInsertFrom, NO_ACTOR } from '../../lib/audit';
import { contactSearchKey } from './audience';

/** "Ada Lovelace" → first "Ada", last "Lovelace"; one word is a first name. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, 200);
  const space = clean.indexOf(' ');
  if (space < 0) return { firstName: clean.slice(0, 100), lastName: '' };
  return { firstName: clean.slice(0, space).slice(0, 100), lastName: clean.slice(space + 1).slice(0, 100) };
}

/**
 * The contact id of the address, made if there is none; null for an address that is no valid e-mail
 * (the chat or query is stored all the same, unlinked). Runs in the caller's transaction, so the row
 * and its link are written together. The new contact's history says where it came from.
 */
export async function linkContact(
  tx: Db | Tx,
  input: { email: string; name: string; source: Extract<ContactSource, 'help_chat' | 'customer_query'> },
  /** When the chat or query came in (a demo or an import of old rows is dated in the past). */
  at: Date = new Date(),
): Promise<string | null> {
  const email = normalizeContactEmail(input.email);
  if (!isValidContactEmail(email)) return null;
  const { firstName, lastName } = splitName(input.name);
  const searchKey = contactSearchKey({ firstName, lastName, email, company: '' });
  const note = input.source === 'help_chat' ? 'From a help chat' : 'From a customer query';
  // One statement: insert unless the address exists (ON CONFLICT DO NOTHING keeps its fields), then read
  // the id either way; the history row only for a contact made here.
  const [row] = rowsOf<{ id: string; created: boolean }>(
    await tx.execute(sql`
      WITH made AS (
        INSERT INTO contacts (first_name, last_name, email, source, search_key, subscription,
                              unsubscribed_at, unsubscribe_method, created_at, updated_at)
        SELECT ${firstName}, ${lastName}, ${email}, ${input.source}, ${searchKey},
               CASE WHEN suppressed THEN 'unsubscribed' ELSE 'subscribed' END,
               CASE WHEN suppressed THEN now() END,
               CASE WHEN suppressed THEN 'suppression_list' END,
               ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
        FROM (SELECT EXISTS (SELECT 1 FROM email_unsubscribes WHERE email = ${email}) AS suppressed) s
        ON CONFLICT (email) DO NOTHING
        RETURNING id
      ), logged AS (${auditInsertFrom({
        subjectType: 'contact',
        subjectId: sql`id`,
        from: sql`made`,
        actor: NO_ACTOR,
        action: 'created',
        note,
        at,
      })})
      SELECT id, true AS created FROM made
      UNION ALL
      SELECT id, false FROM contacts WHERE email = ${email} AND NOT EXISTS (SELECT 1 FROM made)`),
  );
  return row?.id ?? null;
}
