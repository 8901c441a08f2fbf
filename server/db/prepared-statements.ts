// Server-side prepared statements for what a connection runs again and again, the way PgJDBC's
// `prepareThreshold` does. Without a name, PostgreSQL parses and plans every statement anew: for the
// list pages' CTE statements planning costs several times the execution (`server.throughput` in
// bench/results.json: the sellers list's statement served at ~2,900/s unprepared, ~13,900/s prepared).
// So a parameterised statement seen PREPARE_AFTER times on a connection is sent under a name derived
// from its text; PostgreSQL then plans it once per connection, or keeps a generic plan when that costs
// no more than its custom ones (plan_cache_mode auto). Statements without parameters (BEGIN, LISTEN, a
// migration) stay unnamed.
//
// A search (`… LIKE $n`) is never named: its best plan depends on the pattern — a rare phrase wants the
// trigram index, a common word the walk down the order's index — which a generic plan cannot know.
// PostgreSQL switches to the generic plan after five runs when its estimate is no worse, and for
// `LIKE $n` that plan walked the whole queries inbox backwards (113 ms a page against 5 ms planned for
// the phrase, 100k queries). Planning a search each time costs well under a millisecond.
//
// Off with DATABASE_PREPARED_STATEMENTS=false: a pooler in transaction mode (PgBouncer before 1.21)
// hands each transaction another server session, where the name would not exist.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** A text's third run on a connection prepares it: a one-off statement is never kept. */
export const PREPARE_AFTER = 3;
/** Named statements one connection keeps at most; further texts run unnamed. */
export const MAX_PREPARED_PER_CONNECTION = 200;
/** Texts counted per connection before the counts start over (texts seen once do not pile up). */
const MAX_COUNTED = 2_000;

/**
 * After a schema change, PostgreSQL refuses a prepared statement whose result columns changed
 * ("cached plan must not change result type", 0A000); after DISCARD ALL or a pooler's reset the name is
 * gone (26000). Either way the statement runs again unnamed and the text is not named again.
 */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

type QueryConfig = pg.QueryConfig & { name?: string; submit?: unknown };
type Callback = (error: Error | null, result?: pg.QueryResult) => void;

interface ConnectionStatements {
  counts: Map<string, number>;
  named: Map<string, string>;
  refused: Set<string>;
}

const statementName = (text: string) => `mp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/** A pattern given as a parameter (`LIKE $1`, `ILIKE lower($2)`): planned for each pattern. */
export const searchesByPattern = (text: string) => /\bI?LIKE\s+(?:lower\s*\(\s*)?\$\d/i.test(text);

/** The name `text` runs under on this connection now, or null to send it unnamed. */
function nameFor(state: ConnectionStatements, text: string): string | null {
  const known = state.named.get(text);
  if (known) return known;
  if (state.refused.has(text) || state.named.size >= MAX_PREPARED_PER_CONNECTION) return null;
  if (searchesByPattern(text)) return null;
  const seen = (state.counts.get(text) ?? 0) + 1;
  if (seen < PREPARE_AFTER) {
    if (state.counts.size >= MAX_COUNTED) state.counts.clear();
    state.counts.set(text, seen);
    return null;
  }
  state.counts.delete(text);
  const name = statementName(text);
  state.named.set(text, name);
  return name;
}

/** Makes `client` name the parameterised statements it runs repeatedly (see the top of this file). */
export function prepareRepeatedStatements(client: pg.ClientBase): void {
  const state: ConnectionStatements = { counts: new Map(), named: new Map(), refused: new Set() };
  const original = client.query.bind(client) as (
    config: unknown,
    values?: unknown,
  ) => Promise<pg.QueryResult>;

  const run = (config: string | QueryConfig, values: unknown[] | undefined): Promise<pg.QueryResult> => {
    const text = typeof config === 'string' ? config : config.text;
    const params = values ?? (typeof config === 'string' ? undefined : config.values);
    // A statement the caller named itself keeps its name.
    const named = typeof config !== 'string' && Boolean(config.name);
    const chosen = params?.length && !named ? nameFor(state, text) : null;
    if (!chosen) return original(config, values);
    const base = typeof config === 'string' ? { text } : config;
    return original({ ...base, name: chosen, values: params }).catch((error: { code?: string }) => {
      if (!STALE_STATEMENT_CODES.has(error?.code ?? '')) throw error;
      state.named.delete(text);
      state.refused.add(text);
      // Inside a transaction the failure aborted it, and so does the retry: the first error is the one
      // that explains what happened. (pg 8 queues the retry behind the failed query's last message.)
      return original(config, values).catch(() => {
        throw error;
      });
    });
  };

  client.query = function query(config: unknown, values?: unknown, callback?: unknown) {
    // Cursors and streams (objects with submit) and anything unusual go through untouched.
    const isPlain =
      typeof config === 'string' ||
      (typeof config === 'object' &&
        config !== null &&
        typeof (config as QueryConfig).text === 'string' &&
        typeof (config as QueryConfig).submit !== 'function' &&
        typeof (config as { callback?: unknown }).callback !== 'function');
    const done = (typeof values === 'function' ? values : callback) as Callback | undefined;
    const params = typeof values === 'function' ? undefined : (values as unknown[] | undefined);
    if (!isPlain || (params !== undefined && !Array.isArray(params))) {
      return (original as (...args: unknown[]) => unknown)(config, values, callback);
    }
    const result = run(config as string | QueryConfig, params);
    if (!done) return result;
    result.then(
      (value) => done(null, value),
      (error: Error) => done(error),
    );
    return undefined;
  } as typeof client.query;
}
