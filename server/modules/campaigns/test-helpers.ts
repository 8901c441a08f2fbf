// What the campaign tests share: contacts made set-based under a tag of their own (so an audience
// "tags any of <tag>" is exactly them), an audience on that tag, and reading an outbox .eml.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { QueryTree } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** `n` contacts tagged `tag`, e-mails `<prefix>-<i>@example.com`, languages cycling over `languages`. */
export async function insertContacts(
  db: Db,
  options: { tag: string; n: number; prefix?: string; languages?: string[]; country?: string },
): Promise<{ id: string; email: string }[]> {
  const prefix = options.prefix ?? options.tag;
  const languages = options.languages ?? ['EN'];
  return rowsOf<{ id: string; email: string }>(
    await db.execute(sql`
      INSERT INTO contacts (first_name, last_name, email, company, country, language, tags, source, search_key)
      SELECT 'First' || i, 'Last' || i, ${prefix} || '-' || i || '@example.com', 'Company ' || i,
             ${options.country ?? 'IN'},
             (${`{${languages.join(',')}}`}::text[])[1 + (i - 1) % ${languages.length}],
             ARRAY[${options.tag}]::text[], 'manual',
             lower('first' || i || ' last' || i || ' ' || ${prefix} || '-' || i || '@example.com company ' || i)
      FROM generate_series(1, ${options.n}) AS i
      RETURNING id::text, email`),
  );
}

export const audienceOf = (tag: string): { query: QueryTree; search: string } => ({
  query: { combinator: 'and', children: [{ field: 'tags', op: 'anyOf', value: [tag] }] },
  search: '',
});

export interface Eml {
  name: string;
  headers: Map<string, string>;
  /** The whole message with quoted-printable soft breaks and escapes decoded (as UTF-8). */
  body: string;
}

/** Headers (unfolded, names in lower case) and the decoded body of an outbox file. */
export function parseEml(name: string, raw: string): Eml {
  const split = raw.indexOf('\n\n');
  const headerText = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of headerText.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  // Quoted-printable escapes are the bytes of UTF-8 text: decoded byte by byte, then read as UTF-8.
  const bytes = raw
    .slice(split + 2)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const body = Buffer.from(bytes, 'latin1').toString('utf8');
  return { name, headers, body };
}

export async function readOutbox(dataDir: string): Promise<Eml[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
  return Promise.all(names.map(async (name) => parseEml(name, await readFile(path.join(dir, name), 'utf8'))));
}
