// One gate for text no route can store: every parsed input (path parameters, query string, JSON body)
// is checked before validation, so no route has to remember it.
// - NUL (U+0000): PostgreSQL text cannot hold it; it would fail deep inside a query as a 500.
// - A lone UTF-16 surrogate (e.g. "\ud800" in JSON): not Unicode text at all; it cannot be encoded as
//   UTF-8 for the database, an export or a mail.
// - Nesting deeper than any request of this API needs: walking it costs the server, not the client.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error';

export const MAX_INPUT_DEPTH = 32;

export interface TextProblem {
  /** Where: `body.sellerName`, `query.search`, `params.id`, `body.items.2`. */
  path: string;
  message: string;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character, which is not allowed';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (it has an unpaired surrogate)';
  return null;
}

/** The first string (or key) in `value` that cannot be stored, or a nesting too deep to walk. */
export function findTextProblem(value: unknown, path: string, depth = 0): TextProblem | null {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { path, message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_INPUT_DEPTH) return { path, message: 'is nested too deeply' };
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const at = `${path}.${key}`;
    if (typeof key === 'string') {
      const keyMessage = textProblem(key);
      if (keyMessage) return { path: `${path} (a field name)`, message: keyMessage };
    }
    const problem = findTextProblem(item, at, depth + 1);
    if (problem) return problem;
  }
  return null;
}

export const inputGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const parts = [
        ['params', request.params],
        ['query', request.query],
        ['body', request.body],
      ] as const;
      for (const [name, value] of parts) {
        const problem = findTextProblem(value, name);
        if (problem) throw new HttpError(400, `${problem.path}: ${problem.message}`, 'INVALID_TEXT');
      }
    });
  },
  { name: 'input-guard' },
);
