// Call logs in the database (call_logs): what the call history routes read and write, and the mapping
// to the contracts (contracts/calls.ts).
import { and, count, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  CallDetails,
  CallLog,
  CallLogDetail,
  CallMedia,
  CallStatus,
  CallTimelineEntry,
  FeedbackData,
  GenerateCallBody,
  ReferenceType,
} from '../../../contracts/calls';
import { phoneDigits } from '../../../contracts/calls';
import type { ServerRole } from '../../../contracts/roles';
import type { Db, Tx } from '../../db/client';
import { callLogs, users } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import { pageWindow, windowIds } from '../../lib/page-window';
import { displayName } from '../users/current-user';
import { mayCall } from '../voice/call-policy';
import { findNumberOwner } from '../voice/phone-numbers';

export type CallRow = typeof callLogs.$inferSelect;
type Person = { id: string | null; firstName: string | null; lastName: string | null; email: string | null };

const owner = alias(users, 'owner');
const peer = alias(users, 'peer');
const person = (table: typeof owner | typeof peer) => ({
  id: table.id,
  firstName: table.firstName,
  lastName: table.lastName,
  email: table.email,
});
const entryColumns = { call: callLogs, owner: person(owner), peer: person(peer) };

const nameOf = (who: Person | null) =>
  who?.id ? displayName(who.firstName ?? '', who.lastName ?? '', who.email ?? '') : null;

export function toCallLog(row: { call: CallRow; owner: Person | null; peer: Person | null }): CallLog {
  const { call } = row;
  return {
    callId: call.id,
    phoneNumber: call.phoneNumber,
    peerName: call.peerUserId ? nameOf(row.peer) : null,
    referenceType: call.referenceType as ReferenceType,
    source: call.source as CallLog['source'],
    media: call.media,
    callDetails: {
      callDuration: call.durationSeconds,
      callStartedAt: call.startedAt?.toISOString() ?? null,
      callStatus: call.callStatus as CallStatus,
      callEndedAt: call.endedAt?.toISOString() ?? null,
    },
    feedbackData:
      call.feedbackRating === null ? null : { rating: call.feedbackRating, text: call.feedbackText ?? '' },
    owner: { id: call.ownerId, name: nameOf(row.owner) ?? 'Unknown user' },
    createdAt: call.createdAt.toISOString(),
  };
}

export interface CallFilters {
  /** Only this user's logs; undefined for an admin reading everyone's. */
  ownerId?: string;
  /** Digits anywhere in the other party's number. */
  number?: string;
  status?: CallStatus;
  direction?: ReferenceType;
  from?: string;
  to?: string;
}

function whereOf(filters: CallFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.ownerId) conditions.push(eq(callLogs.ownerId, filters.ownerId));
  const digits = filters.number ? phoneDigits(filters.number) : '';
  // phone_digits LIKE '%…%' is what call_logs_digits_trgm_idx answers (digits only: nothing to escape).
  if (digits) conditions.push(sql`${callLogs.phoneDigits} like ${containsPattern(digits)}`);
  if (filters.status) conditions.push(eq(callLogs.callStatus, filters.status));
  if (filters.direction) conditions.push(eq(callLogs.referenceType, filters.direction));
  if (filters.from) conditions.push(gte(callLogs.createdAt, new Date(filters.from)));
  if (filters.to) conditions.push(lte(callLogs.createdAt, new Date(filters.to)));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * Counting stops here: "1,000+" calls (50 pages) says as much as the exact figure, and counting costs
 * a walk over every match on every page (PGlite: ~25 ms for 10k index entries, ~50 ms for all 100k).
 * Pages past the cap are still served (an offset walk, ~10 ms per 10k entries); filters narrow the list.
 */
export const COUNT_CAP = 1_000;

/**
 * One page of call logs, newest first (created_at desc, id desc), and how many match (up to
 * COUNT_CAP; `countCapped` says there are more). The order is the key of call_logs_owner_idx (a
 * user's own logs) and call_logs_recent_idx (everyone's), so a page is a deferred join like the help
 * chats' list: its ids come from a scan of that index, then those rows by primary key with their owner
 * and peer. When the count is exact, a page past the middle is read from the other end, so no page
 * walks more than half the matches. The count itself reads at most COUNT_CAP + 1 index entries (an
 * index-only scan of call_logs_owner_idx, _owner_status_idx — skip-scanned for admins — or
 * _recent_idx; the trigram index for a number).
 */
export async function listCalls(
  db: Db,
  filters: CallFilters & { skip: number; limit: number },
): Promise<{ result: CallLog[]; count: number; countCapped?: true }> {
  const where = whereOf(filters);
  const matching = db
    .select({ one: sql`1` })
    .from(callLogs)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as('matching');
  const [total] = await db.select({ value: count() }).from(matching);
  const capped = (total?.value ?? 0) > COUNT_CAP;
  const matches = capped ? COUNT_CAP : (total?.value ?? 0);
  const countInfo = capped ? { count: matches, countCapped: true as const } : { count: matches };
  // Past the cap there are more rows than `matches`: a page there is still served, read from the top.
  const window = pageWindow({ total: matches, skip: filters.skip, limit: filters.limit, exact: !capped });
  if (window.size === 0) return { result: [], ...countInfo };
  const page = windowIds(db, window, {
    table: callLogs,
    id: callLogs.id,
    where,
    order: [callLogs.createdAt, callLogs.id],
  });
  const rows = await db
    .select(entryColumns)
    .from(page)
    .innerJoin(callLogs, eq(callLogs.id, page.id))
    .leftJoin(owner, eq(owner.id, callLogs.ownerId))
    .leftJoin(peer, eq(peer.id, callLogs.peerUserId))
    .orderBy(desc(callLogs.createdAt), desc(callLogs.id));
  return { result: rows.map(toCallLog), ...countInfo };
}

