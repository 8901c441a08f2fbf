// Many help chats at once, for the benchmark and load tests (`npm run seed -- --chats 50000`). Like
// the bulk sellers, rows are generated inside the database, one INSERT per batch. The chats go to the
// demo seller (seller@demo.local), so both the seller's own list and the admins' list of all chats hold
// them; each has two messages, so opening one shows a real conversation.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rowsOf } from '../rows';

const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

const firstNames =
  'Aarav Aditi Arjun Ananya Dev Diya Farhan Gauri Ishaan Kavya Kabir Lakshmi Manav Meera Nikhil Neha Omkar Pooja Rahul Riya'.split(
    ' ',
  );
const lastNames = 'Sharma Iyer Patel Reddy Nair Gupta Khan Singh Das Mehta Joshi Rao Menon Kapoor Bose'.split(
  ' ',
);
const questions = [
  'Is this available in blue?',
  'When will my order ship?',
  'Do you deliver to Pune?',
  'Can I return a gift?',
  'Which sizes do you have?',
  'Is cash on delivery possible?',
];
const colors = 'teal blue purple orange pink cyan green red'.split(' ');

export async function seedBulkChats(
  db: Db,
  total: number,
  options: { batchSize?: number; sellerEmail?: string; onBatch?: (done: number) => void } = {},
): Promise<{ inserted: number; ms: number }> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 10_000;
  const [seller] = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers WHERE email = ${options.sellerEmail ?? 'seller@demo.local'}`),
  );
  if (!seller) throw new Error('The demo seller is missing: seed the demo marketplace first (SEED_DEMO).');
  const h = (salt: number) => sql.raw(`(hashint8extended(n::bigint, ${salt}) & 2147483647)`);
  const pick = (words: string[], salt: number) =>
    sql`(${textArray(words)})[1 + ${h(salt)} % ${sql.raw(String(words.length))}]`;
  const base = Date.now();
  for (let from = 1; from <= total; from += batchSize) {
    const to = Math.min(from + batchSize - 1, total);
    await db.execute(sql`
      WITH generated AS (
        SELECT n, gen_random_uuid() AS id,
          ${pick(firstNames, 1)} || ' ' || ${pick(lastNames, 2)} AS name,
          ${pick(questions, 3)} AS question,
          ${pick(colors, 4)} AS color,
          to_timestamp(${Math.floor(base / 1000)}::double precision - (${h(5)} % (180 * 86400))) AS at
        FROM generate_series(${from}::integer, ${to}::integer) AS n
      ), chats AS (
        INSERT INTO chat_sessions (id, session_id, seller_id, name, email, last_message, last_interaction_on,
          new_messages_count, connect_request, status, color, created_at)
        SELECT id, gen_random_uuid()::text, ${seller.id}::uuid, name,
          lower(replace(name, ' ', '.')) || '.' || n || '@visitors.bulk.local', question, at,
          ${h(6)} % 4, ${h(7)} % 50 = 0, 'open', color, at
        FROM generated
        RETURNING id
      )
      INSERT INTO chat_messages (chat_id, sender, message, created_at)
      SELECT g.id, m.sender, m.message, g.at - m.ago
      FROM generated g
      CROSS JOIN LATERAL (VALUES
        ('Bot', 'Hi! Welcome. How can we help?', interval '1 minute'),
        ('User', g.question, interval '0')
      ) AS m(sender, message, ago)`);
    options.onBatch?.(to);
  }
  await db.execute(sql`VACUUM ANALYZE chat_sessions`);
  await db.execute(sql`VACUUM ANALYZE chat_messages`);
  return { inserted: total, ms: Date.now() - started };
}
