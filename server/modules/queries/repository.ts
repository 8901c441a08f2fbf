// Customer queries' storage (issue 30): creating one (with its contact and first event), the inbox's
// page and tab counts, a query's page, and every action as one transaction that writes the change, its
// event in the thread, the audit trail and the SLA deadlines together.
import { and, asc, desc, eq, gte, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import {
  type QueryChannel,
  type QueryPriority,
  type QueryStatus,
  queryMoveProblem,
  queryStatuses,
} from '../../../contracts/domain/query-status';
import type { QueryEvent, QueryListItem, QueryListQuery, QueryTabs } from '../../../contracts/queries';
import { EVENT_PREVIEW } from '../../../contracts/queries';
import type { Db, Tx } from '../../db/client';
import {
  customerQueries,
  customers,
  products,
  queryEvents,
  queryStatusCounts,
  sellers,
  users,
} from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { linkContact } from '../contacts/link';
import { type SlaCalendar, slaClocks } from './sla';

export const NO_SELLER = '00000000-0000-0000-0000-000000000000';

/** Who asks: a seller sees only their own shop's queries; admins and staff every one. */
export interface Viewer {
  userId: string;
  /** Set for a seller: the only shop whose queries they see. */
  sellerId: string | null;
  isSeller: boolean;
}

export const notFound = () => new HttpError(404, 'There is no such query.', 'QUERY_NOT_FOUND');

export interface SlaSettings {
  calendar: SlaCalendar;
  targets: Record<QueryPriority, { firstResponseMinutes: number; resolutionMinutes: number }>;
}

export interface NewQuery {
  sellerId: string | null;
  customerName: string;
  email: string;
  phone?: string;
  subject: string;
  message: string;
  productId?: string | null;
  priority?: QueryPriority;
  channel: QueryChannel;
  sourceChatId?: string | null;
  sourceCallId?: string | null;
  /** Who entered it (manual entry, a converted chat or call); the customer for the form. */
  actor: Actor | null;
}

/**
 * Stores a query with its contact (found or made by e-mail), its registered customer when the address
 * has one, and its first event (the customer's message). Every source calls this: the enquiry form, a
 * help chat or call turned into a query, manual entry.
 */
export async function createQuery(
  db: Db,
  input: NewQuery,
  sla: SlaSettings,
  now = new Date(),
): Promise<string> {
  return db.transaction(async (tx) => {
    // An unknown shop is the caller's mistake (400), not a foreign-key failure (500).
    if (input.sellerId) {
      const [shop] = await tx.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, input.sellerId));
      if (!shop) throw new HttpError(400, 'Choose a seller from the list.', 'SELLER_NOT_FOUND');
    }
    if (input.productId) await assertProductOfSeller(tx, input.productId, input.sellerId);
    const contactId = await linkContact(
      tx,
      { email: input.email, name: input.customerName, source: 'customer_query' },
      now,
    );
    const [customer] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(sql`lower(${customers.email}) = lower(${input.email.trim()})`)
      .limit(1);
    const priority = input.priority ?? 'normal';
    const [row] = await tx
      .insert(customerQueries)
      .values({
        sellerId: input.sellerId,
        customerName: input.customerName,
        email: input.email.trim(),
        phone: input.phone ?? '',
        subject: input.subject,
        message: input.message,
        contactId,
        customerId: customer?.id ?? null,
        productId: input.productId ?? null,
        priority,
        channel: input.channel,
        sourceChatId: input.sourceChatId ?? null,
        sourceCallId: input.sourceCallId ?? null,
        status: 'new',
        lastActivityAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: customerQueries.id });
    const id = row!.id;
    await tx.insert(queryEvents).values({
      queryId: id,
      kind: 'message_in',
      actorName: input.customerName,
      body: input.message,
      data: { channel: input.channel, enteredBy: input.actor?.name ?? null },
      createdAt: now,
    });
    if (input.actor) {
      await recordAudit(tx, {
        subject: { type: 'query', id },
        actor: input.actor,
        action: 'created',
        note: `Entered by hand (${input.channel})`,
      });
    }
    await refreshSla(tx, id, sla, now);
    return id;
  });
}