/** One call log with its owner and peer, if the reader may see it (ownerId undefined: any owner). */
export async function findCall(db: Db, id: string, ownerId?: string) {
  const [row] = await db
    .select(entryColumns)
    .from(callLogs)
    .leftJoin(owner, eq(owner.id, callLogs.ownerId))
    .leftJoin(peer, eq(peer.id, callLogs.peerUserId))
    .where(ownerId ? and(eq(callLogs.id, id), eq(callLogs.ownerId, ownerId)) : eq(callLogs.id, id));
  return row;
}

export function toCallLogDetail(row: NonNullable<Awaited<ReturnType<typeof findCall>>>): CallLogDetail {
  return { ...toCallLog(row), timeline: row.call.timeline };
}

/** The user whose phone has these digits (users_phone_digits_uq's exact expression), if any. */
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function detailColumns(details: CallDetails) {
  return {
    callStatus: details.callStatus,
    durationSeconds: details.callDuration,
    startedAt: dateOrNull(details.callStartedAt),
    endedAt: dateOrNull(details.callEndedAt),
  };
}

/** What the timeline says about feedback: the rating, and the text when there is one. */
function feedbackNote(feedback: FeedbackData): string {
  return feedback.text ? `Rated ${feedback.rating}/5: ${feedback.text}` : `Rated ${feedback.rating}/5`;
}

export type NewCallLog = Omit<GenerateCallBody, 'callDetails'> & {
  phoneNumber: string;
  callDetails: CallDetails;
  /** Voice unless said: the server logs video calls itself (server/modules/video-calls). */
  media?: CallMedia;
  /**
   * The other party, when the server itself knows who it was (a video call between two users): then the
   * log names them without looking the number up.
   */
  peerUserId?: string;
  /** When the call began, if not now (a video call is logged when it ends). */
  createdAt?: Date;
};

/**
 * A new call log for `ownerId`; its timeline opens with 'created' and the first status. Takes a
 * transaction too, so a call's record and its logs are written together (video calls).
 */
export async function insertCall(
  db: Db | Tx,
  owner: { id: string; role: ServerRole },
  body: NewCallLog,
): Promise<string> {
  const ownerId = owner.id;
  const digits = phoneDigits(body.phoneNumber);
  const media = body.media ?? 'voice';
  let peerUserId = body.peerUserId ?? null;
  if (!body.peerUserId) {
    // The log names the other party only when this call could have happened (call-policy.ts): the
    // owner may call that number, or its owner may call them.
    const peer = await findNumberOwner(db, digits);
    const possible =
      peer &&
      (body.referenceType === 'INCOMING' ? mayCall(peer.role, owner.role) : mayCall(owner.role, peer.role));
    peerUserId = possible ? peer.id : null;
  }
  const at = new Date().toISOString();
  const direction = body.referenceType === 'INCOMING' ? 'Incoming' : 'Outgoing';
  const timeline: CallTimelineEntry[] = [
    {
      at,
      event: 'created',
      note: media === 'video' ? `${direction} video call` : `${direction} call (${body.source})`,
    },
    { at, event: 'status', callStatus: body.callDetails.callStatus },
  ];
  const [row] = await db
    .insert(callLogs)
    .values({
      ownerId,
      phoneNumber: body.phoneNumber,
      phoneDigits: digits,
      peerUserId,
      referenceType: body.referenceType,
      source: body.source,
      media,
      ...detailColumns(body.callDetails),
      timeline,
      ...(body.createdAt ? { createdAt: body.createdAt, updatedAt: body.createdAt } : {}),
    })
    .returning({ id: callLogs.id });
  if (!row) throw new Error('the call log was not stored');
  return row.id;
}

/**
 * Updates the owner's call log in one transaction: locks the row, appends to its timeline (a status
 * entry when the status changes, a feedback entry when feedback is given) and writes everything in a
 * single UPDATE. Returns null, having written nothing, when the log is not the owner's or does not exist.
 */
export async function updateCall(
  db: Db,
  id: string,
  ownerId: string,
  update: { callDetails?: CallDetails; feedbackData?: FeedbackData },
): Promise<CallLog | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ callStatus: callLogs.callStatus, timeline: callLogs.timeline })
      .from(callLogs)
      .where(and(eq(callLogs.id, id), eq(callLogs.ownerId, ownerId)))
      .for('update');
    if (!current) return null;
    const at = new Date().toISOString();
    const added: CallTimelineEntry[] = [];
    const { callDetails, feedbackData } = update;
    if (callDetails && callDetails.callStatus !== current.callStatus) {
      added.push({ at, event: 'status', callStatus: callDetails.callStatus });
    }
    if (feedbackData) added.push({ at, event: 'feedback', note: feedbackNote(feedbackData) });
    await tx
      .update(callLogs)
      .set({
        ...(callDetails ? detailColumns(callDetails) : {}),
        ...(feedbackData ? { feedbackRating: feedbackData.rating, feedbackText: feedbackData.text } : {}),
        timeline: [...current.timeline, ...added],
        updatedAt: new Date(),
      })
      .where(eq(callLogs.id, id));
    const row = await findCall(tx as unknown as Db, id, ownerId);
    if (!row) throw new Error(`call ${id} vanished`);
    return toCallLog(row);
  });
}
