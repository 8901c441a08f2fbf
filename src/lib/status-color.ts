/** Chakra UI colour palettes used for status badges. */
export type StatusPalette = 'green' | 'red' | 'orange' | 'yellow' | 'blue' | 'gray';

/**
 * Rules in priority order: when a status mentions several states ("Paid – refund failed"), the most
 * alarming colour wins, because a badge that hides a failure is worse than one that over-warns.
 * Phrases are sequences of whole words, so "unpaid" never matches "paid" and "disconnected" never
 * matches "connected".
 */
const rules: readonly (readonly [StatusPalette, readonly string[]])[] = [
  [
    'red',
    [
      'unpaid',
      'failed',
      'failure',
      'rejected',
      'declined',
      'error',
      'blocked',
      'cancelled',
      'canceled',
      'disconnected',
      // A mail address that refuses mail for good (issue 17).
      'bounced',
    ],
  ],
  // Needs follow-up but nothing broke: late payments and calls nobody answered.
  // Paused campaigns wait for a person; unsubscribed contacts left on purpose.
  ['orange', ['overdue', 'not picked', 'ignored', 'missed', 'not answered', 'paused', 'unsubscribed']],
  // On its way: campaigns sending or scheduled, mails queued or deferred for a retry.
  [
    'yellow',
    ['pending', 'processing', 'in progress', 'in review', 'sending', 'scheduled', 'queued', 'deferred'],
  ],
  [
    'green',
    [
      'paid',
      'completed',
      'active',
      'success',
      'successful',
      'approved',
      'connected',
      'live',
      'sent',
      'subscribed',
    ],
  ],
  ['blue', ['draft', 'new', 'info']],
];

const SUCCESS_PALETTE: StatusPalette = 'green';
const NEGATIONS = new Set(['not', 'non']);

// Underscores and hyphens count as spaces so API enums ("in_progress", "in-progress") match too.
function words(status: string): string[] {
  return status
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Index of each whole-word occurrence of `phrase` in `tokens`. */
function occurrences(tokens: readonly string[], phrase: readonly string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((w, j) => tokens[i + j] === w)) found.push(i);
  }
  return found;
}

/**
 * Badge colour for a free-text status: case-insensitive, whitespace-tolerant, matching whole words
 * anywhere in the string ("Payment Failed" → red). Unknown statuses are gray.
 *
 * A success word right after "not"/"non" ("Not Paid", "not approved") means the opposite and is red.
 */
export function statusColor(status: string): StatusPalette {
  const tokens = words(status);
  let negatedSuccess = false;
  for (const [palette, phrases] of rules) {
    for (const phrase of phrases) {
      const parts = phrase.split(' ');
      for (const at of occurrences(tokens, parts)) {
        const negated = at > 0 && NEGATIONS.has(tokens[at - 1] ?? '');
        if (!negated) return palette;
        if (palette === SUCCESS_PALETTE) negatedSuccess = true;
      }
    }
  }
  // Only reached when no un-negated phrase matched; checked last so "Not paid, overdue" stays orange.
  return negatedSuccess ? 'red' : 'gray';
}
