// Errors as they go to the log: the statement and the reason, never the values a query was given.
// A failed query's error (drizzle's DrizzleQueryError) carries its parameters — customers' details, an
// argon2 hash — in its message, its stack and a `params` field, and the database's own message or
// `detail` may quote a value too ("invalid input syntax for type integer: \"…\"", "Key (email)=(…)").
// So the parameters are dropped, and any of their values quoted elsewhere in the error is blanked.

const MAX_CAUSE_DEPTH = 3;
/** Values shorter than this are not blanked: "1" or "true" would blank half of any message. */
const MIN_SECRET_LENGTH = 3;
/** Fields of database errors that quote data rather than describe the failure. */
const DATA_FIELDS = new Set(['params', 'detail', 'where', 'parameters', 'values']);

interface QueryError extends Error {
  query: string;
  params: unknown[];
}

function isQueryError(error: unknown): error is QueryError {
  return error instanceof Error && typeof (error as QueryError).query === 'string' && 'params' in error;
}

function secretsOf(params: unknown[]): string[] {
  return params
    .map((value) =>
      typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value),
    )
    .filter((value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

function blank(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[value]');
  return out;
}

function serialize(error: unknown, secrets: string[], depth: number): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? blank(error, secrets) : error;
  const out: Record<string, unknown> = { type: error.constructor?.name ?? 'Error' };
  let message = error.message;
  let stack = error.stack ?? '';
  if (isQueryError(error)) {
    out.query = error.query;
    // drizzle's message is "Failed query: <statement>\nparams: <values>": keep the statement only. (The
    // database's own error, its cause, says why in its message.)
    if (message.startsWith('Failed query:')) {
      message = `Failed query: ${error.query}`;
      stack = stack.replace(error.message, message);
    }
  }
  out.message = blank(message, secrets);
  out.stack = blank(stack, secrets);
  for (const [key, value] of Object.entries(error)) {
    if (key in out || DATA_FIELDS.has(key) || key === 'cause') continue;
    out[key] = typeof value === 'string' ? blank(value, secrets) : value;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serialize(cause, secrets, depth + 1);
  return out;
}

export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** pino's `err` serializer for every log of the server. */
export function serializeError(error: Error): SerializedError {
  return serialize(error, isQueryError(error) ? secretsOf(error.params) : [], 0) as SerializedError;
}
