// A customer query's lifecycle (issue 30): new → open → waiting (for the customer) → resolved /
// closed. The server enforces these moves and says why one is refused; the page offers only these.

export const queryStatuses = ['new', 'open', 'waiting', 'resolved', 'closed'] as const;
export type QueryStatus = (typeof queryStatuses)[number];

export const queryStatusLabels: Record<QueryStatus, string> = {
  new: 'New',
  open: 'Open',
  waiting: 'Waiting for customer',
  resolved: 'Resolved',
  closed: 'Closed',
};

/** Not yet resolved: what the seller dashboard's "Open queries" counts. */
export const unresolvedQueryStatuses: readonly QueryStatus[] = ['new', 'open', 'waiting'];

const allowed: Record<QueryStatus, readonly QueryStatus[]> = {
  new: ['open', 'waiting', 'resolved', 'closed'],
  open: ['waiting', 'resolved', 'closed'],
  waiting: ['open', 'resolved', 'closed'],
  // A resolved query reopens (the customer wrote back) or is closed for good.
  resolved: ['open', 'closed'],
  closed: [],
};

export function nextQueryStatuses(from: QueryStatus): readonly QueryStatus[] {
  return allowed[from];
}

/** Why `from → to` is refused, or null when it is allowed. */
export function queryMoveProblem(from: QueryStatus, to: QueryStatus): string | null {
  if (from === to) return `The query is already ${queryStatusLabels[to].toLowerCase()}.`;
  if (allowed[from].includes(to)) return null;
  if (from === 'closed') return 'A closed query cannot change; open a new query instead.';
  if (to === 'new') return 'A query cannot go back to new once someone has looked at it.';
  return `A ${queryStatusLabels[from].toLowerCase()} query cannot move to ${queryStatusLabels[to].toLowerCase()}.`;
}

export const queryPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export type QueryPriority = (typeof queryPriorities)[number];

export const queryChannels = ['form', 'chat', 'call', 'manual', 'email'] as const;
export type QueryChannel = (typeof queryChannels)[number];
