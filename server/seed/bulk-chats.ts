// Many help chats at once, for the benchmark and load tests (`npm run seed -- --chats 50000`). Like
// the bulk sellers, rows are generated inside the database, one INSERT per batch. The chats go to the
// demo seller (seller@demo.local), so both the seller's own list and the admins' list of all chats hold
// them. Each is a real conversation: a few scripted customer messages answered by the seller's actual
// bot (bot.ts, with the seller's FAQ), run here once per script and copied into every chat that
// follows it, so the preview is the last message, the seller has read all but the last few customer
// messages, and a connect request is the customer's own. Nobody else has opened them.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { answer, CONNECT_VALUE, customerText, startReply } from '../modules/help-chats/bot';
import { botFaqs, type StoredMessage } from '../modules/help-chats/repository';

const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

const firstNames =
  'Aarav Aditi Arjun Ananya Dev Diya Farhan Gauri Ishaan Kavya Kabir Lakshmi Manav Meera Nikhil Neha Omkar Pooja Rahul Riya'.split(
    ' ',
  );
const lastNames = 'Sharma Iyer Patel Reddy Nair Gupta Khan Singh Das Mehta Joshi Rao Menon Kapoor Bose'.split(
  ' ',
);
/** What the bulk customers write, one script per chat (a button's value for a tapped button). */
const scripts = [
  ['Is this available in blue?'],
  ['When will my order ship?', 'Do you deliver to Pune?'],
  ['Can I return a gift?'],
  ['Which sizes do you have?', 'Is this available in blue?'],
  ['Is cash on delivery possible?', 'Which payment methods do you accept?'],
  ['Where is my order?'],
  ['What is your return policy?', 'Can I return a gift?'],
  ['How long does shipping take?'],
  ['Do you deliver to Pune?', 'Which sizes do you have?', 'Is this available in blue?'],
  ['Which payment methods do you accept?'],
  ['Where is my order?', CONNECT_VALUE],
  ['Which sizes do you have?', 'I want to talk to a person'],
];
const colors = 'teal blue purple orange pink cyan green red'.split(' ');
/** Stands for the customer's name in a script's messages (the welcome greets them by name). */
const NAME = '{customer}';
/** Time between two messages of a bulk conversation. */
const MESSAGE_GAP_S = 40;

interface Template {
  messages: StoredMessage[];
  customerMessages: number;
  /** The customer message that asked for a person (1-based), or null. */
  connectMark: number | null;
}

/** Each script as the seller's bot answers it (pure: bot.ts, no database writes). */
function templates(sellerName: string, faqs: Awaited<ReturnType<typeof botFaqs>>): Template[] {
  return scripts.map((script) => {
    const start = startReply({ customerName: NAME, sellerName, faqs });
    const messages: StoredMessage[] = start.turns.map((turn) => ({
      sender: 'Bot',
      message: turn.message,
      extras: turn.extras,
    }));
    let connectMark: number | null = null;
    for (const [index, typed] of script.entries()) {
      const reply = answer(typed, faqs);
      if (reply.connectRequest) connectMark = index + 1;
      messages.push({ sender: 'User', message: customerText(typed) });
      for (const turn of reply.turns)
        messages.push({ sender: 'Bot', message: turn.message, extras: turn.extras });
    }
    return { messages, customerMessages: script.length, connectMark };
  });
}

export async function seedBulkChats(
  db: Db,
  total: number,
  options: { batchSize?: number; sellerEmail?: string; onBatch?: (done: number) => void } = {},
): Promise<{ inserted: number; ms: number }> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 10_000;
  const [seller] = rowsOf<{ id: string; seller_name: string }>(
    await db.execute(
      sql`SELECT id, seller_name FROM sellers WHERE email = ${options.sellerEmail ?? 'seller@demo.local'}`,
    ),
  );
  if (!seller) throw new Error('The demo seller is missing: seed the demo marketplace first (SEED_DEMO).');
  const scripted = JSON.stringify(templates(seller.seller_name, await botFaqs(db, seller.id)));
  const h = (salt: number) => sql.raw(`(hashint8extended(n::bigint, ${salt}) & 2147483647)`);
  const pick = (words: string[], salt: number) =>
    sql`(${textArray(words)})[1 + ${h(salt)} % ${sql.raw(String(words.length))}]`;
  const base = Date.now();
  for (let from = 1; from <= total; from += batchSize) {
    const to = Math.min(from + batchSize - 1, total);
    // Per chat: a script, and how many of its customer messages the seller has not read yet.
    await db.execute(sql`
      WITH template AS (
        SELECT (ordinality - 1)::integer AS idx, value AS t,
          (value->>'customerMessages')::integer AS customers,
          (value->>'connectMark')::integer AS mark,
          jsonb_array_length(value->'messages') AS length
        FROM jsonb_array_elements(${scripted}::jsonb) WITH ORDINALITY
      ), generated AS (
        SELECT n, gen_random_uuid() AS id,
          ${pick(firstNames, 1)} || ' ' || ${pick(lastNames, 2)} AS name,
          ${pick(colors, 4)} AS color,
          to_timestamp(${Math.floor(base / 1000)}::double precision - (${h(5)} % (180 * 86400))) AS at,
          template.t, template.customers, template.mark, template.length,
          ${h(6)} % (template.customers + 1) AS unread
        FROM generate_series(${from}::integer, ${to}::integer) AS n
        JOIN template ON template.idx = ${h(3)} % ${scripts.length}
      ), chats AS (
        INSERT INTO chat_sessions (id, session_id, seller_id, name, email, last_message, last_interaction_on,
          new_messages_count, connect_request, customer_messages, connect_request_mark, status, color, created_at)
        SELECT id, gen_random_uuid()::text, ${seller.id}::uuid, name,
          lower(replace(name, ' ', '.')) || '.' || n || '@visitors.bulk.local',
          replace(t->'messages'->(length - 1)->>'message', ${NAME}, name), at,
          unread, coalesce(customers - unread < mark, false), customers, mark, 'open', color,
          at - (length - 1) * interval '${sql.raw(String(MESSAGE_GAP_S))} seconds'
        FROM generated
        RETURNING id
      )
      INSERT INTO chat_messages (chat_id, sender, message, extras, created_at)
      SELECT g.id, m.value->>'sender', replace(m.value->>'message', ${NAME}, g.name),
        m.value->'extras', g.at - (g.length - m.ordinality) * interval '${sql.raw(String(MESSAGE_GAP_S))} seconds'
      FROM generated g
      CROSS JOIN LATERAL jsonb_array_elements(g.t->'messages') WITH ORDINALITY AS m`);
    options.onBatch?.(to);
  }
  await db.execute(sql`VACUUM ANALYZE chat_sessions`);
  await db.execute(sql`VACUUM ANALYZE chat_messages`);
  return { inserted: total, ms: Date.now() - started };
}