async function assertProductOfSeller(tx: Db | Tx, productId: string, sellerId: string | null) {
  const [product] = await tx
    .select({ sellerId: products.sellerId })
    .from(products)
    .where(eq(products.id, productId));
  if (!product || (sellerId !== null && product.sellerId !== sellerId)) {
    throw new HttpError(400, 'Choose a product of this seller.', 'PRODUCT_NOT_OF_SELLER');
  }
}

// ── The inbox ───────────────────────────────────────────────────────────────────────────────────────

/** The statuses' counts the viewer may see, summed from the maintained counters (never COUNT(*)). */
export async function readTabs(db: Db, viewer: Viewer, sellerId?: string): Promise<QueryTabs> {
  const scope = viewer.isSeller ? (viewer.sellerId ?? NO_SELLER) : sellerId;
  const rows = await db
    .select({ status: queryStatusCounts.status, n: sql<number>`sum(${queryStatusCounts.queries})::integer` })
    .from(queryStatusCounts)
    .where(scope ? eq(queryStatusCounts.sellerKey, scope) : undefined)
    .groupBy(queryStatusCounts.status);
  const tabs = Object.fromEntries(queryStatuses.map((status) => [status, 0])) as QueryTabs;
  for (const row of rows) if (row.status in tabs) tabs[row.status as QueryStatus] = Number(row.n);
  return tabs;
}

function filters(viewer: Viewer, query: QueryListQuery & { query?: string }, now: Date): SQL | undefined {
  const q = customerQueries;
  const where: (SQL | undefined)[] = [];
  if (viewer.isSeller) where.push(eq(q.sellerId, viewer.sellerId ?? NO_SELLER));
  else if (query.sellerId) where.push(eq(q.sellerId, query.sellerId));
  if (query.status) where.push(eq(q.status, query.status));
  if (query.assigneeId === 'me') where.push(eq(q.assigneeId, viewer.userId));
  else if (query.assigneeId === 'none') where.push(isNull(q.assigneeId));
  else if (query.assigneeId) where.push(eq(q.assigneeId, query.assigneeId));
  if (query.channel) where.push(eq(q.channel, query.channel));
  if (query.priority) where.push(eq(q.priority, query.priority));
  if (query.overdue) where.push(lt(q.nextFollowUpAt, now));
  if (query.slaBreached) {
    where.push(or(eq(q.slaBreached, true), lt(q.firstResponseDueAt, now), lt(q.resolutionDueAt, now)));
  }
  if (query.from) where.push(gte(q.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) where.push(lt(q.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000)));
  const words = query.query?.trim().toLowerCase();
  if (words) {
    const number = /^q?-?(\d{1,12})$/i.exec(words);
    const text = sql`lower(${q.subject} || ' ' || ${q.customerName} || ' ' || ${q.email} || ' ' || ${q.message}) LIKE ${containsPattern(words)}`;
    where.push(number ? or(text, eq(q.number, Number(number[1]))) : text);
  }
  return and(...where);
}

/** Past this many matches a filtered count stops and says "more than". */
const COUNT_CAP = 1_000;

export async function listQueries(
  db: Db,
  viewer: Viewer,
  query: QueryListQuery & { query?: string },
  now = new Date(),
): Promise<{ result: QueryListItem[]; total: number; totalCapped: boolean; tabs: QueryTabs }> {
  const q = customerQueries;
  const where = filters(viewer, query, now);
  const assignee = sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`;
  const [rows, tabs, total] = await Promise.all([
    db
      .select({
        id: q.id,
        number: q.number,
        sellerId: q.sellerId,
        sellerName: sellers.sellerName,
        customerName: q.customerName,
        email: q.email,
        subject: q.subject,
        status: q.status,
        priority: q.priority,
        channel: q.channel,
        assigneeId: q.assigneeId,
        assigneeName: sql<string | null>`coalesce(${assignee}, ${users.email})`,
        nextFollowUpAt: q.nextFollowUpAt,
        slaBreached: q.slaBreached,
        firstResponseDueAt: q.firstResponseDueAt,
        resolutionDueAt: q.resolutionDueAt,
        lastActivityAt: q.lastActivityAt,
        createdAt: q.createdAt,
      })
      .from(q)
      .leftJoin(sellers, eq(sellers.id, q.sellerId))
      .leftJoin(users, eq(users.id, q.assigneeId))
      .where(where)
      .orderBy(desc(q.createdAt), desc(q.id))
      .offset(query.skip)
      .limit(query.limit),
    readTabs(db, viewer, query.sellerId),
    countMatches(db, viewer, query, where),
  ]);
  return {
    result: rows.map((row) => listItem(row, now)),
    total: total.n,
    totalCapped: total.capped,
    tabs,
  };
}

/**
 * The number of matches. With only a seller and/or a status filter it is the counters' figure (exact,
 * O(1)); any other filter counts the matching rows up to COUNT_CAP (index-bounded, never the table).
 */
async function countMatches(db: Db, viewer: Viewer, query: QueryListQuery & { query?: string }, where?: SQL) {
  const onlyTabs =
    !query.assigneeId &&
    !query.channel &&
    !query.priority &&
    !query.overdue &&
    !query.slaBreached &&
    !query.from &&
    !query.to &&
    !query.query?.trim();
  if (onlyTabs) {
    const tabs = await readTabs(db, viewer, query.sellerId);
    const n = query.status ? tabs[query.status] : Object.values(tabs).reduce((a, b) => a + b, 0);
    return { n, capped: false };
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::integer` })
    .from(sql`(SELECT 1 FROM ${customerQueries} WHERE ${where ?? sql`true`} LIMIT ${COUNT_CAP + 1}) m`);
  const n = Number(row?.n ?? 0);
  return { n: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function listItem(
  row: {
    nextFollowUpAt: Date | null;
    slaBreached: boolean;
    firstResponseDueAt: Date | null;
    resolutionDueAt: Date | null;
    lastActivityAt: Date;
    createdAt: Date;
    status: string;
    priority: string;
    channel: string;
  } & Omit<
    QueryListItem,
    | 'nextFollowUpAt'
    | 'overdue'
    | 'slaBreached'
    | 'slaDueAt'
    | 'lastActivityAt'
    | 'createdAt'
    | 'status'
    | 'priority'
    | 'channel'
  >,
  now: Date,
): QueryListItem {
  const dues = [row.firstResponseDueAt, row.resolutionDueAt].filter((d): d is Date => d !== null);
  const nearest = dues.sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  return {
    id: row.id,
    number: row.number,
    sellerId: row.sellerId,
    sellerName: row.sellerName,
    customerName: row.customerName,
    email: row.email,
    subject: row.subject,
    status: row.status as QueryStatus,
    priority: row.priority as QueryPriority,
    channel: row.channel as QueryChannel,
    assigneeId: row.assigneeId,
    assigneeName: row.assigneeName,
    nextFollowUpAt: iso(row.nextFollowUpAt),
    overdue: row.nextFollowUpAt !== null && row.nextFollowUpAt.getTime() < now.getTime(),
    slaBreached: row.slaBreached || (nearest !== null && nearest.getTime() < now.getTime()),
    slaDueAt: iso(nearest),
    lastActivityAt: row.lastActivityAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

// ── One query ───────────────────────────────────────────────────────────────────────────────────────

/** The query if the viewer may see it; 404 otherwise (another seller's query is not said to exist). */
export async function findVisible(db: Db | Tx, viewer: Viewer, id: string, lock = false) {
  const base = db.select().from(customerQueries).where(eq(customerQueries.id, id));
  const [row] = lock ? await base.for('update') : await base;
  if (!row) throw notFound();
  if (viewer.isSeller && row.sellerId !== viewer.sellerId) throw notFound();
  return row;
}

export type QueryRow = typeof customerQueries.$inferSelect;

export async function eventPage(db: Db | Tx, queryId: string, before: number, limit: number) {
  const rows = await db
    .select()
    .from(queryEvents)
    .where(and(eq(queryEvents.queryId, queryId), lt(queryEvents.seq, before)))
    .orderBy(desc(queryEvents.seq))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    result: page.map((row) => eventDto(row, true)),
    nextBefore: more ? (page.at(-1)?.seq ?? null) : null,
  };
}

export function eventDto(row: typeof queryEvents.$inferSelect, preview: boolean): QueryEvent {
  const truncated = preview && row.body.length > EVENT_PREVIEW;
  return {
    id: row.id,
    seq: row.seq,
    kind: row.kind as QueryEvent['kind'],
    actorName: row.actorName,
    body: truncated ? row.body.slice(0, EVENT_PREVIEW) : row.body,
    truncated,
    outcome: row.outcome,
    data: row.data,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function readEvent(db: Db, viewer: Viewer, queryId: string, eventId: string) {
  await findVisible(db, viewer, queryId);
  const [row] = await db
    .select()
    .from(queryEvents)
    .where(and(eq(queryEvents.queryId, queryId), eq(queryEvents.id, eventId)));
  if (!row) throw new HttpError(404, 'There is no such event on this query.', 'QUERY_EVENT_NOT_FOUND');
  return eventDto(row, false);
}

/** The status moves of a query, oldest first (what the SLA clocks are computed from). */
async function statusMoves(db: Db | Tx, queryId: string) {
  const rows = await db
    .select({ at: queryEvents.createdAt, data: queryEvents.data })
    .from(queryEvents)
    .where(and(eq(queryEvents.queryId, queryId), eq(queryEvents.kind, 'status')))
    .orderBy(asc(queryEvents.seq));
  return rows.map((row) => ({ at: row.at, to: row.data.to as QueryStatus }));
}

export async function clocksOf(db: Db | Tx, row: QueryRow, sla: SlaSettings, now: Date) {
  return slaClocks({
    createdAt: row.createdAt,
    moves: await statusMoves(db, row.id),
    firstResponseAt: row.firstResponseAt,
    targets: sla.targets[row.priority as QueryPriority] ?? sla.targets.normal,
    calendar: sla.calendar,
    now,
  });
}

/** A clock's outcome for the report: known once met, or once breached (it can never be met then). */
const outcome = (state: string) => (state === 'met' ? true : state === 'breached' ? false : null);

/** Recomputes the SLA deadlines kept on the row (the list filters and sorts on them). */
export async function refreshSla(tx: Db | Tx, id: string, sla: SlaSettings, now: Date) {
  const [row] = await tx.select().from(customerQueries).where(eq(customerQueries.id, id));
  if (!row) return;
  const clocks = await clocksOf(tx, row, sla, now);
  await tx
    .update(customerQueries)
    .set({
      firstResponseDueAt: clocks.firstResponse.dueAt ? new Date(clocks.firstResponse.dueAt) : null,
      resolutionDueAt: clocks.resolution.dueAt ? new Date(clocks.resolution.dueAt) : null,
      slaBreached:
        row.slaBreached ||
        clocks.firstResponse.state === 'breached' ||
        clocks.resolution.state === 'breached',
      firstResponseMet: outcome(clocks.firstResponse.state),
      resolutionMet: outcome(clocks.resolution.state),
    })
    .where(eq(customerQueries.id, id));
}

// ── Actions ─────────────────────────────────────────────────────────────────────────────────────────

export interface EventInput {
  kind: QueryEvent['kind'];
  body?: string;
  outcome?: string;
  data?: Record<string, unknown>;
}

/**
 * Runs one action on a query the viewer may see, under a row lock: `change` answers the fields to set
 * and the events to log; the audit entry, the events, lastActivityAt and the SLA deadlines follow in
 * the same transaction.
 */
export async function act(
  db: Db,
  viewer: Viewer,
  actor: Actor,
  id: string,
  sla: SlaSettings,
  now: Date,
  change: (
    row: QueryRow,
    tx: Tx,
  ) =>
    | Promise<{ set: Partial<typeof customerQueries.$inferInsert>; events: EventInput[]; note?: string }>
    | { set: Partial<typeof customerQueries.$inferInsert>; events: EventInput[]; note?: string },
) {
  await db.transaction(async (tx) => {
    const row = await findVisible(tx, viewer, id, true);
    const { set, events, note } = await change(row, tx);
    await tx
      .update(customerQueries)
      .set({ ...set, lastActivityAt: now, updatedAt: now })
      .where(eq(customerQueries.id, id));
    if (events.length) {
      await tx.insert(queryEvents).values(
        events.map((event) => ({
          queryId: id,
          kind: event.kind,
          actorId: actor.id,
          actorName: actor.name,
          body: event.body ?? '',
          outcome: event.outcome ?? '',
          data: event.data ?? {},
          createdAt: now,
        })),
      );
    }
    const changes = Object.entries(set)
      .filter(([field]) => field !== 'updatedAt')
      .map(([field, after]) => ({
        field,
        before: jsonValue((row as Record<string, unknown>)[field]),
        after: jsonValue(after),
      }))
      .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
    if (changes.length || note) {
      await recordAudit(tx, { subject: { type: 'query', id }, actor, action: 'updated', changes, note });
    }
    await refreshSla(tx, id, sla, now);
  });
}

const jsonValue = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

/** The status move's fields and event; a refused move is a 409 with the reason. */
export function moveTo(row: QueryRow, to: QueryStatus, now: Date) {
  const from = row.status as QueryStatus;
  const problem = queryMoveProblem(from, to);
  if (problem) throw new HttpError(409, problem, 'QUERY_STATUS_REFUSED');
  const set: Partial<typeof customerQueries.$inferInsert> = { status: to };
  if (to === 'resolved' || to === 'closed') {
    // Resolving ends the follow-up and the snooze: no reminder fires for a finished query (Zammad #5051).
    Object.assign(set, {
      resolvedAt: row.resolvedAt ?? now,
      nextFollowUpAt: null,
      followUpNotifiedAt: null,
      snoozedUntil: null,
    });
  }
  if (to === 'open' && (from === 'resolved' || from === 'waiting'))
    Object.assign(set, { snoozedUntil: null });
  if (to === 'open' && from === 'resolved') set.resolvedAt = null;
  return { set, event: { kind: 'status' as const, data: { from, to } } };
}

export async function assertAssignable(db: Db | Tx, assigneeId: string, sellerId: string | null) {
  const [user] = await db
    .select({ role: users.role, sellerId: users.sellerId, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, assigneeId));
  const fits =
    user?.isActive && (user.role !== 'Seller' || (sellerId !== null && user.sellerId === sellerId));
  if (!fits)
    throw new HttpError(
      400,
      'Assign the query to a person who works on this shop’s queries.',
      'BAD_ASSIGNEE',
    );
}

export async function assigneeName(db: Db | Tx, id: string | null) {
  if (!id) return null;
  const [user] = await db
    .select({
      name: sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})`,
    })
    .from(users)
    .where(eq(users.id, id));
  return user?.name ?? null;
}

export async function productName(db: Db | Tx, id: string | null) {
  if (!id) return null;
  const [product] = await db.select({ name: products.title }).from(products).where(eq(products.id, id));
  return product?.name ?? null;
}

export async function sellerNameOf(db: Db | Tx, id: string | null) {
  if (!id) return null;
  const [seller] = await db.select({ name: sellers.sellerName }).from(sellers).where(eq(sellers.id, id));
  return seller?.name ?? null;
}
